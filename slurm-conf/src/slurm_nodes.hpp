// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file Which hosts of a model are Slurm nodes: the one rule every generator applies.

#include <string>
#include <vector>

#include <topo/hostlist.hpp>
#include <topo/topology.hpp>

namespace topo::slurmconf {

/// A host the generators write as a Slurm node: not a service host (unless asked for),
/// and not an adapter ibnetdiscover could only name by its GUID ("H-<16 hex>"), which
/// is no node name Slurm knows.
inline bool slurm_node(const Host& h, bool include_service) {
    return (include_service || h.role != HostRole::Service) && !is_guid_host_name(h.name);
}

/// One warning naming the GUID-named adapters left out, and the fix; empty if none.
inline std::string guid_hosts_warning(const Topology& t, bool include_service) {
    std::vector<std::string> left;
    for (const auto& h : t.hosts()) {
        if ((include_service || h.role != HostRole::Service) && is_guid_host_name(h.name)) left.push_back(h.name);
    }
    if (left.empty()) return {};
    std::string list;
    for (std::size_t i = 0; i < left.size() && i < 4; ++i) list += (i > 0 ? "," : "") + left[i];
    if (left.size() > 4) list += ",...";
    return std::to_string(left.size()) +
           " adapter(s) without a node description are named by GUID and left out (" + list +
           "); name them with ibnetdiscover's --node-name-map (\"0xGUID hostname\") to include them";
}

}  // namespace topo::slurmconf
