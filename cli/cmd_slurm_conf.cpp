// SPDX-License-Identifier: Apache-2.0
// topoplace slurm-conf SNAPSHOT --format tree [--features FILE] [--name-template T] [-o FILE]
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <system_error>

#include <topo/snapshot.hpp>
#include <topo/slurmconf/tree.hpp>

#include "commands.hpp"
#include "common.hpp"

namespace topo::cli {

namespace {

struct SlurmConfOptions {
    std::string snapshot;
    std::string format = "tree";
    std::string features;  // path, "-" = stdout; empty = none
    std::string name_template;
    std::string output = "-";
    bool include_service = false;
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

int run_slurm_conf(const SlurmConfOptions& o) {
    if (o.format == "block" || o.format == "yaml") {
        std::fprintf(stderr,
                     "topoplace: slurm-conf --format %s is not implemented yet (only --format tree, "
                     "Slurm >= 22.05)\n",
                     o.format.c_str());
        return kUnavailable;
    }
    auto t = load_snapshot(o.snapshot);
    if (!t) return report(t.error());
    slurmconf::TreeOptions to;
    to.name_template = o.name_template;
    to.include_service = o.include_service;
    to.source_label = o.snapshot == "-" ? "stdin" : std::filesystem::path(o.snapshot).filename().string();
    auto tree = slurmconf::generate_tree_conf(**t, to);
    if (!tree) return report(tree.error());
    for (const auto& w : tree->warnings) std::fprintf(stderr, "topoplace: warning: %s\n", w.c_str());
    std::string features_text;
    if (!o.features.empty()) {
        auto fc = slurmconf::generate_features(**t, to);
        if (!fc) return report(fc.error());
        features_text = fc->text;
    }
    if (o.features == "-" && o.output == "-") {
        // Both on stdout: keep topology.conf first; the features are comment-separated
        // and must not be pasted into topology.conf.
        return write_or_report("-", tree->text + "\n# ---- not part of topology.conf: slurm.conf node features ----\n" +
                                        features_text);
    }
    if (int rc = write_or_report(o.output, tree->text); rc != kOk) return rc;
    if (!o.features.empty()) return write_or_report(o.features, features_text);
    return kOk;
}

}  // namespace

Runner add_slurm_conf(CLI::App& app) {
    auto opts = std::make_shared<SlurmConfOptions>();
    auto* sub = app.add_subcommand("slurm-conf", "Generate Slurm topology configuration from a snapshot");
    sub->add_option("snapshot", opts->snapshot, "snapshot file written by `topoplace discover`")->required();
    sub->add_option("--format", opts->format,
                    "tree: topology.conf for topology/tree (22.05+); block, yaml: not implemented yet")
        ->check(CLI::IsMember({"tree", "block", "yaml"}))
        ->capture_default_str();
    sub->add_option("--features", opts->features,
                    "also write slurm.conf 'NodeName=... Features=lg_<group>,sp_<spine>[,nvl_<domain>]' "
                    "lines to FILE ('-' = standard output)");
    sub->add_option("--name-template", opts->name_template,
                    "switch names: {kind} (leaf/spine/core), {level}, {n} (index, 2+ digits), {group} "
                    "(default \"{kind}{n}\", a single top switch \"{kind}\")");
    sub->add_flag("--include-service", opts->include_service,
                  "also place service hosts (login, storage...) in the tree");
    sub->add_option("-o,--output", opts->output, "output file ('-' = standard output)")->capture_default_str();
    return [opts]() { return run_slurm_conf(*opts); };
}

}  // namespace topo::cli
