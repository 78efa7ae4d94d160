// SPDX-License-Identifier: Apache-2.0
// The spread policy (--topo=spread): round-robin over the leaf groups with free hosts, one
// host per group in turn, groups in the model's order, hosts in natural order inside a group.
// For jobs that want bandwidth to storage or that must not share a leaf's uplinks; it asks
// for no switch count and ignores NVLink domains and segments.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include <topo/hostlist.hpp>

#include "internal.hpp"

namespace topo::placement {

Result<Placement> place_spread(const Topology& topo, const ClusterState& st, const Request& req) {
    const int want = req.nodes_max > 0 ? req.nodes_max : req.nodes_min;
    std::set<HostId> excluded(req.excluded.begin(), req.excluded.end());
    // free hosts per group, natural order inside a group, groups by name
    std::vector<std::vector<HostId>> free;
    for (const auto& g : topo.groups()) {
        std::vector<HostId> hs;
        for (auto h : g.hosts) {
            if (excluded.contains(h) || !st.available(h)) continue;
            const auto& hs_state = st.at(h);
            if (req.exclusive && hs_state.state != NodeState::Idle) continue;
            if (!req.exclusive && hs_state.state == NodeState::Alloc) continue;
            if (req.gpus_per_node > 0 && st.free_gpus(topo, h) < req.gpus_per_node) continue;
            hs.push_back(h);
        }
        if (!hs.empty()) free.push_back(std::move(hs));
    }
    // A multi-node job takes degraded hosts only when the others are too few (issue 16 item
    // 5); then they come last in their group. One-node jobs take any.
    if (want > 1 && req.avoid_degraded) {
        auto slow = [&](HostId h) { return st.at(h).slowdown > 1.0; };
        std::size_t fine = 0;
        for (const auto& hs : free)
            fine += static_cast<std::size_t>(std::count_if(hs.begin(), hs.end(), [&](HostId h) { return !slow(h); }));
        for (auto& hs : free) {
            if (fine >= static_cast<std::size_t>(want))
                std::erase_if(hs, slow);
            else
                std::stable_partition(hs.begin(), hs.end(), [&](HostId h) { return !slow(h); });
        }
        std::erase_if(free, [](const auto& hs) { return hs.empty(); });
    }
    Placement p;
    p.policy = Policy::Spread;
    std::size_t round = 0;
    while (static_cast<int>(p.hosts.size()) < want) {
        bool took = false;
        for (auto& hs : free) {
            if (round < hs.size() && static_cast<int>(p.hosts.size()) < want) {
                p.hosts.push_back(hs[round]);
                took = true;
            }
        }
        if (!took) break;
        ++round;
    }
    if (static_cast<int>(p.hosts.size()) < req.nodes_min) {
        return fail(Errc::Busy, "spread: only " + std::to_string(p.hosts.size()) + " hosts available for "
                                    + std::to_string(req.nodes_min));
    }
    std::sort(p.hosts.begin(), p.hosts.end(),
              [&](HostId a, HostId b) { return natural_less(topo.host(a).name, topo.host(b).name); });
    std::set<GroupId> groups;
    int tier = 0;
    for (auto h : p.hosts) {
        groups.insert(topo.group_of(h));
        if (auto t = topo.lowest_common_tier(p.hosts.front(), h)) tier = std::max(tier, *t);
    }
    p.groups.assign(groups.begin(), groups.end());
    p.max_tier = tier;
    p.explanation = "spread: " + std::to_string(p.hosts.size()) + " hosts round-robin over "
                    + std::to_string(groups.size()) + " leaf groups";
    for (auto h : p.hosts) p.degraded_hosts += st.at(h).slowdown > 1.0 ? 1 : 0;
    if (p.degraded_hosts > 0) p.explanation += ", " + std::to_string(p.degraded_hosts) + " of them degraded";
    return p;
}

}  // namespace topo::placement
