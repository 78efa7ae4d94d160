// SPDX-License-Identifier: Apache-2.0
// Placement -> model inputs (PERF-MODEL 6.1; docs/perf-model.md "Placement features").
#include <algorithm>
#include <cstdint>
#include <numeric>

#include <topo/perf/features.hpp>

namespace topo::perf {

namespace {

int domain_of(const Topology& t, HostId h) {
    const Host& host = t.host(h);
    if (!host.gpus.empty()) {
        const DomainId d = t.gpu(host.gpus.front()).nvl_domain;
        if (d.valid() && t.nvl_domains()[d.index()].multi_node) return static_cast<int>(d.index());
    }
    return -1 - static_cast<int>(h.index());  // its own
}

/// Host h's multi-node NVLink domain (domain_of()) and leaf group index (-1: none), from the
/// shape's per-host tables when it has them (fabric_shape()), else from the topology.
int domain_in(const Topology& t, const FabricShape& shape, HostId h) {
    return shape.host_domain.size() == t.hosts().size() ? shape.host_domain[h.index()] : domain_of(t, h);
}

int group_in(const Topology& t, const FabricShape& shape, HostId h) {
    if (shape.host_group.size() == t.hosts().size()) return shape.host_group[h.index()];
    const GroupId g = t.host(h).group;
    return g.valid() ? static_cast<int>(g.index()) : -1;
}

/// The pod of leaf group `g` (>= 0); -1 when the shape does not know it.
int pod_in(const FabricShape& shape, int g) {
    const auto gi = static_cast<std::size_t>(g);
    return gi < shape.pod_of_group.size() ? shape.pod_of_group[gi] : -1;
}

/// Puts equal values of `v` next to each other: nothing to do when v is monotone (a
/// group's members in rank order mostly are: hosts in id order), else a sort.
template <class T>
void bunch(std::vector<T>& v) {
    if (std::is_sorted(v.begin(), v.end()) || std::is_sorted(v.begin(), v.end(), std::greater<>())) return;
    std::sort(v.begin(), v.end());
}

/// Distinct values of `v` (reorders it).
template <class T>
int distinct(std::vector<T>& v) {
    bunch(v);
    int n = 0;
    for (std::size_t i = 0; i < v.size(); ++i) n += i == 0 || v[i] != v[i - 1] ? 1 : 0;
    return n;
}

/// A Span's lists sorted and without repeats (hosts in id order mostly give them in order
/// already: no sort then).
void sorted_unique(Span& s) {
    if (!std::is_sorted(s.groups.begin(), s.groups.end())) std::sort(s.groups.begin(), s.groups.end());
    s.groups.erase(std::unique(s.groups.begin(), s.groups.end()), s.groups.end());
    if (!std::is_sorted(s.pods.begin(), s.pods.end())) std::sort(s.pods.begin(), s.pods.end());
    s.pods.erase(std::unique(s.pods.begin(), s.pods.end()), s.pods.end());
}

}  // namespace

FabricShape fabric_shape(const Topology& t) {
    FabricShape s;
    const auto& groups = t.groups();
    s.pod_of_group.assign(groups.size(), -1);
    std::vector<std::size_t> parent(groups.size());
    std::iota(parent.begin(), parent.end(), std::size_t{0});
    auto find = [&](std::size_t x) {
        while (parent[x] != x) x = parent[x] = parent[parent[x]];
        return x;
    };
    for (std::size_t a = 0; a < groups.size(); ++a) {
        s.max_group_hosts = std::max(s.max_group_hosts, static_cast<int>(groups[a].hosts.size()));
        if (groups[a].hosts.empty()) continue;
        for (std::size_t b = a + 1; b < groups.size(); ++b) {
            if (groups[b].hosts.empty() || find(a) == find(b)) continue;
            const auto lct = t.lowest_common_tier(groups[a].hosts.front(), groups[b].hosts.front());
            if (lct && *lct <= 1) parent[find(b)] = find(a);
        }
    }
    std::map<std::size_t, int> pod_ids;
    std::map<int, int> pod_hosts;
    for (std::size_t g = 0; g < groups.size(); ++g) {
        auto [it, fresh] = pod_ids.try_emplace(find(g), static_cast<int>(pod_ids.size()));
        s.pod_of_group[g] = it->second;
        pod_hosts[it->second] += static_cast<int>(groups[g].hosts.size());
    }
    s.pods = static_cast<int>(pod_ids.size());
    for (const auto& [p, n] : pod_hosts) s.max_pod_hosts = std::max(s.max_pod_hosts, n);
    s.host_domain.resize(t.hosts().size());
    s.host_group.resize(t.hosts().size());
    for (std::size_t h = 0; h < t.hosts().size(); ++h) {
        const HostId id(static_cast<HostId::Rep>(h));
        s.host_domain[h] = domain_of(t, id);
        const GroupId g = t.host(id).group;
        s.host_group[h] = g.valid() ? static_cast<int>(g.index()) : -1;
    }
    for (const auto& d : t.nvl_domains()) {
        if (!d.multi_node) continue;
        s.nvl72 = true;
        const int usable = d.usable_hosts > 0 ? d.usable_hosts : static_cast<int>(d.hosts.size());
        s.max_domain_hosts = std::max(s.max_domain_hosts, usable);
    }
    return s;
}

int model_tier(const Topology& t, const FabricShape& shape, HostId a, HostId b) {
    if (a == b) return 0;
    const int da = domain_of(t, a);
    if (da >= 0 && da == domain_of(t, b)) return 0;
    const GroupId ga = t.host(a).group;
    const GroupId gb = t.host(b).group;
    if (!ga.valid() || !gb.valid()) return 3;
    if (ga == gb) return 1;
    if (shape.pod_of_group[ga.index()] == shape.pod_of_group[gb.index()]) return 2;
    return 3;
}

Span span_of(const Topology& t, const FabricShape& shape, const std::vector<HostId>& hosts) {
    Span s;
    s.groups.reserve(hosts.size());
    s.pods.reserve(hosts.size());
    for (HostId h : hosts) {
        const int g = group_in(t, shape, h);
        if (g < 0) continue;
        s.groups.push_back(static_cast<std::uint32_t>(g));
        s.pods.push_back(pod_in(shape, g));
    }
    sorted_unique(s);
    return s;
}

UplinkUse uplink_use(const Topology& t, const FabricShape& shape, const std::vector<std::vector<HostId>>& others) {
    UplinkUse u;
    if (others.empty()) return u;
    u.busy_group.assign(shape.pod_of_group.size(), 0);
    u.busy_pod.assign(static_cast<std::size_t>(std::max(0, shape.pods)), 0);
    for (const auto& o : others) {
        const Span sp = span_of(t, shape, o);
        if (sp.groups.size() > 1)
            for (auto x : sp.groups)
                if (x < u.busy_group.size()) u.busy_group[x] = 1;
        if (sp.pods.size() > 1)
            for (auto x : sp.pods)
                if (x >= 0 && static_cast<std::size_t>(x) < u.busy_pod.size())
                    u.busy_pod[static_cast<std::size_t>(x)] = 1;
    }
    return u;
}

Features features_of(const Topology& t, const FabricShape& shape, const JobPlacement& job, const Profile& prof,
                     int gpus_per_host, const std::vector<std::vector<HostId>>& others) {
    return features_of(t, shape, job, prof, gpus_per_host, uplink_use(t, shape, others));
}

Features features_of(const Topology& t, const FabricShape& shape, const JobPlacement& job, const Profile& prof,
                     int gpus_per_host, const UplinkUse& use) {
    Features f;
    const int g = std::max(1, gpus_per_host);
    const int n = static_cast<int>(job.hosts.size());
    f.hosts = std::max(1, n);
    f.gpus = n * g;
    f.nvl72 = shape.nvl72;
    for (const auto& [h, s] : job.degraded) f.slowest_degraded = std::max(f.slowest_degraded, s);
    if (n <= 1) return f;

    auto tier_needed = [&](int hosts) {
        if (hosts <= 1) return 0;
        if (shape.nvl72 && hosts <= shape.max_domain_hosts) return 0;
        if (hosts <= shape.max_group_hosts) return 1;
        if (hosts <= shape.max_pod_hosts) return 2;
        return 3;
    };

    // Per host of the job, read once (not per member of every group): its multi-node NVLink
    // domain (< 0: its own), leaf group and pod (< 0: none, then unique to the host).
    struct Where {
        int dom, grp, pod;
    };

    std::vector<Where> at(static_cast<std::size_t>(n));
    const std::size_t n_topo = t.hosts().size();
    const bool tables = shape.host_domain.size() == n_topo && shape.host_group.size() == n_topo;
    // In the same pass: the job's leaf groups and pods (span_of(t, shape, job.hosts); repeats
    // in a row dropped here, sorted below only if they did not come in order) and whether
    // every host is in one group or one pod (the highest tier two of them are apart).
    Span job_span;
    bool grouped = true;
    bool one_grp = true;
    bool one_pod = true;
    for (std::size_t i = 0; i < job.hosts.size(); ++i) {
        const HostId h = job.hosts[i];
        const int own = -1 - static_cast<int>(h.index());
        // (the shape's per-host tables when it has them: domain_in() and group_in() without
        // their checks per host)
        const int grp = tables ? shape.host_group[h.index()] : group_in(t, shape, h);
        Where& x = at[i];
        x.dom = tables ? shape.host_domain[h.index()] : domain_in(t, shape, h);
        x.grp = grp >= 0 ? grp : own;
        x.pod = grp >= 0 ? pod_in(shape, grp) : own;
        grouped = grouped && grp >= 0;
        one_grp = one_grp && x.grp == at.front().grp;
        one_pod = one_pod && x.pod == at.front().pod;
        if (grp < 0) continue;
        if (job_span.groups.empty() || job_span.groups.back() != static_cast<std::uint32_t>(grp))
            job_span.groups.push_back(static_cast<std::uint32_t>(grp));
        if (job_span.pods.empty() || job_span.pods.back() != x.pod) job_span.pods.push_back(x.pod);
    }
    sorted_unique(job_span);
    // Tier between the job's hosts i and j (model_tier() on their ids).
    auto tier = [&](std::size_t i, std::size_t j) {
        if (job.hosts[i] == job.hosts[j]) return 0;
        const Where& a = at[i];
        const Where& b = at[j];
        if (a.dom >= 0 && a.dom == b.dom) return 0;
        if (a.grp < 0 || b.grp < 0) return 3;
        if (a.grp == b.grp) return 1;
        return a.pod == b.pod ? 2 : 3;
    };

    const int tp = std::max(1, prof.tp);
    const int cp = std::max(1, prof.cp);
    const int pp = std::max(1, prof.pp);
    const int ranks = n * g;
    const int dp = std::max(1, std::min(prof.dp > 0 ? prof.dp : ranks, ranks / (tp * cp * pp)));
    const int ep = std::clamp(prof.ep, 1, dp);

    struct Shape {
        Comm c;
        int size, stride;
    };

    const Shape shapes[] = {{Comm::TP, tp, 1},
                            {Comm::CP, cp, tp},
                            {Comm::EP, ep, tp * cp * pp},
                            {Comm::PP, pp, tp * cp},
                            {Comm::DP, dp, tp * cp * pp}};
    const int used = std::min(ranks, tp * cp * pp * dp);
    std::vector<std::uint32_t> hs;
    std::vector<int> doms;
    std::vector<int> pods;
    std::vector<int> leaf_groups;
    // The highest tier any two of the job's hosts are apart: no group of any class is worse.
    const int tier_cap = grouped && one_grp ? 1 : grouped && one_pod ? 2 : 3;
    for (const auto& sh : shapes) {
        if (sh.size <= 1) continue;
        ClassFeatures worst;
        // Once a group is as bad as any can be (the job's highest tier, a domain per member,
        // and for EP all of its traffic outside), no later group replaces it (the rule below
        // takes a later one only when strictly worse): the walk stops.
        bool worst_possible = false;
        // Every group inside one host (TP inside an HGX board): no group is worse than the
        // default (tier 0, one domain), as the walk below would find.
        const bool in_host = sh.stride * sh.size <= g && g % (sh.stride * sh.size) == 0;
        // The groups' first members (index 0 in this dimension): base = block start + an
        // offset below the stride. With a stride that is a multiple of the GPUs per host, the
        // groups starting on the other GPUs of a host have the same hosts in the same order as
        // the group starting on its first GPU (the same features): only offsets that are
        // multiples of g (bench_place: the cost policy on 64-256-host jobs;
        // PerfFeatures.ShortcutsMatchThePlainWalk... compares with the walk over every rank).
        const int block = sh.stride * sh.size;
        const int step = sh.stride % g == 0 ? g : 1;
        const int stride_q = sh.stride / g;
        const int stride_r = sh.stride % g;
        for (int b0 = 0; !in_host && !worst_possible && b0 < used; b0 += block)
            for (int off = 0; !worst_possible && off < sh.stride && b0 + off < used; off += step) {
                const int base = b0 + off;
                if (base + (sh.size - 1) * sh.stride >= used) continue;
                ClassFeatures cf;
                // distinct hosts, domains (with their member counts), pods and leaf groups of
                // the group: sorted scratch vectors, reused (no allocation per group)
                const auto m = static_cast<std::size_t>(sh.size);
                hs.resize(m);
                doms.resize(m);
                pods.resize(m);
                leaf_groups.resize(m);
                const auto first = static_cast<std::size_t>(base / g);
                // member k's host (base + k stride) / g, stepped without a division per member
                std::size_t i = first;
                int rem = base % g;
                // every member on its own host (ids rising) and no host in a multi-node
                // domain: as many domains as members, one member each (the runs below)
                bool apart = true;
                std::int64_t prev = -1;
                for (std::size_t k = 0; k < m; ++k) {
                    const std::uint32_t id = job.hosts[i].index();
                    hs[k] = id;
                    apart = apart && at[i].dom < 0 && static_cast<std::int64_t>(id) > prev;
                    prev = id;
                    doms[k] = at[i].dom;
                    pods[k] = at[i].pod;
                    leaf_groups[k] = at[i].grp;
                    cf.tier = std::max(cf.tier, tier(first, i));
                    i += static_cast<std::size_t>(stride_q);
                    rem += stride_r;
                    if (rem >= g) {
                        rem -= g;
                        ++i;
                    }
                }
                // a group below the worst tier so far cannot be the worst (the rule below):
                // its counts are not needed
                if (cf.tier < worst.tier) continue;
                long out = 0;  // (integers: summed exactly, in any order)
                cf.domains = 0;
                if (apart) {
                    cf.domains = sh.size;
                    cf.gpus_per_domain = 1;
                    out = static_cast<long>(sh.size) * (sh.size - 1);
                } else {
                    bunch(doms);
                }
                for (std::size_t a = 0; !apart && a < doms.size();) {  // runs of one domain
                    std::size_t b = a;
                    while (b < doms.size() && doms[b] == doms[a]) ++b;
                    const int c = static_cast<int>(b - a);
                    ++cf.domains;
                    cf.gpus_per_domain = std::max(cf.gpus_per_domain, c);
                    out += static_cast<long>(c) * (sh.size - c);
                    a = b;
                }
                if (sh.c == Comm::EP && sh.size > 1)
                    cf.outside = static_cast<double>(out) / (static_cast<double>(sh.size) * (sh.size - 1));
                if (cf.tier > worst.tier || (cf.tier == worst.tier && cf.domains > worst.domains)
                    || (cf.tier == worst.tier && cf.domains == worst.domains && cf.outside > worst.outside)) {
                    cf.members = apart ? sh.size : distinct(hs);
                    cf.pods = distinct(pods);
                    cf.groups = distinct(leaf_groups);
                    worst = cf;
                    worst_possible = worst.tier >= tier_cap && worst.domains >= sh.size
                                     && (sh.c != Comm::EP || worst.outside >= 1.0);
                }
            }
        const int span = std::min(n, ((sh.size - 1) * sh.stride + g) / g);
        worst.ideal_tier = tier_needed(span);
        worst.ideal_domains = shape.nvl72 && span <= shape.max_domain_hosts ? 1 : std::max(1, span);
        f.by_class[static_cast<std::size_t>(sh.c)] = worst;
    }
    // Fragmented: more leaf groups than the job's size needs.
    const auto& groups = job_span.groups;
    const auto& job_pods = job_span.pods;
    const int need = shape.max_group_hosts > 0 ? (n + shape.max_group_hosts - 1) / shape.max_group_hosts : 1;
    f.fragmented = static_cast<int>(groups.size()) > need;
    // u_k: share of the job's leaf groups (pods) whose uplinks another multi-group
    // (multi-pod) job also uses.
    auto busy = [](const std::vector<char>& v, std::size_t i) { return i < v.size() && v[i] != 0; };
    if (groups.size() > 1) {
        int shared = 0;
        for (auto x : groups) shared += busy(use.busy_group, x) ? 1 : 0;
        f.shared[2] = static_cast<double>(shared) / static_cast<double>(groups.size());
    }
    if (job_pods.size() > 1) {
        int shared = 0;
        for (auto x : job_pods) shared += x >= 0 && busy(use.busy_pod, static_cast<std::size_t>(x)) ? 1 : 0;
        f.shared[3] = static_cast<double>(shared) / static_cast<double>(job_pods.size());
    }
    return f;
}

}  // namespace topo::perf
