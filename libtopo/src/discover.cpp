// SPDX-License-Identifier: Apache-2.0
// The discover pipeline (see discover.hpp).
#include <filesystem>

#include <topo/builder.hpp>
#include <topo/cluster_spec.hpp>
#include <topo/discover.hpp>
#include <topo/hostlist.hpp>
#include <topo/nccl_topo.hpp>
#include <topo/nvidia_smi_topo.hpp>
#include <topo/slurm_topology.hpp>

namespace topo {

namespace {

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

/// Hosts a node description applies to: the named ones; else every compute host known so
/// far; else a new host named after the file's own host name or the file stem.
Result<std::vector<std::string>> targets_for(const Targeted& t, const std::string& hostname_in_file,
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
    std::string stem = std::filesystem::path(t.file).filename().string();
    const auto dot = stem.find('.');
    if (dot != std::string::npos && dot > 0) stem = stem.substr(0, dot);
    return std::vector<std::string>{stem};
}

Error not_built(const char* what) {
    return Error(Errc::Unsupported, std::string("this build has no ") + what + " support");
}

}  // namespace

Result<TopologyPtr> discover(const DiscoverInputs& o, const DiscoverReaders& readers) {
    TopologyBuilder b;
    bool any = false;

    // ---- fabrics, Slurm topology files, cluster specs
    IbImportOptions ibopt;
    if (!o.node_name_map.empty()) {
        auto m = read_node_name_map(o.node_name_map);
        if (!m) return fail(std::move(m).error());
        ibopt.name_map = std::move(*m);
    }
    if (!o.hca_regex.empty()) ibopt.hca_regex = o.hca_regex;
    for (const auto& f : o.ibnetdiscover) {
        auto fab = read_ibnetdiscover_file(f);
        if (!fab) return fail(std::move(fab).error());
        if (auto st = import_ib_fabric(*fab, ibopt, b); !st) return fail(std::move(st).error());
        any = true;
    }
    if (!o.ibnd_cache.empty() || o.ib_live) {
        if (!(o.ibnd_cache.empty() ? bool(readers.ibnd_live) : bool(readers.ibnd_cache)))
            return fail(not_built("libibnetdisc"));
        auto fab = o.ibnd_cache.empty() ? readers.ibnd_live() : readers.ibnd_cache(o.ibnd_cache);
        if (!fab) return fail(std::move(fab).error());
        if (auto st = import_ib_fabric(*fab, ibopt, b); !st) return fail(std::move(st).error());
        any = true;
    }
    for (const auto& f : o.slurm_topology) {
        auto all = load_slurm_topology(f);
        if (!all) return fail(std::move(all).error());
        const SlurmTopology* def = default_slurm_topology(*all);
        if (def == nullptr) return fail(Errc::Parse, "no topology in file", f);
        if (auto st = import_slurm_topology(*def, b); !st) return fail(std::move(st).error());
        any = true;
    }
    for (const auto& f : o.spec) {
        if (auto st = load_cluster_spec(f, b); !st) return fail(std::move(st).error());
        any = true;
    }

    // Compute hosts known from the fabric/spec: node descriptions without a host list apply
    // to all of them.
    std::vector<std::string> compute_hosts;
    if (auto frozen = TopologyBuilder(b).freeze(); frozen) {
        for (const auto& h : (*frozen)->hosts())
            if (h.role == HostRole::Compute) compute_hosts.push_back(h.name);
    }

    // ---- node descriptions, one per [HOSTLIST=]FILE argument
    auto apply = [&](const Targeted& tg, const NodeDescription& nd) -> Status {
        auto hosts = targets_for(tg, nd.hostname, compute_hosts);
        if (!hosts) return fail(std::move(hosts).error());
        b.apply_node_template(*hosts, nd);
        any = true;
        return Ok{};
    };
    auto apply_files = [&](const std::vector<std::string>& args, const auto& read) -> Status {
        for (const auto& arg : args) {
            const Targeted tg = split_target(arg);
            auto nd = read(tg.file);
            if (!nd) return fail(std::move(nd).error());
            if (auto st = apply(tg, *nd); !st) return st;
        }
        return Ok{};
    };
    if (!o.hwloc.empty() && !readers.hwloc_file) return fail(not_built("hwloc"));
    if (o.hwloc_live && !readers.hwloc_live) return fail(not_built("hwloc"));
    if (auto st = apply_files(o.hwloc, readers.hwloc_file); !st) return fail(std::move(st).error());
    if (o.hwloc_live) {
        auto nd = readers.hwloc_live();
        if (!nd) return fail(std::move(nd).error());
        if (auto st = apply(Targeted{}, *nd); !st) return fail(std::move(st).error());
    }
    if (auto st = apply_files(o.nccl, [](const std::string& f) { return read_nccl_topo_xml(f); }); !st)
        return fail(std::move(st).error());
    if (auto st = apply_files(o.nvsmi, [](const std::string& f) { return read_nvidia_smi_topo_file(f); }); !st)
        return fail(std::move(st).error());
    if (!any) {
        return fail(Errc::InvalidArgument,
                    "nothing to discover: give at least one input "
                    "(--ibnetdiscover, --hwloc, --nvidia-smi-topo, --nccl-topo, "
                    "--slurm-topology, --spec, --ib-live, --hwloc-live)");
    }
    return std::move(b).freeze();
}

}  // namespace topo
