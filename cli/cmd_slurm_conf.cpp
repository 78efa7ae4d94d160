// SPDX-License-Identifier: Apache-2.0
// topoplace slurm-conf SNAPSHOT --format tree|block|yaml [--features FILE [--weights]]
//                      [--gres FILE] [block / gres / yaml options] [-o FILE]
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <set>
#include <string>
#include <system_error>

#include <topo/slurmconf/block.hpp>
#include <topo/slurmconf/gres.hpp>
#include <topo/slurmconf/nodes.hpp>
#include <topo/slurmconf/tree.hpp>
#include <topo/slurmconf/yaml.hpp>
#include <topo/snapshot.hpp>

#include "commands.hpp"
#include "common.hpp"

namespace topo::cli {

namespace {

struct SlurmConfOptions {
    std::string snapshot;
    std::string format = "tree";
    std::string features;  // path, "-" = stdout; empty = none
    bool weights = false;
    std::string gres;      // path, "-" = stdout; empty = none
    std::string name_template;
    std::string output = "-";
    bool include_service = false;
    // block
    std::string block_sizes;
    std::string block_source = "auto";
    std::string fake_prefix = "fake-";
    bool no_placeholders = false;
    // yaml
    std::string default_topology;
    // gres
    std::string gpu_file = "/dev/nvidia{index}";
    std::string gpu_type;
    bool no_links = false;
};

/// Write `text` to `path` ("-" = stdout) through a temporary file and a rename, so a
/// reader (slurmctld reconfigure) never sees half a file.
Status write_output(const std::string& path, const std::string& text) {
    if (path == "-") {
        std::cout << text;
        std::cout.flush();
        if (!std::cout) return fail(Errc::Io, "cannot write to standard output");
        return Ok{};
    }
    const std::string tmp = path + ".tmp~";
    {
        std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
        if (!f) return fail(Errc::Io, "cannot create " + tmp);
        f << text;
        f.close();
        if (!f) return fail(Errc::Io, "cannot write " + tmp);
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::filesystem::remove(tmp, ec);
        return fail(Errc::Io, "cannot rename " + tmp + " to " + path);
    }
    return Ok{};
}

int write_or_report(const std::string& path, const std::string& text) {
    auto st = write_output(path, text);
    if (!st) {
        report(st.error());
        return kCantCreate;
    }
    return kOk;
}

int usage(const std::string& msg) {
    std::fprintf(stderr, "topoplace: slurm-conf: %s\n", msg.c_str());
    return kUsage;
}

int run_slurm_conf(const SlurmConfOptions& o) {
    if (o.weights && o.features.empty()) {
        return usage("--weights adds Weight= to the node lines of --features FILE; give --features FILE too");
    }
    {
        std::set<std::string> used;
        for (const auto* p : {&o.output, &o.features, &o.gres}) {
            if (p->empty() || *p == "-") continue;
            if (!used.insert(*p).second) return usage("two outputs would go to the same file " + *p);
        }
    }
    slurmconf::TreeOptions to;
    to.name_template = o.name_template;
    to.include_service = o.include_service;
    to.source_label = o.snapshot == "-" ? "stdin" : std::filesystem::path(o.snapshot).filename().string();

    slurmconf::BlockOptions bo;
    bo.include_service = o.include_service;
    bo.source_label = to.source_label;
    bo.fake_prefix = o.fake_prefix;
    bo.placeholders = !o.no_placeholders;
    bo.source = o.block_source == "nvl"      ? slurmconf::BlockSource::NvlDomains
                : o.block_source == "groups" ? slurmconf::BlockSource::LeafGroups
                                             : slurmconf::BlockSource::Auto;
    if (!o.block_sizes.empty()) {
        auto bs = slurmconf::parse_block_sizes(o.block_sizes);
        if (!bs) return usage(bs.error().message);
        bo.block_sizes = std::move(*bs);
    }

    auto t = load_snapshot(o.snapshot);
    if (!t) return report(t.error());

    std::string main_text;
    std::vector<std::string> warnings;
    if (o.format == "tree") {
        auto tree = slurmconf::generate_tree_conf(**t, to);
        if (!tree) return report(tree.error());
        main_text = std::move(tree->text);
        warnings = std::move(tree->warnings);
    } else if (o.format == "block") {
        auto block = slurmconf::generate_block_conf(**t, bo);
        if (!block) return report(block.error());
        main_text = std::move(block->text);
        warnings = std::move(block->warnings);
    } else {
        slurmconf::YamlOptions yo;
        yo.tree = to;
        yo.block = bo;
        yo.default_topology = o.default_topology;
        if (o.block_source != "auto" || !o.block_sizes.empty()) yo.want_block = slurmconf::YamlOptions::Want::Yes;
        if (o.default_topology == "block") yo.want_block = slurmconf::YamlOptions::Want::Yes;
        if (o.default_topology == "tree") yo.want_tree = slurmconf::YamlOptions::Want::Yes;
        auto y = slurmconf::generate_topology_yaml(**t, yo);
        if (!y) return report(y.error());
        main_text = std::move(y->text);
        warnings = std::move(y->warnings);
    }
    for (const auto& w : warnings) std::fprintf(stderr, "topoplace: warning: %s\n", w.c_str());

    std::string features_text;
    if (!o.features.empty()) {
        slurmconf::NodeLineOptions no;
        no.features = true;
        no.weights = o.weights;
        auto nl = slurmconf::generate_node_lines(**t, to, no);
        if (!nl) return report(nl.error());
        if (o.format != "tree") {  // tree warnings were already printed for --format tree
            for (const auto& w : nl->warnings) std::fprintf(stderr, "topoplace: warning: %s\n", w.c_str());
        }
        features_text = std::move(nl->text);
    }
    std::string gres_text;
    if (!o.gres.empty()) {
        slurmconf::GresOptions go;
        go.file_template = o.gpu_file;
        go.type = o.gpu_type;
        go.links = !o.no_links;
        go.include_service = o.include_service;
        auto g = slurmconf::generate_gres_conf(**t, go);
        if (!g) return report(g.error());
        for (const auto& w : g->warnings) std::fprintf(stderr, "topoplace: warning: %s\n", w.c_str());
        gres_text = std::move(g->text);
    }

    // Several outputs on stdout: the main file first, the others after a separator
    // comment (they must not be pasted into topology.conf).
    std::string to_stdout;
    if (o.output == "-") to_stdout += main_text;
    if (o.features == "-") {
        if (!to_stdout.empty()) to_stdout += "\n# ---- not part of topology.conf: slurm.conf node lines ----\n";
        to_stdout += features_text;
    }
    if (o.gres == "-") {
        if (!to_stdout.empty()) to_stdout += "\n# ---- not part of topology.conf: gres.conf ----\n";
        to_stdout += gres_text;
    }
    if (o.output != "-") {
        if (int rc = write_or_report(o.output, main_text); rc != kOk) return rc;
    }
    if (!o.features.empty() && o.features != "-") {
        if (int rc = write_or_report(o.features, features_text); rc != kOk) return rc;
    }
    if (!o.gres.empty() && o.gres != "-") {
        if (int rc = write_or_report(o.gres, gres_text); rc != kOk) return rc;
    }
    if (!to_stdout.empty()) return write_or_report("-", to_stdout);
    return kOk;
}

}  // namespace

Runner add_slurm_conf(CLI::App& app) {
    auto opts = std::make_shared<SlurmConfOptions>();
    auto* sub = app.add_subcommand("slurm-conf", "Generate Slurm topology configuration from a snapshot");
    sub->add_option("snapshot", opts->snapshot, "snapshot file written by `topoplace discover`")->required();
    sub->add_option("--format", opts->format,
                    "tree: topology.conf for topology/tree (Slurm 22.05+); block: topology.conf for "
                    "topology/block (24.05+); yaml: topology.yaml with tree and block topologies (25.05+)")
        ->check(CLI::IsMember({"tree", "block", "yaml"}))
        ->capture_default_str();
    sub->add_option("--features", opts->features,
                    "also write slurm.conf 'NodeName=... Features=lg_<group>,sp_<spine>[,nvl_<domain>]' "
                    "lines to FILE ('-' = standard output)");
    sub->add_flag("--weights", opts->weights,
                  "add Weight= to the --features lines: equal within a leaf group, lighter for the largest "
                  "fabric part and for fewer GPUs per host (see docs/slurm-conf.md)");
    sub->add_option("--gres", opts->gres,
                    "also write gres.conf GPU lines (Links= from the NVLink matrix) to FILE ('-' = stdout)");
    sub->add_option("--name-template", opts->name_template,
                    "switch names: {kind} (leaf/spine/core), {level}, {n} (index, 2+ digits), {group} "
                    "(default \"{kind}{n}\", a single top switch \"{kind}\")");
    sub->add_flag("--include-service", opts->include_service,
                  "also place service hosts (login, storage...) in the tree/blocks/gres");
    sub->add_option("--block-sizes", opts->block_sizes,
                    "BlockSizes, e.g. 18,36,72 (base size first, then base*2^k); default: inferred");
    sub->add_option("--block-source", opts->block_source,
                    "base blocks: nvl (one per multi-node NVLink domain), groups (one per leaf group), auto "
                    "(nvl if the cluster has NVLink domains)")
        ->check(CLI::IsMember({"auto", "nvl", "groups"}))
        ->capture_default_str();
    sub->add_option("--fake-prefix", opts->fake_prefix,
                    "name prefix of fake nodes in placeholder/padded blocks (declare them State=FUTURE)")
        ->capture_default_str();
    sub->add_flag("--no-placeholders", opts->no_placeholders,
                  "do not fill gaps in the rack numbering with placeholder blocks");
    sub->add_option("--default-topology", opts->default_topology,
                    "yaml: the cluster_default topology, tree or block (default: block when built from "
                    "NVLink domains, else tree)")
        ->check(CLI::IsMember({"tree", "block"}));
    sub->add_option("--gpu-file", opts->gpu_file, "gres: device file of GPU {index}")->capture_default_str();
    sub->add_option("--gpu-type", opts->gpu_type,
                    "gres: Type= (default: from the GPU model, e.g. h100; '-' = none)");
    sub->add_flag("--no-links", opts->no_links, "gres: do not write Links=");
    sub->add_option("-o,--output", opts->output, "output file ('-' = standard output)")->capture_default_str();
    return [opts]() { return run_slurm_conf(*opts); };
}

}  // namespace topo::cli
