// SPDX-License-Identifier: Apache-2.0
// place(): request normalisation, unit capacities, the common finishing of a placement
// (metrics, lower bounds, explanation) and the Unsatisfiable/Busy distinction.
#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <sstream>

#include <cstdio>

#include <topo/enum_names.hpp>
#include <topo/hostlist.hpp>
#include <topo/perf/features.hpp>
#include <topo/placement/place.hpp>

#include "internal.hpp"

namespace topo::placement {

namespace {
constexpr std::array<const char*, 5> kPolicyNames{"topo", "slurm-tree", "linear", "cost", "spread"};
static_assert(kPolicyNames.size() == static_cast<std::size_t>(Policy::Spread) + 1);
}  // namespace

const char* policy_name(Policy p) noexcept { return enum_name(p, kPolicyNames, "topo"); }

Result<Policy> policy_from_name(std::string_view s) {
    if (s == "slurm_tree" || s == "tree") return Policy::SlurmTree;  // accepted spellings
    if (auto p = enum_from_name<Policy>(s, kPolicyNames)) return *p;
    return fail(Errc::InvalidArgument,
                "unknown policy \"" + std::string(s) + "\" (topo, slurm-tree, linear, cost, spread)");
}

// ------------------------------------------------------------------ unit capacities

namespace {

/// Eligible hosts of a leaf grouped in segment cells (by multi-node NVLink domain).
std::vector<std::vector<std::uint32_t>> leaf_cells(const Work& w, int leaf) {
    const auto& ix = *w.ix;
    std::map<int, std::vector<std::uint32_t>> by_dom;
    for (auto h : ix.leaf_hosts[static_cast<std::size_t>(leaf)]) {
        if (unit_of(w, h) > 0) by_dom[ix.domain_of_host[h]].push_back(h);
    }
    std::vector<std::vector<std::uint32_t>> out;
    for (auto& [d, hs] : by_dom) {
        if (d >= 0) {
            const int usable = ix.domains[static_cast<std::size_t>(d)].usable;
            if (usable > 0 && static_cast<int>(hs.size()) > usable) hs.resize(static_cast<std::size_t>(usable));
        }
        out.push_back(std::move(hs));
    }
    return out;
}

}  // namespace

void compute_caps(Work& w) {
    const auto& ix = *w.ix;
    w.host_units.assign(static_cast<std::size_t>(ix.n_hosts), 0);
    w.leaf_cap.assign(static_cast<std::size_t>(ix.n_leaves), 0);
    for (int l = 0; l < ix.n_leaves; ++l) {
        int cap = 0;
        for (auto h : ix.leaf_hosts[static_cast<std::size_t>(l)]) {
            const int u = host_units(w, h);
            w.host_units[h] = u;
            cap += u;
        }
        if (w.mode == UnitMode::Segments) {
            cap = 0;
            for (const auto& cell : leaf_cells(w, l))
                cap += static_cast<int>(cell.size()) / w.seg;
        }
        w.leaf_cap[static_cast<std::size_t>(l)] = cap;
    }
}

namespace {

/// ClusterState::total_gpus() without touching the Topology (a placeable host).
int total_of(const Work& w, std::uint32_t h) {
    return w.briefs[h].total;
}

/// ClusterState::free_gpus() without touching the Topology (a placeable host).
int free_of(const Work& w, std::uint32_t h) {
    return w.briefs[h].free;
}

}  // namespace

bool caps_from_counts_ok(const Work& w) {
    return !w.ideal && w.excluded.empty() && w.restrict_domain < 0 && (!w.req.rail_aligned || w.ix->all_rail_complete)
           && (w.mode == UnitMode::Nodes || w.mode == UnitMode::Gpus);
}

void compute_caps_from_counts(Work& w) {
    const auto& ix = *w.ix;
    w.host_units.clear();
    w.leaf_cap.resize(static_cast<std::size_t>(ix.n_leaves));
    for (int l = 0; l < ix.n_leaves; ++l) {
        const GroupId g = ix.sw[static_cast<std::size_t>(l)].group;
        w.leaf_cap[static_cast<std::size_t>(l)] = w.mode == UnitMode::Gpus
                                                      ? static_cast<int>(w.state->group_free_gpus(g))
                                                      : w.state->group_hosts_fitting(g, w.req.exclusive, w.gpn);
    }
    if (w.skip != nullptr) {  // the counts include the degraded hosts: take theirs off, O(degraded)
        for (auto h : *w.skip) {
            const int leaf = ix.leaf_of_host[h];
            if (leaf >= 0) w.leaf_cap[static_cast<std::size_t>(leaf)] -= host_units(w, h, false);
        }
    }
}

int take_from_leaf(const Work& w, int leaf, int units, Choice& c) {
    const auto& ix = *w.ix;
    if (units <= 0) return 0;
    const auto& hs = ix.leaf_hosts[static_cast<std::size_t>(leaf)];
    int taken = 0;
    switch (w.mode) {
        case UnitMode::Nodes: {
            const bool best_fit = !w.req.exclusive && w.gpn > 0 && !w.ideal;
            if (!best_fit && w.host_units.empty() && w.req.exclusive) {
                // the same as below when the caps came from the group counts (no
                // exclusions, domain or rail filter: caps_from_counts_ok): eligible =
                // idle, healthy, enough GPUs; the Brief alone decides
                for (auto h : hs) {
                    if (taken == units) break;
                    const ClusterState::Brief& b = w.briefs[h];
                    if (b.state != NodeState::Idle || b.unhealthy || w.gpn > b.total) continue;
                    if (w.skip != nullptr && b.degraded) continue;
                    c.hosts.push_back(h);
                    c.gpus_per_host.push_back(w.gpn > 0 ? w.gpn : b.total);
                    ++taken;
                }
                break;
            }
            if (!best_fit) {
                // config order: the first `units` eligible hosts are the answer, the rest
                // of the group need not be looked at
                for (auto h : hs) {
                    if (taken == units) break;
                    if (unit_of(w, h) <= 0) continue;
                    c.hosts.push_back(h);
                    c.gpus_per_host.push_back(w.gpn > 0 ? w.gpn : w.req.exclusive ? total_of(w, h) : 0);
                    ++taken;
                }
                break;
            }
            // Best fit: hosts with the fewest free GPUs that still fit first, so whole
            // hosts stay whole (stable: equal ones in config order).
            std::vector<std::pair<int, std::uint32_t>> el;  // free GPUs, host
            el.reserve(hs.size());
            for (auto h : hs) {
                if (unit_of(w, h) > 0) el.emplace_back(free_of(w, h), h);
            }
            std::stable_sort(el.begin(), el.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
            for (const auto& [f, h] : el) {
                if (taken == units) break;
                c.hosts.push_back(h);
                c.gpus_per_host.push_back(w.gpn);
                ++taken;
            }
            break;
        }
        case UnitMode::Segments: {
            auto cells = leaf_cells(w, leaf);
            std::vector<int> cap(cells.size());
            for (std::size_t i = 0; i < cells.size(); ++i)
                cap[i] = static_cast<int>(cells[i].size()) / w.seg;
            std::vector<std::size_t> pos(cells.size(), 0);
            while (taken < units) {
                const int r = units - taken;
                // smallest cell that holds all r segments, else the largest cell
                int pick = -1;
                for (std::size_t i = 0; i < cells.size(); ++i) {
                    if (cap[i] >= r && (pick < 0 || cap[i] < cap[static_cast<std::size_t>(pick)]))
                        pick = static_cast<int>(i);
                }
                if (pick < 0) {
                    for (std::size_t i = 0; i < cells.size(); ++i) {
                        if (cap[i] > 0 && (pick < 0 || cap[i] > cap[static_cast<std::size_t>(pick)]))
                            pick = static_cast<int>(i);
                    }
                }
                if (pick < 0) break;
                const auto p = static_cast<std::size_t>(pick);
                const int k = std::min(cap[p], r);
                for (int s = 0; s < k * w.seg; ++s) {
                    const auto h = cells[p][pos[p]++];
                    c.hosts.push_back(h);
                    c.gpus_per_host.push_back(w.gpn > 0 ? w.gpn : w.req.exclusive ? total_of(w, h) : 0);
                }
                cap[p] -= k;
                taken += k;
            }
            break;
        }
        case UnitMode::Gpus: {
            std::vector<std::pair<int, std::uint32_t>> el;  // free, host
            for (auto h : hs) {
                if (unit_of(w, h) > 0) el.emplace_back(unit_of(w, h), h);
            }
            std::vector<bool> used(el.size(), false);
            while (taken < units) {
                const int r = units - taken;
                int pick = -1;
                for (std::size_t i = 0; i < el.size(); ++i) {  // best fit for the rest
                    if (!used[i] && el[i].first >= r
                        && (pick < 0 || el[i].first < el[static_cast<std::size_t>(pick)].first)) {
                        pick = static_cast<int>(i);
                    }
                }
                if (pick < 0) {  // else the host with most free GPUs
                    for (std::size_t i = 0; i < el.size(); ++i) {
                        if (!used[i] && (pick < 0 || el[i].first > el[static_cast<std::size_t>(pick)].first))
                            pick = static_cast<int>(i);
                    }
                }
                if (pick < 0) break;
                const auto p = static_cast<std::size_t>(pick);
                used[p] = true;
                const int k = std::min(el[p].first, r);
                c.hosts.push_back(el[p].second);
                c.gpus_per_host.push_back(k);
                taken += k;
            }
            break;
        }
    }
    return taken;
}

// ------------------------------------------------------------------ bounds

Bounds lower_bounds(const Work& w) {
    const auto& ix = *w.ix;
    Bounds b;
    std::vector<int> caps;
    int best_root = -1;
    for (int x : ix.by_level_order) {
        const auto& s = ix.sw[static_cast<std::size_t>(x)];
        if (w.req.max_tier >= 0 && s.level > w.req.max_tier) continue;
        caps.clear();
        long total = 0;
        for (int l : s.leaves) {
            const int cp = w.leaf_cap[static_cast<std::size_t>(l)];
            if (cp > 0) {
                caps.push_back(cp);
                total += cp;
            }
        }
        if (total < w.demand) continue;
        if (b.tier < 0) b.tier = s.level;
        std::sort(caps.begin(), caps.end(), std::greater<>());
        int mg = 0;
        long acc = 0;
        while (acc < w.demand)
            acc += caps[static_cast<std::size_t>(mg++)];
        if (b.groups < 0 || mg < b.groups) {
            b.groups = mg;
            best_root = x;
        }
    }
    if (b.groups < 0) return b;
    if (ix.uniform_leaf_switches) {
        b.leaf_switches = b.groups * (ix.leaf_switch_count.empty() ? 1 : ix.leaf_switch_count.front());
        return b;
    }
    // Leaf groups with different numbers of leaf switches: fewest switches is a 0/1
    // knapsack (min sum of switch counts with enough units), solved exactly per
    // allowed top switch.
    int best = -1;
    for (int x : ix.by_level_order) {
        const auto& s = ix.sw[static_cast<std::size_t>(x)];
        if (w.req.max_tier >= 0 && s.level > w.req.max_tier) continue;
        if (s.parent >= 0
            && !(w.req.max_tier >= 0 && ix.sw[static_cast<std::size_t>(s.parent)].level > w.req.max_tier)) {
            continue;  // only the highest allowed switches
        }
        const int D = w.demand;
        std::vector<int> dp(static_cast<std::size_t>(D) + 1, -1);  // units (capped) -> min switches
        dp[0] = 0;
        for (int l : s.leaves) {
            const int cp = w.leaf_cap[static_cast<std::size_t>(l)];
            if (cp <= 0) continue;
            const int wt = ix.leaf_switch_count[static_cast<std::size_t>(l)];
            for (int u = D; u >= 0; --u) {
                if (dp[static_cast<std::size_t>(u)] < 0) continue;
                const int nu = std::min(D, u + cp);
                const int v = dp[static_cast<std::size_t>(u)] + wt;
                if (dp[static_cast<std::size_t>(nu)] < 0 || v < dp[static_cast<std::size_t>(nu)])
                    dp[static_cast<std::size_t>(nu)] = v;
            }
        }
        if (dp[static_cast<std::size_t>(D)] >= 0 && (best < 0 || dp[static_cast<std::size_t>(D)] < best))
            best = dp[static_cast<std::size_t>(D)];
    }
    (void)best_root;
    b.leaf_switches = best;
    return b;
}

// ------------------------------------------------------------------ finishing

namespace {

/// Append host h's first k free GPU indices to `out` as its next list; returns how many.
int pick_gpu_indices(const Work& w, std::uint32_t h, int k, GpuLists& out) {
    const int total = w.briefs[h].total;
    const int n = std::max(0, std::min(k, total));
    int* dst = out.open_host(static_cast<std::size_t>(n));
    if (n == 0) return 0;
    if (!w.briefs[h].busy_listed) {  // the first n of 0..total-1
        for (int g = 0; g < n; ++g)
            dst[g] = g;
        return n;
    }
    const auto& busy = w.state->at(HostId{h}).busy_gpus;
    int got = 0;
    auto b = busy.begin();  // sorted: walk it along g instead of a search per GPU
    for (int g = 0; g < total && got < n; ++g) {
        while (b != busy.end() && *b < g)
            ++b;
        if (b == busy.end() || *b != g) dst[got++] = g;
    }
    out.trim_last(static_cast<std::size_t>(n - got));
    return got;
}

/// Sort `v`. Policies append hosts leaf group by leaf group, each group's hosts in
/// ascending order: merge those ascending runs (O(n log runs)) instead of sorting.
void sort_runs(std::vector<std::uint64_t>& v) {
    std::vector<std::size_t> bounds{0};  // run starts, then v.size()
    for (std::size_t i = 1; i < v.size(); ++i) {
        if (v[i] < v[i - 1]) bounds.push_back(i);
    }
    bounds.push_back(v.size());
    if (bounds.size() <= 2) return;  // one run: sorted
    std::vector<std::uint64_t> buf(v.size());
    {
        // Leaf groups usually hold disjoint id ranges: then the runs, ordered by their
        // first key, do not overlap and the answer is their concatenation (no merge).
        const std::size_t nr = bounds.size() - 1;
        std::vector<std::size_t> runs(nr);
        std::iota(runs.begin(), runs.end(), std::size_t{0});
        std::sort(runs.begin(), runs.end(), [&](std::size_t a, std::size_t b) { return v[bounds[a]] < v[bounds[b]]; });
        bool disjoint = true;
        for (std::size_t r = 1; r < nr && disjoint; ++r)
            disjoint = v[bounds[runs[r - 1] + 1] - 1] < v[bounds[runs[r]]];
        if (disjoint) {
            auto out = buf.begin();
            for (auto r : runs)
                out = std::copy(v.begin() + static_cast<std::ptrdiff_t>(bounds[r]),
                                v.begin() + static_cast<std::ptrdiff_t>(bounds[r + 1]), out);
            v.swap(buf);
            return;
        }
    }
    while (bounds.size() > 2) {  // merge neighbouring runs pairwise
        std::vector<std::size_t> next{0};
        for (std::size_t r = 0; r + 1 < bounds.size(); r += 2) {
            const auto b0 = static_cast<std::ptrdiff_t>(bounds[r]);
            const auto b1 = static_cast<std::ptrdiff_t>(bounds[r + 1]);
            if (r + 2 < bounds.size()) {
                const auto b2 = static_cast<std::ptrdiff_t>(bounds[r + 2]);
                std::merge(v.begin() + b0, v.begin() + b1, v.begin() + b1, v.begin() + b2, buf.begin() + b0);
                next.push_back(bounds[r + 2]);
            } else {
                std::copy(v.begin() + b0, v.begin() + b1, buf.begin() + b0);
                next.push_back(bounds[r + 1]);
            }
        }
        v.swap(buf);
        bounds = std::move(next);
    }
}

Placement finish(const Work& w, Choice& c, Policy policy, const Bounds& b) {
    const auto& ix = *w.ix;
    const Topology& t = *w.topo;
    Placement p;
    p.policy = policy;
    // hosts in natural (= id) order, GPUs with them: one key per host (id, GPUs), ids
    // are distinct, so a plain sort of the keys is the order
    std::vector<std::uint64_t> order(c.hosts.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = (std::uint64_t{c.hosts[i]} << 32U) | static_cast<std::uint32_t>(c.gpus_per_host[i]);
    sort_runs(order);
    int gpus_left = w.req.total_gpus > 0 ? w.req.total_gpus : -1;
    p.hosts.reserve(order.size());
    std::size_t gpu_hint = 0;
    for (auto key : order)
        gpu_hint += static_cast<std::uint32_t>(key);
    p.gpus.reserve(order.size(), gpu_hint);
    for (auto key : order) {
        const auto h = static_cast<std::uint32_t>(key >> 32U);
        int k = static_cast<int>(static_cast<std::uint32_t>(key));
        p.degraded_hosts += w.briefs[h].degraded ? 1 : 0;
        if (gpus_left >= 0) {
            k = std::min(k, gpus_left);
            gpus_left -= k;
        }
        p.hosts.push_back(HostId{h});
        p.total_gpus += pick_gpu_indices(w, h, k, p.gpus);
    }
    // leaves and groups
    std::vector<int> count(static_cast<std::size_t>(ix.n_leaves), 0);
    std::vector<std::uint32_t> phys;  // sorted + unique below (no node allocations)
    std::vector<std::uint32_t> doms;
    {
        // hosts are in id order, so a leaf group's hosts are mostly consecutive: count
        // runs in a register instead of an increment in memory per host
        int cur = -1;
        int run = 0;
        for (auto h : p.hosts) {
            const int l = ix.leaf_of_host[h.index()];
            if (l != cur) {
                if (cur >= 0) count[static_cast<std::size_t>(cur)] += run;
                cur = l;
                run = 0;
            }
            ++run;
        }
        if (cur >= 0) count[static_cast<std::size_t>(cur)] += run;
    }
    if (!ix.domains.empty()) {
        for (auto h : p.hosts) {
            const int d = ix.domain_of_host[h.index()];
            if (d >= 0) doms.push_back(ix.domains[static_cast<std::size_t>(d)].id.index());
        }
    }
    std::sort(doms.begin(), doms.end());
    doms.erase(std::unique(doms.begin(), doms.end()), doms.end());
    std::vector<int> used;
    used.reserve(std::min<std::size_t>(p.hosts.size(), static_cast<std::size_t>(ix.n_leaves)));
    p.groups.reserve(used.capacity());
    const int per_group = ix.leaf_switch_count.empty() ? 1 : std::max(1, ix.leaf_switch_count.front());
    phys.reserve(used.capacity() * static_cast<std::size_t>(per_group));
    for (int l = 0; l < ix.n_leaves; ++l) {
        if (count[static_cast<std::size_t>(l)] == 0) continue;
        used.push_back(l);
        const auto g = ix.sw[static_cast<std::size_t>(l)].group;
        p.groups.push_back(g);
        for (auto s : t.groups()[g.index()].leaves)
            phys.push_back(s.index());
    }
    if (!std::is_sorted(phys.begin(), phys.end())) std::sort(phys.begin(), phys.end());
    phys.erase(std::unique(phys.begin(), phys.end()), phys.end());
    std::sort(p.groups.begin(), p.groups.end());
    p.leaves.reserve(phys.size());
    for (auto s : phys)
        p.leaves.push_back(SwitchId{s});
    for (auto d : doms)
        p.nvl_domains.push_back(DomainId{d});
    // highest tier crossed: level of the lowest switch covering every used leaf
    p.max_tier = -1;
    if (used.size() <= 1) {
        p.max_tier = 0;
    } else {
        for (int x : ix.by_level_order) {
            const auto& s = ix.sw[static_cast<std::size_t>(x)];
            if (s.leaves.size() < used.size()) continue;
            if (std::includes(s.leaves.begin(), s.leaves.end(), used.begin(), used.end())) {
                p.max_tier = s.level;
                break;
            }
        }
        if (p.max_tier < 0) p.max_tier = ix.top_level + 1;  // not connected (linear policy)
    }
    // switches touched per level (along Slurm's parent chain)
    p.switches_per_level.assign(static_cast<std::size_t>(ix.top_level) + 1, 0);
    std::vector<bool> seen(ix.sw.size(), false);
    for (int l : used) {
        for (int x = l; x >= 0 && !seen[static_cast<std::size_t>(x)]; x = ix.sw[static_cast<std::size_t>(x)].parent) {
            seen[static_cast<std::size_t>(x)] = true;
            ++p.switches_per_level[static_cast<std::size_t>(ix.sw[static_cast<std::size_t>(x)].level)];
        }
    }
    // summed pairwise hops: 2 inside a leaf group, switch distance + 2 across
    long hops = 0;
    for (std::size_t i = 0; i < used.size(); ++i) {
        const long ci = count[static_cast<std::size_t>(used[i])];
        hops += ci * (ci - 1) / 2 * 2;
        for (std::size_t j = i + 1; j < used.size(); ++j) {
            const long cj = count[static_cast<std::size_t>(used[j])];
            hops += ci * cj * (ix.d(used[i], used[j]) + 2);
        }
    }
    p.hop_sum = hops;
    p.lower_bound_groups = b.groups;
    p.lower_bound_leaves = b.leaf_switches;
    p.lower_bound_tier = b.tier;
    // explanation
    // (string appends: an ostringstream costs about a microsecond to set up)
    std::string& e = p.explanation;
    e.reserve(160 + c.why.size());
    e += policy_name(policy);
    e += ": ";
    e += std::to_string(p.hosts.size());
    e += " host(s)";
    if (p.total_gpus > 0) {
        e += ", ";
        e += std::to_string(p.total_gpus);
        e += " GPU(s)";
    }
    e += " on ";
    e += std::to_string(p.groups.size());
    e += " leaf group(s) (";
    e += std::to_string(p.leaves.size());
    e += " leaf switch(es)), tier ";
    e += std::to_string(p.max_tier);
    e += "; lower bound ";
    e += std::to_string(b.groups);
    e += " group(s), tier ";
    e += std::to_string(b.tier);
    e += ". ";
    e += c.why;
    while (!p.explanation.empty() && p.explanation.back() == ' ')
        p.explanation.pop_back();
    return p;
}

/// topo with one_nvl_domain: the best domain that holds the job.
bool choose_topo_nvl(Work& w, Choice& c) {
    const auto& ix = *w.ix;

    struct Best {
        int groups = 0, tier = 0, free = 0, dom = -1;
    } best;

    for (std::size_t d = 0; d < ix.domains.size(); ++d) {
        const auto& dom = ix.domains[d];
        if (dom.usable > 0 && w.nodes > dom.usable) continue;
        w.restrict_domain = static_cast<int>(d);
        compute_caps(w);
        Choice cd;
        if (!choose_topo(w, cd)) continue;
        int free = 0;
        for (auto h : dom.hosts)
            free += w.host_units[h] > 0 ? 1 : 0;
        std::set<int> leaves;
        for (auto h : cd.hosts)
            leaves.insert(ix.leaf_of_host[h]);
        std::vector<int> used(leaves.begin(), leaves.end());
        int tier = 0;
        if (used.size() > 1) {
            for (int x : ix.by_level_order) {
                const auto& s = ix.sw[static_cast<std::size_t>(x)];
                if (std::includes(s.leaves.begin(), s.leaves.end(), used.begin(), used.end())) {
                    tier = s.level;
                    break;
                }
            }
        }
        const Best cand{static_cast<int>(used.size()), tier, free, static_cast<int>(d)};
        if (best.dom < 0 || std::tie(cand.groups, cand.tier, cand.free) < std::tie(best.groups, best.tier, best.free)) {
            best = cand;
            c = std::move(cd);
        }
    }
    w.restrict_domain = best.dom;
    if (best.dom < 0) return false;
    compute_caps(w);  // caps of the chosen domain, for the bounds
    c.why = "NVLink domain " + ix.domains[static_cast<std::size_t>(best.dom)].name
            + " (best fit: " + std::to_string(best.free) + " free host(s)); " + c.why;
    return true;
}

/// Unit capacities on the state as it is now (not the ideal, empty cluster), over the whole
/// cluster (no NVLink domain chosen).
void caps_now(Work& w) {
    w.ideal = false;
    w.restrict_domain = -1;
    compute_caps(w);
}

bool run_policy(Work& w, Policy policy, Choice& c) {
    const bool nvl = w.req.one_nvl_domain && w.nodes > 1 && w.mode != UnitMode::Gpus;
    switch (policy) {
        case Policy::Cost:  // Placer::place() runs topo for it
        case Policy::Topo:
            if (nvl) return choose_topo_nvl(w, c);
            if (caps_from_counts_ok(w)) {
                compute_caps_from_counts(w);
            } else {
                compute_caps(w);
            }
            return choose_topo(w, c);
        case Policy::SlurmTree:
            compute_caps(w);
            return choose_slurm_tree(w, c);
        case Policy::Linear:
            compute_caps(w);
            return choose_linear(w, c);
        case Policy::Spread:  // Placer::place() runs place_spread for it
            return false;
    }
    return false;
}

/// Why an ideal (idle, healthy) cluster cannot take the request.
std::string unsatisfiable_reason(const Work& w) {
    const auto& ix = *w.ix;
    long units = 0;
    int max_gpus = 0;
    int placeable = 0;
    for (int h = 0; h < ix.n_hosts; ++h) {
        if (ix.leaf_of_host[static_cast<std::size_t>(h)] < 0) continue;
        ++placeable;
        max_gpus = std::max(max_gpus, w.state->total_gpus(*w.topo, HostId{static_cast<std::uint32_t>(h)}));
        units += w.host_units[static_cast<std::size_t>(h)];
    }
    std::ostringstream o;
    o << "can never fit: ";
    if (w.gpn > max_gpus) {
        o << "needs " << w.gpn << " GPU(s) per host, the most any host has is " << max_gpus;
    } else if (w.req.one_nvl_domain && ix.domains.empty()) {
        o << "one NVLink domain requested, the topology has no multi-node NVLink domain";
    } else if (w.req.one_nvl_domain) {
        std::size_t most = 0;
        for (const auto& d : ix.domains) {
            most =
                std::max(most, d.usable > 0 ? std::min<std::size_t>(d.hosts.size(), static_cast<std::size_t>(d.usable))
                                            : d.hosts.size());
        }
        o << "needs " << w.nodes << " host(s) in one NVLink domain, the largest domain allows " << most;
    } else if (units < w.demand) {
        o << "needs " << w.demand
          << (w.mode == UnitMode::Gpus       ? " GPU(s)"
              : w.mode == UnitMode::Segments ? " segment(s)"
                                             : " host(s)")
          << ", an idle cluster offers " << units << " (" << placeable << " placeable host(s)";
        if (!w.req.excluded.empty()) o << ", " << w.req.excluded.size() << " excluded";
        if (w.req.rail_aligned) o << ", rail-aligned only";
        o << ")";
    } else {
        o << "no switch subtree, leaf-count or NVLink-domain limit allows " << w.demand
          << (w.mode == UnitMode::Gpus       ? " GPU(s)"
              : w.mode == UnitMode::Segments ? " segment(s)"
                                             : " host(s)");
        if (w.req.max_tier >= 0) o << " (max tier " << w.req.max_tier << ")";
        if (w.req.max_leaves > 0) o << " (max " << w.req.max_leaves << " leaf group(s))";
    }
    return o.str();
}

}  // namespace

namespace {

/// The model's slowdown of `p` (the Placer's parameters, the default layout of its GPUs).
double predicted_slowdown(const Topology& t, const perf::FabricShape& shape, const perf::Params& params,
                          const Placement& p) {
    if (p.hosts.size() < 2) return 1.0;
    int gph = 0;
    for (auto h : p.hosts) gph = std::max(gph, static_cast<int>(t.host(h).gpus.size()));
    if (gph == 0) gph = 8;  // PERF-MODEL 6.1: HGX, 8 GPUs per host
    perf::JobPlacement jp;
    jp.hosts = p.hosts;
    const perf::Profile prof = perf::default_layout({}, static_cast<int>(p.hosts.size()) * gph, gph);
    return perf::slowdown(params, prof, perf::features_of(t, shape, jp, prof, gph)).s_job;
}

}  // namespace

Result<Placement> Placer::place_by_cost(const ClusterState& state, const Request& req) const {
    auto a = place(state, req, Policy::Topo);
    if (!a) return a;
    a->policy = Policy::Cost;
    if (a->hosts.size() < 2 || a->max_tier <= a->lower_bound_tier) return a;
    Request low = req;
    low.max_tier = req.max_tier < 0 ? a->lower_bound_tier : std::min(req.max_tier, a->lower_bound_tier);
    auto b = place(state, low, Policy::Topo);
    if (!b) return a;
    b->policy = Policy::Cost;
    std::call_once(idx_->shape_once, [this] { idx_->shape = perf::fabric_shape(*topo_); });
    const double sa = predicted_slowdown(*topo_, idx_->shape, idx_->model, *a);
    const double sb = predicted_slowdown(*topo_, idx_->shape, idx_->model, *b);
    char buf[200];
    if (sb < sa - 1e-9) {
        std::snprintf(buf, sizeof buf, "\ncost: tier %d and %zu group(s) predicted %.4f, faster than topo's tier %d and %zu group(s) %.4f",
                      b->max_tier, b->groups.size(), sb, a->max_tier, a->groups.size(), sa);
        b->explanation += buf;
        return b;
    }
    std::snprintf(buf, sizeof buf, "\ncost: topo's choice predicted %.4f, tier %d would be %.4f", sa, b->max_tier, sb);
    a->explanation += buf;
    return a;
}

Result<Placement> Placer::place(const ClusterState& state, const Request& req, Policy policy) const {
    // every policy and path below reads `state` by this topology's host ids
    if (state.fingerprint() != topo_->fingerprint() || state.size() != topo_->hosts().size()) {
        return fail(Errc::StaleState, "cluster state was built for another topology (fingerprint "
                                          + state.fingerprint().substr(0, 12) + ", topology "
                                          + topo_->fingerprint().substr(0, 12) + ")");
    }
    if (policy == Policy::Cost) return place_by_cost(state, req);
    if (policy == Policy::Spread) return place_spread(*topo_, state, req);
    if (policy == Policy::Topo && req.avoid_degraded && state.degraded_count() > 0) {
        return place_degraded(state, req, policy);
    }
    return place_one(state, req, policy);
}

namespace {

std::string host_names(const Topology& t, const std::vector<HostId>& hosts) {
    std::vector<std::string> names;
    names.reserve(hosts.size());
    for (auto h : hosts)
        names.push_back(t.host(h).name);
    return compress_hostlist(names);
}

}  // namespace

Result<Placement> Placer::place_degraded(const ClusterState& state, const Request& req, Policy policy) const {
    // Issue 16 item 5: degraded hosts stay out of multi-node jobs while other hosts fit
    // (one slow rank slows every rank of a synchronous job) and go to one-node jobs first.
    const Topology& t = *topo_;
    const Index& ix = *idx_;
    const ClusterState::Brief* briefs = state.briefs();
    const int nmax = req.nodes_max == 0 ? req.nodes_min : req.nodes_max;
    const bool multi = std::max(req.nodes_min, nmax) > 1;
    std::vector<std::uint32_t> skip;  // the placeable degraded hosts
    std::vector<HostId> degraded;
    for (int h = 0; h < ix.n_hosts; ++h) {
        if (ix.leaf_of_host[static_cast<std::size_t>(h)] < 0 || !briefs[h].degraded) continue;
        skip.push_back(static_cast<std::uint32_t>(h));
        degraded.emplace_back(static_cast<HostId::Rep>(h));
    }
    if (degraded.empty()) return place_one(state, req, policy);
    Request first = req;
    if (!multi) {  // only the degraded hosts
        for (std::size_t h = 0; h < t.hosts().size(); ++h) {
            if (!briefs[h].degraded) first.excluded.emplace_back(static_cast<HostId::Rep>(h));
        }
    }
    auto a = place_one(state, first, policy, multi ? &skip : nullptr);
    if (a) {
        if (multi) {
            a->explanation += "\ndegraded: kept " + std::to_string(degraded.size()) + " degraded host(s) out ("
                              + host_names(t, degraded) + "): a multi-node job runs at its slowest host";
        } else {
            a->explanation += "\ndegraded: on a degraded host (one-node jobs take degraded hosts first; "
                              "multi-node jobs only when nothing else fits)";
        }
        return a;
    }
    if (a.error().code != Errc::Busy && a.error().code != Errc::Unsatisfiable) return a;
    if (!multi) return place_one(state, req, policy);
    // As few degraded hosts as fit, the least slow first: allow the k least slow, the
    // smallest k that fits (more hosts never make a fit impossible: binary search,
    // O(log degraded) decisions).
    std::vector<std::pair<double, HostId>> by_speed;
    by_speed.reserve(degraded.size());
    for (auto h : degraded)
        by_speed.emplace_back(state.at(h).slowdown, h);
    std::sort(by_speed.begin(), by_speed.end());
    auto allowing = [&](std::size_t k) {
        Request r = req;
        for (std::size_t i = k; i < by_speed.size(); ++i)
            r.excluded.push_back(by_speed[i].second);
        return place_one(state, r, policy);
    };
    auto b = allowing(by_speed.size());
    if (!b) return b;
    std::size_t lo = 1, hi = by_speed.size();  // the answer is in [lo, hi]; hi fits
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (auto m = allowing(mid)) {
            b = std::move(m);
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    if (multi && b->degraded_hosts > 0) {
        std::vector<HostId> used;
        for (auto h : b->hosts) {
            if (briefs[h.index()].degraded) used.push_back(h);
        }
        b->explanation += "\ndegraded: uses " + std::to_string(used.size()) + " degraded host(s) ("
                          + host_names(t, used) + "): no placement without them fits now";
    }
    return b;
}

Result<Placement> Placer::place_one(const ClusterState& state, const Request& req, Policy policy,
                                     const std::vector<std::uint32_t>* skip) const {
    const Topology& t = *topo_;
    const Index& ix = *idx_;
    if (req.gpus_per_node < 0 || req.total_gpus < 0 || req.segment < 0 || req.max_leaves < 0 || req.max_tier < -1) {
        return fail(Errc::InvalidArgument, "negative GPU, segment, tier or leaf count in the request");
    }
    Work w;
    w.topo = &t;
    w.ix = &ix;
    w.state = &state;
    w.briefs = state.briefs();
    w.skip = skip;
    w.req = req;
    w.gpn = req.gpus_per_node;
    const bool gpu_units = req.total_gpus > 0 && req.gpus_per_node == 0 && !req.exclusive && req.nodes_min <= 1
                           && req.nodes_max <= 1 && req.segment == 0;
    if (!gpu_units && req.nodes_min < 1) return fail(Errc::InvalidArgument, "node count must be at least 1");
    int nmax = req.nodes_max == 0 ? req.nodes_min : req.nodes_max;
    if (nmax < req.nodes_min) return fail(Errc::InvalidArgument, "node range max is below min");
    if (req.gpus_per_node > 0 && req.total_gpus > 0 && req.total_gpus != req.gpus_per_node * req.nodes_min) {
        return fail(Errc::InvalidArgument,
                    "give GPUs per node or total GPUs, not both (unless total = per node x nodes)");
    }
    if (req.segment > 0) {
        if (req.nodes_min % req.segment != 0 || nmax % req.segment != 0) {
            return fail(Errc::InvalidArgument, "node count " + std::to_string(req.nodes_min)
                                                   + " is not a multiple of the segment size "
                                                   + std::to_string(req.segment));
        }
    }
    if (!req.excluded.empty()) w.excluded.assign(t.hosts().size(), 0);
    for (auto h : req.excluded) {
        if (!h.valid() || h.index() >= t.hosts().size()) {
            return fail(Errc::InvalidArgument, "excluded host id out of range");
        }
        w.excluded[h.index()] = 1;
    }
    if (gpu_units) {
        w.mode = UnitMode::Gpus;
        w.nodes = 1;
        w.demand = req.total_gpus;
        nmax = 1;
    } else if (req.total_gpus > 0 && req.gpus_per_node == 0) {
        w.gpn = (req.total_gpus + req.nodes_min - 1) / req.nodes_min;  // even split over the nodes
    }
    if (req.segment > 0 && w.mode != UnitMode::Gpus) {
        w.mode = UnitMode::Segments;
        w.seg = req.segment;
    }
    const int nmin = w.mode == UnitMode::Gpus ? 1 : req.nodes_min;
    const int step = w.mode == UnitMode::Segments ? w.seg : 1;
    std::vector<std::string> ignored;
    if (policy != Policy::Topo) {
        if (req.one_nvl_domain) ignored.emplace_back("one_nvl_domain");
        if (req.segment > 0) ignored.emplace_back("segment");
        if (req.max_tier >= 0) ignored.emplace_back("max_tier");
        if (policy == Policy::Linear && req.max_leaves > 0) ignored.emplace_back("max_leaves");
    }
    if (w.mode != UnitMode::Gpus && nmax > nmin) {
        // Bounded work (issue 17): a range such as 1-1000000 scans down from the most hosts
        // that could fit now (the free units of the whole cluster under the request's
        // constraints), not from its max; larger counts could not fit, so the decision is the
        // same and the scan is at most one pass per host.
        w.nodes = nmin;
        w.demand = w.mode == UnitMode::Segments ? nmin / w.seg : nmin;
        caps_now(w);
        long cap = 0;
        for (int c : w.leaf_cap)
            cap += c;
        if (w.mode == UnitMode::Segments) cap *= w.seg;
        // slurm-tree and linear ignore segments: only the host count bounds them there
        if (w.mode == UnitMode::Segments && policy != Policy::Topo) cap = static_cast<long>(t.hosts().size());
        cap = std::min<long>(cap, static_cast<long>(t.hosts().size()));
        if (cap < nmax) nmax = std::max(nmin, static_cast<int>(cap - (cap - nmin) % step));
        w.host_units.clear();  // as before: the policies compute (or not) their own
        w.leaf_cap.clear();
    }
    for (int n = nmax; n >= nmin; n -= step) {
        if (w.mode != UnitMode::Gpus) {
            w.nodes = n;
            w.demand = w.mode == UnitMode::Segments ? n / w.seg : n;
        }
        w.ideal = false;
        w.restrict_domain = -1;
        Choice c;
        if (w.mode != UnitMode::Gpus) {
            c.hosts.reserve(static_cast<std::size_t>(w.nodes));
            c.gpus_per_host.reserve(static_cast<std::size_t>(w.nodes));
        }
        if (run_policy(w, policy, c)) {
            // Bounds on the caps the policy saw: the whole cluster under the request's
            // constraints (topo with --nvl: inside the chosen NVLink domain).
            Bounds b;
            if (c.lb_groups >= 0 && ix.uniform_leaf_switches) {
                b.groups = c.lb_groups;
                b.tier = c.lb_tier;
                b.leaf_switches = c.lb_groups * (ix.leaf_switch_count.empty() ? 1 : ix.leaf_switch_count.front());
            } else {
                b = lower_bounds(w);
            }
            Placement p = finish(w, c, policy, b);
            p.ignored = ignored;
            if (!ignored.empty()) {
                std::string s;
                for (const auto& i : ignored)
                    s += (s.empty() ? "" : ",") + i;
                p.explanation += " Ignored (not expressible in this policy): " + s + ".";
            }
            return p;
        }
    }
    // Why not: never, or not now?
    w.nodes = nmin;
    w.demand = w.mode == UnitMode::Gpus ? req.total_gpus : w.mode == UnitMode::Segments ? nmin / w.seg : nmin;
    w.ideal = true;
    w.restrict_domain = -1;
    Choice ci;
    const bool ideal_ok = run_policy(w, policy, ci);
    if (!ideal_ok) {
        w.restrict_domain = -1;
        compute_caps(w);
        return fail(Errc::Unsatisfiable, std::string(policy_name(policy)) + ": " + unsatisfiable_reason(w));
    }
    caps_now(w);
    long free = 0;
    for (auto u : w.host_units)
        free += u;
    const Bounds b = lower_bounds(w);
    std::ostringstream o;
    o << policy_name(policy) << ": cannot fit now: needs " << w.demand
      << (w.mode == UnitMode::Gpus       ? " GPU(s)"
          : w.mode == UnitMode::Segments ? " segment(s)"
                                         : " host(s)")
      << ", " << free << " free";
    if (b.groups < 0) {
        o << " and no allowed switch subtree holds enough";
    } else if (req.max_leaves > 0 && b.groups > req.max_leaves) {
        o << "; needs at least " << b.groups << " leaf group(s), max " << req.max_leaves;
    }
    if (req.one_nvl_domain) o << "; no NVLink domain has enough free hosts";
    return fail(Errc::Busy, o.str());
}

Result<Placement> place(const Topology& topo, const ClusterState& state, const Request& req, Policy policy) {
    const Placer p(topo);
    return p.place(state, req, policy);
}

}  // namespace topo::placement
