// SPDX-License-Identifier: Apache-2.0
// topoplace discover: merge real inputs into one snapshot.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <topo/builder.hpp>
#include <topo/hostlist.hpp>
#include <topo/ib_fabric.hpp>
#include <topo/nccl_topo.hpp>
#include <topo/snapshot.hpp>
#include <topo/snapshot_bin.hpp>

#include "commands.hpp"
#include "common.hpp"

#if __has_include(<topo/nvidia_smi_topo.hpp>)
#include <topo/nvidia_smi_topo.hpp>
#define TOPO_CLI_HAVE_NVSMI 1
#endif
#if __has_include(<topo/slurm_topology.hpp>)
#include <topo/slurm_topology.hpp>
#define TOPO_CLI_HAVE_SLURM_TOPO 1
#endif
#if __has_include(<topo/cluster_spec.hpp>)
#include <topo/cluster_spec.hpp>
#define TOPO_CLI_HAVE_SPEC 1
#endif
#if defined(TOPO_HAVE_HWLOC) && __has_include(<topo/hwloc_reader.hpp>)
#include <topo/hwloc_reader.hpp>
#define TOPO_CLI_HAVE_HWLOC 1
#endif
#if defined(TOPO_HAVE_IBNETDISC) && __has_include(<topo/ibnd_reader.hpp>)
#include <topo/ibnd_reader.hpp>
#define TOPO_CLI_HAVE_IBND 1
#endif

