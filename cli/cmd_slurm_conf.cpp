// SPDX-License-Identifier: Apache-2.0
// topoplace slurm-conf SNAPSHOT --format tree|block|yaml [--features FILE [--weights]]
//                      [--gres FILE] [block / gres / yaml options] [-o FILE]
// topoplace slurm-conf --check FILE [--slurm-version X.Y] [--slurm-conf slurm.conf]
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <system_error>

#include <topo/atomic_file.hpp>
#include <topo/slurmconf/block.hpp>
#include <topo/slurmconf/check.hpp>
#include <topo/slurmconf/gres.hpp>
#include <topo/slurmconf/nodes.hpp>
#include <topo/slurmconf/tree.hpp>
#include <topo/slurmconf/yaml.hpp>
#include <topo/snapshot.hpp>
#include <topo/text_input.hpp>

#include "commands.hpp"
#include "common.hpp"
#include "slurm_release.hpp"

namespace topo::cli {

namespace {

struct SlurmConfOptions {
    std::string snapshot;
    std::string format = "tree";
    std::string features;  // path, "-" = stdout; empty = none
    bool weights = false;
    std::string gres;  // path, "-" = stdout; empty = none
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
    // the Slurm release the files are for ("" = scontrol --version, else the newest)
    std::string slurm_version;
    // --check FILE: check an existing topology.conf / topology.yaml instead of generating
    std::string check;
    std::string slurm_conf;  // --slurm-conf: the slurm.conf whose nodes the file must name
};

constexpr SlurmRelease kOldestRelease{22, 5, 0};
constexpr SlurmRelease kNewestRelease{26, 5, 0};  // the newest release topoplace is tested on

/// "24.11", "24.11.5", "slurm 24.11.5" -> 24.11 (the micro release does not change the
/// files); nullopt when it is not a release (Slurm's are YY.02, YY.05 and YY.11).
std::optional<SlurmRelease> parse_release(std::string_view s) {
    const auto r = parse_slurm_release(s);
    if (!r || (r->minor != 2 && r->minor != 5 && r->minor != 11)) return std::nullopt;
    return SlurmRelease{r->major, r->minor, 0};
}

/// The release of the Slurm on PATH (`scontrol --version`), nullopt without one.
std::optional<SlurmRelease> installed_release() {
    FILE* p = ::popen("scontrol --version 2>/dev/null", "r");  // fixed command line, no input of ours
    if (p == nullptr) return std::nullopt;
    char buf[128] = {};
    const bool got = std::fgets(buf, sizeof buf, p) != nullptr;
    ::pclose(p);
    if (!got) return std::nullopt;
    return parse_release(buf);
}

/// What a release lacks for this format: a usage error naming the release, or "".
std::string release_refusal(const std::string& format, SlurmRelease r) {
    if (format == "block" && r.yymm() < 2405)
        return "--format block: Slurm " + r.major_minor()
               + " has no topology/block with BlockSizes (24.05+); use --format tree";
    if (format == "yaml" && r.yymm() < 2505)
        return "--format yaml: Slurm " + r.major_minor() + " reads no topology.yaml (25.05+); use --format "
               + std::string(r.yymm() >= 2405 ? "tree or block" : "tree");
    return {};
}

/// The slurm.conf lines the generated file needs on release r (one note line).
std::string release_note(const std::string& format, SlurmRelease r) {
    const std::string sel = "SelectType=select/cons_tres";
    if (format == "tree") return "Slurm " + r.major_minor() + ": slurm.conf needs TopologyPlugin=topology/tree, " + sel;
    const std::string excl = r.yymm() >= 2605 ? "partition Exclusive=TOPO" : "partition ExclusiveTopo=YES";
    if (format == "block")
        return "Slurm " + r.major_minor() + ": slurm.conf needs TopologyPlugin=topology/block, " + sel + "; " + excl
               + " or --exclusive=topo keeps other jobs out of a job's blocks"
               + (r.yymm() >= 2605 ? "; an invalid BlockSizes is fatal to slurmctld" : "");
    return "Slurm " + r.major_minor() + ": topology.yaml replaces topology.conf and TopologyPlugin (slurmctld ignores both "
           "when it exists); partitions choose a topology with Topology=NAME; " + excl;
}

/// Write `text` to `path` ("-" = stdout) through a temporary file and a rename, so a
/// reader (slurmctld reconfigure) never sees half a file.
Status write_output(const std::string& path, const std::string& text) {
    if (path == "-") {
        std::cout << text;
        std::cout.flush();
        if (!std::cout) return fail(Errc::Io, "cannot write to standard output");
        return Ok{};
    }
    return write_file_atomic(path, text, 0644);
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

/// Print findings on `out`, one a line, then one summary line per release checked.
void print_findings(std::FILE* out, const std::vector<slurmconf::Finding>& fs, const std::vector<int>& releases) {
    for (const auto& f : fs) std::fprintf(out, "%s\n", f.to_string().c_str());
    for (int r : releases) {
        int n[3] = {0, 0, 0};
        for (const auto& f : fs)
            if (f.release == r) ++n[static_cast<int>(f.severity)];
        if (n[0] + n[1] + n[2] == 0) {
            std::fprintf(out, "Slurm %s: clean\n", slurmconf::release_name(r).c_str());
        } else {
            std::fprintf(out, "Slurm %s: %d fatal, %d misplaces, %d warning\n", slurmconf::release_name(r).c_str(),
                         n[0], n[1], n[2]);
        }
    }
}

/// --check: 0 clean, 65 with findings, 66 when a file cannot be read.
int run_check(const SlurmConfOptions& o) {
    std::vector<int> releases{slurmconf::kRelease2205, slurmconf::kRelease2411, slurmconf::kRelease2605};
    if (!o.slurm_version.empty()) {
        auto r = parse_release(o.slurm_version);
        const int v = r ? r->yymm() : 0;
        if (v != slurmconf::kRelease2205 && v != slurmconf::kRelease2411 && v != slurmconf::kRelease2605)
            return usage(
                "--check --slurm-version " + o.slurm_version
                + ": the checker knows Slurm 22.05, 24.11 and 26.05 (give one of them, or none for all three)");
        releases = {v};
    }
    slurmconf::CheckOptions co;
    co.label = o.check;
    co.releases = releases;
    if (!o.slurm_conf.empty()) {
        auto sc = read_text_file(o.slurm_conf);
        if (!sc) {
            report(sc.error());
            return kNoInput;
        }
        auto facts = slurmconf::read_slurm_conf_facts(*sc, o.slurm_conf);
        if (!facts) return report(facts.error());
        co.slurm = std::move(*facts);
    }
    auto text = read_text_file(o.check);
    if (!text) {
        report(text.error());
        return kNoInput;
    }
    auto fs = slurmconf::check_topology_file(*text, co);
    print_findings(stdout, fs, releases);
    std::fflush(stdout);
    return fs.empty() ? kOk : kDataErr;
}

int run_slurm_conf(const SlurmConfOptions& o) {
    if (!o.check.empty()) {
        if (!o.snapshot.empty()) return usage("--check FILE checks an existing file: give no snapshot with it");
        return run_check(o);
    }
    if (o.snapshot.empty()) return usage("a snapshot is required (or --check FILE)");
    if (!o.slurm_conf.empty()) return usage("--slurm-conf goes with --check FILE");
    SlurmRelease rel = kNewestRelease;
    if (!o.slurm_version.empty()) {
        auto r = parse_release(o.slurm_version);
        if (!r || r->yymm() < kOldestRelease.yymm())
            return usage("--slurm-version " + o.slurm_version + ": not a Slurm release topoplace supports (22.05 or later, "
                         "as major.minor, e.g. 24.11)");
        rel = *r;
        if (rel.yymm() > kNewestRelease.yymm())
            std::fprintf(stderr,
                         "topoplace: slurm-conf: Slurm %s is newer than the newest release topoplace is tested on "
                         "(%s): writing for %s's rules\n",
                         rel.major_minor().c_str(), kNewestRelease.major_minor().c_str(),
                         kNewestRelease.major_minor().c_str());
    } else if (auto r = installed_release()) {
        rel = *r;
    }
    if (auto why = release_refusal(o.format, rel); !why.empty()) {
        if (o.slurm_version.empty())
            why += " (release from scontrol --version; --slurm-version X.Y writes for another)";
        return usage(why);
    }
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
    {
        // the checker on what we write, for the release it is written for
        slurmconf::CheckOptions co;
        co.label = o.output == "-" ? std::string(o.format == "yaml" ? "topology.yaml" : "topology.conf") : o.output;
        co.kind = o.format == "yaml" ? slurmconf::FileKind::Yaml : slurmconf::FileKind::Conf;
        const int crel = rel.yymm() >= slurmconf::kRelease2605   ? slurmconf::kRelease2605
                         : rel.yymm() >= slurmconf::kRelease2411 ? slurmconf::kRelease2411
                                                                 : slurmconf::kRelease2205;
        co.releases = {crel};
        auto fs = slurmconf::check_topology_file(main_text, co);
        bool fatal = false;
        for (const auto& f : fs) {
            std::fprintf(stderr, "topoplace: check: %s\n", f.to_string().c_str());
            fatal = fatal || f.severity == slurmconf::Severity::Fatal;
        }
        if (fatal) {
            std::fprintf(stderr, "topoplace: slurm-conf: slurmctld %s would exit on this file; nothing written\n",
                         slurmconf::release_name(crel).c_str());
            return kSoftware;
        }
    }
    if (!o.slurm_version.empty()) std::fprintf(stderr, "topoplace: note: %s\n", release_note(o.format, rel).c_str());

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
    sub->add_option("snapshot", opts->snapshot, "snapshot file written by `topoplace discover` (not with --check)");
    sub->add_option("--check", opts->check,
                    "check an existing topology.conf or topology.yaml (ours or anyone's) instead: what makes "
                    "slurmctld 22.05, 24.11, 26.05 (or --slurm-version) exit or misplace jobs, at file:line with "
                    "the rule's source in Slurm; exit 0 clean, 65 with findings");
    sub->add_option("--slurm-conf", opts->slurm_conf,
                    "with --check: the slurm.conf whose NodeName= and TopologyPlugin= the file must agree with");
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
    sub->add_option("--gpu-type", opts->gpu_type, "gres: Type= (default: from the GPU model, e.g. h100; '-' = none)");
    sub->add_flag("--no-links", opts->no_links, "gres: do not write Links=");
    sub->add_option("--slurm-version", opts->slurm_version,
                    "the Slurm release (major.minor) the files are for: formats it lacks are refused, and the "
                    "slurm.conf lines it needs are printed (default: scontrol --version, else 26.05); with --check: "
                    "the one release to check (default: 22.05, 24.11 and 26.05)");
    sub->add_option("-o,--output", opts->output, "output file ('-' = standard output)")->capture_default_str();
    return [opts]() { return run_slurm_conf(*opts); };
}

}  // namespace topo::cli
