// SPDX-License-Identifier: Apache-2.0
#pragma once
// Private: graph indexes of a frozen Topology. Boost types never leave libtopo.

#include <boost/graph/compressed_sparse_row_graph.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <topo/topology.hpp>

namespace topo {

/// Switch graph: one vertex per switch, both directions of every cable.
using SwitchGraph = boost::compressed_sparse_row_graph<boost::directedS, boost::no_property, boost::no_property,
                                                       boost::no_property, std::uint32_t, std::uint32_t>;

struct Topology::Impl {
    SwitchGraph graph;
    std::vector<std::vector<SwitchId>> uplinks;      // per switch
    std::vector<std::vector<SwitchId>> host_leaves;  // per host, rail order
    std::map<std::string, HostId, std::less<>> host_by_name;
    std::map<std::string, SwitchId, std::less<>> switch_by_key;
    /// Multi-source BFS distances over the switch graph (UINT32_MAX = unreachable).
    [[nodiscard]] std::vector<std::uint32_t> bfs(const std::vector<SwitchId>& sources) const;
};

/// A multi-node NVLink domain declared by a cluster file (or stored in a snapshot).
struct DeclaredDomain {
    std::string name;
    int usable_hosts = 0;
    std::vector<HostId> hosts;  ///< sorted
};

/// libtopo-internal access to a Topology under construction. Two producers fill the
/// entity vectors in canonical order (TopologyBuilder::freeze from raw inputs, the
/// snapshot loader straight from its tables); finish() then infers everything else
/// (tiers, rails, leaf groups, NVLink islands, indexes, fingerprint) the same way.
struct TopologyAccess {
    static std::vector<Host>& hosts(Topology& t) { return t.hosts_; }

    static std::vector<Gpu>& gpus(Topology& t) { return t.gpus_; }

    static std::vector<Nic>& nics(Topology& t) { return t.nics_; }

    static std::vector<Switch>& switches(Topology& t) { return t.switches_; }

    static std::vector<Link>& links(Topology& t) { return t.links_; }

    static std::vector<GpuNicPath>& gpu_nic(Topology& t) { return t.gpu_nic_; }

    static std::vector<NvLinkPair>& nvlinks(Topology& t) { return t.nvlinks_; }

    static std::vector<NvSwitch>& nvswitches(Topology& t) { return t.nvswitches_; }

    static std::vector<std::string>& warnings(Topology& t) { return t.warnings_; }

    static Topology::Impl& impl(Topology& t) { return *t.impl_; }

    /// The primary tables a loader fills before finish() (snapshot JSON, compiled form):
    /// `auto [hosts, nics, gpus, switches, links, gpu_nic, nvlinks, nvswitches] = tables(t);`
    struct Tables {
        std::vector<Host>& hosts;
        std::vector<Nic>& nics;
        std::vector<Gpu>& gpus;
        std::vector<Switch>& switches;
        std::vector<Link>& links;
        std::vector<GpuNicPath>& gpu_nic;
        std::vector<NvLinkPair>& nvlinks;
        std::vector<NvSwitch>& nvswitches;
    };

    static Tables tables(Topology& t) {
        return {t.hosts_, t.nics_, t.gpus_, t.switches_, t.links_, t.gpu_nic_, t.nvlinks_, t.nvswitches_};
    }

    /// Expects: switches, hosts (with nics/gpus lists), nics (host, leaf), gpus, links
    /// (switch cables only, a < b, sorted; NIC links are made here), gpu_nic sorted by
    /// (gpu, nic), nvlinks sorted by (a, b) and unique. Overwrites every inferred field.
    /// `known_fingerprint`: when given, taken as the fingerprint instead of hashing the model
    /// (the compiled-snapshot loader, after its payload checksum, with BinCheck::Checksum).
    static Result<TopologyPtr> finish(std::shared_ptr<Topology> topo, const std::vector<DeclaredDomain>& declared,
                                      const std::string* known_fingerprint = nullptr);
};

}  // namespace topo