namespace topo::cli {

namespace {

struct DiscoverOptions {
    std::vector<std::string> ibnetdiscover;
    std::string node_name_map;
    std::string hca_regex;
    std::string ibnd_cache;
    bool ib_live = false;
    std::vector<std::string> hwloc;
    std::vector<std::string> nccl;
    bool hwloc_live = false;
    std::vector<std::string> nvsmi;
    std::vector<std::string> slurm_topology;
    std::vector<std::string> spec;
    std::string output = "-";
    bool compiled = false;  // also write "<output>.bin" (docs/snapshot.md "Compiled form")
};

/// "HOSTLIST=FILE" or "FILE". A left side with a '/' is part of a path.
struct Targeted {
    std::string hosts;
    std::string file;
};

Targeted split_target(const std::string& arg) {
    const auto eq = arg.find('=');
    if (eq == std::string::npos || arg.substr(0, eq).find('/') != std::string::npos) return {{}, arg};
    return {arg.substr(0, eq), arg.substr(eq + 1)};
}

/// Hosts a node description applies to: the named ones; else every compute host
/// known so far (one node type for the whole fabric); else a new host named after
/// the file's own host name or the file stem.
Result<std::vector<std::string>> targets_for(const Targeted& t,
                                             const std::string& hostname_in_file,
                                             const TopologyBuilder& b,
                                             const std::vector<std::string>& compute_hosts) {
    if (!t.hosts.empty()) {
        auto names = expand_hostlist(t.hosts);
        if (!names) {
            Error e = names.error();
            e.message = "bad host list \"" + t.hosts + "\" for " + t.file + ": " + e.message;
            return fail(std::move(e));
        }
        return names;
    }
    if (!compute_hosts.empty()) return compute_hosts;
    if (!hostname_in_file.empty()) return std::vector<std::string>{hostname_in_file};
    (void)b;
    std::string stem = std::filesystem::path(t.file).filename().string();
    const auto dot = stem.find('.');
    if (dot != std::string::npos && dot > 0) stem = stem.substr(0, dot);
    return std::vector<std::string>{stem};
}

int run_discover(const DiscoverOptions& o, std::vector<std::string>& compute_hosts_out) {
    TopologyBuilder b;
    bool any = false;

    // ---- fabric
    IbImportOptions ibopt;
    if (!o.node_name_map.empty()) {
        auto m = read_node_name_map(o.node_name_map);
        if (!m) return report(m.error());
        ibopt.name_map = std::move(*m);
    }
    if (!o.hca_regex.empty()) ibopt.hca_regex = o.hca_regex;
    for (const auto& f : o.ibnetdiscover) {
        auto fab = read_ibnetdiscover_file(f);
        if (!fab) return report(fab.error());
        auto st = import_ib_fabric(*fab, ibopt, b);
        if (!st) return report(st.error());
        any = true;
    }
#ifdef TOPO_CLI_HAVE_IBND
    if (!o.ibnd_cache.empty() || o.ib_live) {
        auto fab = o.ibnd_cache.empty() ? ibnd::discover() : ibnd::load_cache(o.ibnd_cache);
        if (!fab) return report(fab.error());
        auto st = import_ib_fabric(*fab, ibopt, b);
        if (!st) return report(st.error());
        any = true;
    }
#else
    if (!o.ibnd_cache.empty() || o.ib_live) {
        return report(Error(Errc::Unsupported, "this build has no libibnetdisc support"));
    }
#endif
#ifdef TOPO_CLI_HAVE_SLURM_TOPO
    for (const auto& f : o.slurm_topology) {
        auto all = load_slurm_topology(f);
        if (!all) return report(all.error());
        const SlurmTopology* def = default_slurm_topology(*all);
        if (def == nullptr) return report(Error(Errc::Parse, "no topology in file", f));
        auto st = import_slurm_topology(*def, b);
        if (!st) return report(st.error());
        any = true;
    }
#else
    if (!o.slurm_topology.empty()) return report(Error(Errc::Unsupported, "--slurm-topology is not built in"));
#endif
#ifdef TOPO_CLI_HAVE_SPEC
    for (const auto& f : o.spec) {
        auto st = load_cluster_spec(f, b);
        if (!st) return report(st.error());
        any = true;
    }
#else
    if (!o.spec.empty()) return report(Error(Errc::Unsupported, "--spec is not built in"));
#endif

    // Compute hosts known from the fabric/spec: node descriptions without a host list
    // apply to all of them.
    {
        auto probe = TopologyBuilder(b);
        auto frozen = std::move(probe).freeze();
        if (frozen) {
            for (const auto& h : (*frozen)->hosts()) {
                if (h.role == HostRole::Compute) compute_hosts_out.push_back(h.name);
            }
        }
    }

    // ---- node descriptions
    auto apply = [&](const Targeted& tg, const NodeDescription& nd) -> int {
        auto hosts = targets_for(tg, nd.hostname, b, compute_hosts_out);
        if (!hosts) return report(hosts.error());
        b.apply_node_template(*hosts, nd);
        any = true;
        return kOk;
    };
    // [HOSTLIST=]FILE arguments read by `read` (one node description per file)
    auto apply_files = [&](const std::vector<std::string>& args, auto read) -> int {
        for (const auto& arg : args) {
            const Targeted tg = split_target(arg);
            auto nd = read(tg.file);
            if (!nd) return report(nd.error());
            if (int rc = apply(tg, *nd); rc != kOk) return rc;
        }
        return kOk;
    };
#ifdef TOPO_CLI_HAVE_HWLOC
    if (int rc = apply_files(o.hwloc, [](const std::string& f) { return read_hwloc_xml(f); }); rc != kOk) return rc;
    if (o.hwloc_live) {
        auto nd = read_hwloc_live();
        if (!nd) return report(nd.error());
        if (int rc = apply(Targeted{}, *nd); rc != kOk) return rc;
    }
#else
    if (!o.hwloc.empty() || o.hwloc_live) return report(Error(Errc::Unsupported, "this build has no hwloc support"));
#endif
    if (int rc = apply_files(o.nccl, [](const std::string& f) { return read_nccl_topo_xml(f); }); rc != kOk) return rc;
#ifdef TOPO_CLI_HAVE_NVSMI
    if (int rc = apply_files(o.nvsmi, [](const std::string& f) { return read_nvidia_smi_topo_file(f); }); rc != kOk)
        return rc;
#else
    if (!o.nvsmi.empty()) return report(Error(Errc::Unsupported, "--nvidia-smi-topo is not built in"));
#endif
    if (!any) {
        return report(Error(Errc::InvalidArgument, "nothing to discover: give at least one input "
                                                   "(--ibnetdiscover, --hwloc, --nvidia-smi-topo, --nccl-topo, "
                                                   "--slurm-topology, --spec, --ib-live, --hwloc-live)"));
    }
    if (o.compiled && o.output == "-") {
        return report(Error(Errc::InvalidArgument, "--compiled needs -o FILE (the compiled form is written next to it)"));
    }
    auto t = std::move(b).freeze();
    if (!t) return report(t.error());
    for (const auto& w : (*t)->warnings()) std::fprintf(stderr, "topoplace: warning: %s\n", w.c_str());
    auto st = save_snapshot(**t, o.output);
    if (!st) {
        report(st.error());
        return kCantCreate;
    }
    if (o.output != "-") {
        const Summary s = (*t)->summary();
        std::fprintf(stderr,
                     "topoplace: wrote %s: %d hosts (%d compute), %d GPUs, %d NICs, %d switches in %d tiers, %d rails\n",
                     o.output.c_str(), s.hosts, s.compute_hosts, s.gpus, s.nics, s.switches, s.tiers, s.rails);
    }
    if (o.compiled) {
        const std::string bin = snapshot_bin_path(o.output);
        if (auto c = compile_snapshot(o.output, bin); !c) {
            report(c.error());
            return kCantCreate;
        }
        std::fprintf(stderr, "topoplace: wrote %s (compiled form of %s)\n", bin.c_str(), o.output.c_str());
    }
    return kOk;
}

}  // namespace

Runner add_discover(CLI::App& app) {
    auto o = std::make_shared<DiscoverOptions>();
    auto* sub = app.add_subcommand("discover", "Build a topology snapshot from real inputs");
    sub->add_option("--ibnetdiscover", o->ibnetdiscover, "ibnetdiscover dump (default, -f or -s -p format; .gz ok)");
    sub->add_option("--node-name-map", o->node_name_map, "ibnetdiscover --node-name-map file (GUID -> name)");
    sub->add_option("--hca", o->hca_regex, "regex of compute HCA names (e.g. 'mlx5_[0-35-8]'); default: detect");
    sub->add_option("--ibnd-cache", o->ibnd_cache, "libibnetdisc cache file (ibnetdiscover --cache)");
    sub->add_flag("--ib-live", o->ib_live, "discover the fabric live through libibnetdisc");
    sub->add_option("--hwloc", o->hwloc, "[HOSTLIST=]lstopo XML; without HOSTLIST it applies to every compute host");
    sub->add_flag("--hwloc-live", o->hwloc_live, "describe this host through hwloc");
    sub->add_option("--nccl-topo", o->nccl,
                    "[HOSTLIST=]NCCL/RCCL topology XML (NCCL_TOPO_DUMP_FILE); without HOSTLIST it applies to "
                    "every compute host");
    sub->add_option("--nvidia-smi-topo", o->nvsmi, "[HOSTLIST=]`nvidia-smi topo -m` output");
    sub->add_option("--slurm-topology", o->slurm_topology, "existing Slurm topology.conf or topology.yaml");
    sub->add_option("--spec", o->spec, "declarative cluster file (YAML or JSON)");
    sub->add_option("-o,--output", o->output, "snapshot file to write ('-' = stdout)");
    sub->add_flag("--compiled", o->compiled,
                  "also write FILE.bin, the compiled form the SPANK plugin loads fast (see topoplace compile)");
    return [o]() {
        std::vector<std::string> compute;
        return run_discover(*o, compute);
    };
}

}  // namespace topo::cli
