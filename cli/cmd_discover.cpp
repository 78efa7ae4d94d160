// SPDX-License-Identifier: Apache-2.0
// topoplace discover: merge real inputs into one snapshot (the pipeline is libtopo's
// discover(); this file adds the options, the optional hwloc/libibnetdisc readers of this
// build and the writing).
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <topo/discover.hpp>
#include <topo/snapshot.hpp>
#include <topo/snapshot_bin.hpp>

#include "commands.hpp"
#include "common.hpp"

#if defined(TOPO_HAVE_HWLOC)
#include <topo/hwloc_reader.hpp>
#endif
#if defined(TOPO_HAVE_IBNETDISC)
#include <topo/ibnd_reader.hpp>
#endif

namespace topo::cli {

namespace {

struct DiscoverOptions {
    DiscoverInputs in;
    std::string output = "-";
    bool compiled = false;  // also write "<output>.bin" (docs/snapshot.md "Compiled form")
};

/// The optional readers this build has.
DiscoverReaders readers() {
    DiscoverReaders r;
#if defined(TOPO_HAVE_HWLOC)
    r.hwloc_file = [](const std::string& f) { return read_hwloc_xml(f); };
    r.hwloc_live = [] { return read_hwloc_live(); };
#endif
#if defined(TOPO_HAVE_IBNETDISC)
    r.ibnd_cache = [](const std::string& f) { return ibnd::load_cache(f); };
    r.ibnd_live = [] { return ibnd::discover(); };
#endif
    return r;
}

int run_discover(const DiscoverOptions& o) {
    if (o.compiled && o.output == "-") {
        return report(
            Error(Errc::InvalidArgument, "--compiled needs -o FILE (the compiled form is written next to it)"));
    }
    auto t = discover(o.in, readers());
    if (!t) return report(t.error());
    for (const auto& w : (*t)->warnings()) std::fprintf(stderr, "topoplace: warning: %s\n", w.c_str());
    auto st = save_snapshot(**t, o.output);
    if (!st) {
        report(st.error());
        return kCantCreate;
    }
    if (o.output != "-") {
        const Summary s = (*t)->summary();
        std::fprintf(
            stderr, "topoplace: wrote %s: %d hosts (%d compute), %d GPUs, %d NICs, %d switches in %d tiers, %d rails\n",
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
    sub->add_option("--ibnetdiscover", o->in.ibnetdiscover, "ibnetdiscover dump (default, -f or -s -p format; .gz ok)");
    sub->add_option("--node-name-map", o->in.node_name_map, "ibnetdiscover --node-name-map file (GUID -> name)");
    sub->add_option("--hca", o->in.hca_regex, "regex of compute HCA names (e.g. 'mlx5_[0-35-8]'); default: detect");
    sub->add_option("--ibnd-cache", o->in.ibnd_cache, "libibnetdisc cache file (ibnetdiscover --cache)");
    sub->add_flag("--ib-live", o->in.ib_live, "discover the fabric live through libibnetdisc");
    sub->add_option("--hwloc", o->in.hwloc, "[HOSTLIST=]lstopo XML; without HOSTLIST it applies to every compute host");
    sub->add_flag("--hwloc-live", o->in.hwloc_live, "describe this host through hwloc");
    sub->add_option("--nccl-topo", o->in.nccl,
                    "[HOSTLIST=]NCCL/RCCL topology XML (NCCL_TOPO_DUMP_FILE); without HOSTLIST it applies to "
                    "every compute host");
    sub->add_option("--nvidia-smi-topo", o->in.nvsmi, "[HOSTLIST=]`nvidia-smi topo -m` output");
    sub->add_option("--slurm-topology", o->in.slurm_topology, "existing Slurm topology.conf or topology.yaml");
    sub->add_option("--spec", o->in.spec, "declarative cluster file (YAML or JSON)");
    sub->add_option("-o,--output", o->output, "snapshot file to write ('-' = stdout)");
    sub->add_flag("--compiled", o->compiled,
                  "also write FILE.bin, the compiled form the SPANK plugin loads fast (see topoplace compile)");
    return [o]() { return run_discover(*o); };
}

}  // namespace topo::cli
