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
                           const perf::Params& params, std::chrono::steady_clock::time_point best_until) {
    // Work grows with the jobs' hosts, not jobs x all hosts (issue 32 point 2): each
    // multi-node job's span is read once; per job, the other jobs' uplink use is the counts
    // less its own, and "its hosts given back" is one working state changed and restored.
    const Topology& t = placer.topology();
    const perf::FabricShape& shape = placer.fabric_shape();
    ClusterCost out;
    const std::size_t ng = shape.pod_of_group.size();
    const auto np = static_cast<std::size_t>(std::max(0, shape.pods));
    std::vector<int> group_users(ng, 0);  // spanning jobs using each group's uplinks
    std::vector<int> pod_users(np, 0);    // multi-pod jobs using each pod's
    std::vector<perf::Span> spans(jobs.size());
    std::vector<char> spanning(jobs.size(), 0);
    bool any_multi = false;
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        if (jobs[i].hosts.size() < 2) continue;
        any_multi = true;
        spans[i] = perf::span_of(t, shape, jobs[i].hosts);
        const auto& sp = spans[i];
        if (sp.groups.size() > 1) {
            spanning[i] = 1;
            for (auto g : sp.groups)
                if (g < ng) ++group_users[g];
        }
        if (sp.pods.size() > 1)
            for (auto p : sp.pods)
                if (p >= 0 && static_cast<std::size_t>(p) < np) ++pod_users[static_cast<std::size_t>(p)];
    }
    // The other running jobs' uplink use, for job i: the counts less its own.
    auto others_use = [&](std::size_t i) {
        perf::UplinkUse u;
        if (!any_multi) return u;
        u.busy_group.assign(ng, 0);
        u.busy_pod.assign(np, 0);
        for (std::size_t g = 0; g < ng; ++g) u.busy_group[g] = group_users[g] > 0 ? 1 : 0;
        for (std::size_t p = 0; p < np; ++p) u.busy_pod[p] = pod_users[p] > 0 ? 1 : 0;
        if (spanning[i] != 0)
            for (auto g : spans[i].groups)
                if (g < ng) u.busy_group[g] = group_users[g] > 1 ? 1 : 0;
        if (spans[i].pods.size() > 1)
            for (auto p : spans[i].pods)
                if (p >= 0 && static_cast<std::size_t>(p) < np)
                    u.busy_pod[static_cast<std::size_t>(p)] = pod_users[static_cast<std::size_t>(p)] > 1 ? 1 : 0;
        return u;
    };
    auto slowdown_with = [&](const std::vector<HostId>& hosts, int gph, const perf::UplinkUse& use) {
        perf::JobPlacement jp;
        jp.hosts = hosts;
        for (auto h : hosts) {
            if (const double s = state.at(h).slowdown; s > 1.0) jp.degraded.emplace(h, s);
        }
        const perf::Profile prof = perf::default_layout({}, static_cast<int>(hosts.size()) * gph, gph);
        return perf::slowdown(params, prof, perf::features_of(t, shape, jp, prof, gph, use));
    };
    // The state the best placements are chosen on: every multi-node job's uplinks recorded
    // (unless the caller recorded them), each job's own taken off while it is assessed.
    ClusterState work = state;
    const bool record = work.groups_with_uplink_users() == 0;
    if (record)
        for (const auto& j : jobs) record_uplinks(t, shape, work, j.hosts, +1);
    std::vector<HostState> saved;
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
        const perf::UplinkUse use = others_use(i);
        const int gph = std::max(1, c.gpus_per_host);
        c.now = slowdown_with(j.hosts, gph, use);
        // The best it could have now: its hosts given back, the cost policy's choice.
        if (record) record_uplinks(t, shape, work, j.hosts, -1);
        const bool whole = j.gpus == 0 || c.gpus_per_host >= host_gpus;
        saved.clear();
        for (auto h : j.hosts) saved.push_back(work.at(h));
        for (auto h : j.hosts) {
            if (whole) {
                work.set_state(h, NodeState::Idle);
                work.set_free_gpus(h, -1);
            } else {
                const int total = work.total_gpus(t, h);
                const int free = std::min(total, work.free_gpus(t, h) + c.gpus_per_host);
                work.set_free_gpus(h, free >= total ? -1 : free);
                work.set_state(h, free >= total ? NodeState::Idle : NodeState::Mixed);
            }
        }
        Request req;
        req.nodes_min = n;
        req.exclusive = whole;
        req.gpus_per_node = whole ? 0 : c.gpus_per_host;
        if (std::chrono::steady_clock::now() >= best_until) {
            c.best_skipped = true;
            ++out.best_skipped;
        } else if (auto p = placer.place(work, req, Policy::Cost)) {
            c.best_now = slowdown_with(p->hosts, gph, use).s_job;
        }
        // restored in reverse: a host listed twice gets its first saved state back
        for (std::size_t k = j.hosts.size(); k-- > 0;) work.set(j.hosts[k], saved[k]);
        if (record) record_uplinks(t, shape, work, j.hosts, +1);
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
