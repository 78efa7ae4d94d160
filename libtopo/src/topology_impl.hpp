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
using SwitchGraph = boost::compressed_sparse_row_graph<boost::directedS,
                                                       boost::no_property,
                                                       boost::no_property,
                                                       boost::no_property,
                                                       std::uint32_t,
                                                       std::uint32_t>;

struct Topology::Impl {
    SwitchGraph graph;
    std::vector<std::vector<SwitchId>> uplinks;      // per switch
    std::vector<std::vector<SwitchId>> host_leaves;  // per host, rail order
    std::map<std::string, HostId, std::less<>> host_by_name;
    std::map<std::string, SwitchId, std::less<>> switch_by_key;
    /// Multi-source BFS distances over the switch graph (UINT32_MAX = unreachable).
    [[nodiscard]] std::vector<std::uint32_t> bfs(const std::vector<SwitchId>& sources) const;
};


}  // namespace topo
