// SPDX-License-Identifier: Apache-2.0
// What the running jobs' placements cost (issue 16 item 6): docs/perf-model.md "status".
#include <algorithm>
#include <set>

#include <topo/perf/features.hpp>
#include <topo/placement/running.hpp>

namespace topo::placement {

namespace {

int span_tier(const Topology& t, const std::vector<HostId>& hosts) {
    int tier = 0;
    for (auto h : hosts) {
        if (auto lt = t.lowest_common_tier(hosts.front(), h)) tier = std::max(tier, *lt);
    }
    return tier;
}

perf::Slowdown slowdown_of(const Topology& t, const perf::FabricShape& shape, const perf::Params& params,
                           const std::vector<HostId>& hosts, int gph, const ClusterState& state,
                           const std::vector<std::vector<HostId>>& others) {
    perf::JobPlacement jp;
    jp.hosts = hosts;
    for (auto h : hosts) {
        if (const double s = state.at(h).slowdown; s > 1.0) jp.degraded.emplace(h, s);
    }
    const perf::Profile prof = perf::default_layout({}, static_cast<int>(hosts.size()) * gph, gph);
    return perf::slowdown(params, prof, perf::features_of(t, shape, jp, prof, gph, others));
}

}  // namespace

bool record_uplinks(const Topology& t, const perf::FabricShape& shape, ClusterState& state,
                    const std::vector<HostId>& hosts, int sign) {
    if (hosts.size() < 2) return false;
    const perf::Span span = perf::span_of(t, shape, hosts);
    if (span.groups.size() < 2) return false;
    const int multi_pod = span.pods.size() > 1 ? sign : 0;
    for (auto g : span.groups) state.add_uplink_users(GroupId{g}, sign, multi_pod);
    return true;
}

int record_running_uplinks(const Topology& t, const perf::FabricShape& shape, ClusterState& state,
                           const std::vector<std::vector<HostId>>& jobs) {
    int spanning = 0;
    for (const auto& hosts : jobs) spanning += record_uplinks(t, shape, state, hosts, +1) ? 1 : 0;
    return spanning;
}

int record_running_uplinks(const Placer& placer, ClusterState& state, const std::vector<std::vector<HostId>>& jobs) {
    return record_running_uplinks(placer.topology(), placer.fabric_shape(), state, jobs);
}

ClusterCost assess_running(const Placer& placer, const ClusterState& state, const std::vector<RunningJob>& jobs,
                           const perf::Params& params) {
    const Topology& t = placer.topology();
    const perf::FabricShape shape = perf::fabric_shape(t);
    ClusterCost out;
    std::vector<std::vector<HostId>> multi;  // hosts of each multi-node job (uplink sharing)
    std::vector<std::size_t> multi_of(jobs.size(), static_cast<std::size_t>(-1));
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        if (jobs[i].hosts.size() > 1) {
            multi_of[i] = multi.size();
            multi.push_back(jobs[i].hosts);
        }
    }
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        const RunningJob& j = jobs[i];
        JobCost c;
        c.job = i;
        int host_gpus = 0;
        for (auto h : j.hosts) host_gpus = std::max(host_gpus, state.total_gpus(t, h));
        const int n = static_cast<int>(j.hosts.size());
        c.gpus_per_host =
            j.gpus > 0 ? std::max(1, (j.gpus + n + j.unknown_hosts - 1) / (n + j.unknown_hosts)) : host_gpus;
        c.gpus = c.gpus_per_host * n;
        c.tier = span_tier(t, j.hosts);
        std::set<GroupId> groups;
        for (auto h : j.hosts) groups.insert(t.group_of(h));
        c.groups = static_cast<int>(groups.size());
        std::vector<std::vector<HostId>> others;
        others.reserve(multi.size());
        for (std::size_t k = 0; k < multi.size(); ++k) {
            if (k != multi_of[i]) others.push_back(multi[k]);
        }
        const int gph = std::max(1, c.gpus_per_host);
        c.now = slowdown_of(t, shape, params, j.hosts, gph, state, others);
        // The best it could have now: its hosts given back, the cost policy's choice.
        ClusterState freed = state;
        if (freed.groups_with_uplink_users() == 0) {  // the other running jobs' uplinks, for the cost policy
            for (std::size_t k = 0; k < multi.size(); ++k)
                if (k != multi_of[i]) record_uplinks(t, shape, freed, multi[k], +1);
        }
        const bool whole = j.gpus == 0 || c.gpus_per_host >= host_gpus;
        for (auto h : j.hosts) {
            if (whole) {
                freed.set_state(h, NodeState::Idle);
                freed.set_free_gpus(h, -1);
            } else {
                const int total = freed.total_gpus(t, h);
                const int free = std::min(total, freed.free_gpus(t, h) + c.gpus_per_host);
                freed.set_free_gpus(h, free >= total ? -1 : free);
                freed.set_state(h, free >= total ? NodeState::Idle : NodeState::Mixed);
            }
        }
        Request req;
        req.nodes_min = n;
        req.exclusive = whole;
        req.gpus_per_node = whole ? 0 : c.gpus_per_host;
        if (auto p = placer.place(freed, req, Policy::Cost)) {
            c.best_now = slowdown_of(t, shape, params, p->hosts, gph, state, others).s_job;
        }
        c.lost_gpus = c.gpus * (1.0 - 1.0 / c.now.s_job);
        c.degraded_gpus = c.gpus * c.now.s_net * (c.now.s_deg - 1.0) / c.now.s_job;
        out.running_gpus += c.gpus;
        out.lost_gpus += c.lost_gpus;
        out.degraded_gpus += c.degraded_gpus;
        if (c.best_now > 0 && c.best_now < c.now.s_job)
            out.recoverable_gpus += c.gpus * (1.0 / c.best_now - 1.0 / c.now.s_job);
        out.jobs.push_back(c);
    }
    return out;
}

}  // namespace topo::placement
