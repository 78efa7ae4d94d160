// SPDX-License-Identifier: Apache-2.0
// The `topo` policy.
//
// Objective, lexicographic (see docs/placement.md):
//   1. fewest leaf groups (the exact lower bound: no placement on this state uses fewer);
//   2. lowest switch level whose subtree holds the job with that many groups;
//   3. fewest children of that switch (e.g. fewest spines under the core);
//   4. best fit: the candidate subtree with the least free capacity, so large holes stay
//      whole; inside it, the job's footprint in the fewest, fullest pieces: each leaf
//      group the tightest one that holds the rest, else the largest (taken whole).
// With end times (Request::time_limit and HostState::release_at, e.g. from the what-if
// replay or Slurm's job end times), ties in 1-3 and the group choices of 4 first prefer
// the groups the job keeps busy the least past the end of the jobs already there, so
// that jobs ending together share groups and groups come back whole; a single-group job
// takes the least extension before the best fit.
// A one-host job on part of a host's GPUs skips all this: the host with the fewest free
// GPUs that fit, cluster-wide (idle hosts stay idle for whole-node jobs).
// Units are hosts, segments (hosts that must share a leaf group / NVLink domain) or GPUs.
#include <algorithm>
#include <numeric>
#include <tuple>

#include "internal.hpp"
#include "leaf_order.hpp"

namespace topo::placement {

namespace {

struct Cand {
    int groups = 0;
    int level = 0;
    int children = 0;
    int leaf_switches = 0;  ///< physical leaf switches of a single-group candidate
    long free = 0;
    double ext = 0;  ///< time the job would extend its group's busy period
    int sw = -1;
    std::vector<int> pool;  ///< leaves allowed (level >= 2, after choosing the children
                            ///< subset); empty = all leaves of `sw`
};

/// Fewest leaves of `caps` (any order) that hold `demand`; -1 when they cannot.
int min_groups(std::vector<int>& caps, int demand) {
    std::sort(caps.begin(), caps.end(), std::greater<>());
    long acc = 0;
    int k = 0;
    for (int c : caps) {
        if (acc >= demand) break;
        acc += c;
        ++k;
    }
    return acc >= demand ? k : -1;
}

std::vector<int> pooled_leaves(const Placer::Index& ix, const std::vector<int>& children, unsigned mask) {
    std::vector<int> out;
    for (std::size_t i = 0; i < children.size(); ++i) {
        if ((mask & (1U << i)) == 0) continue;
        const auto& l = ix.sw[static_cast<std::size_t>(children[i])].leaves;
        out.insert(out.end(), l.begin(), l.end());
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

long free_of(const Work& w, const std::vector<int>& leaves) {
    long f = 0;
    for (int l : leaves) f += w.leaf_cap[static_cast<std::size_t>(l)];
    return f;
}

/// How long the job would keep busy what is released at `release` (the latest expected
/// end of the jobs there now): max(0, now + time limit - max(now, release)). 0 without a
/// time limit (then everything ties and the rules fall through to best fit).
double extension(const Work& w, double release) {
    if (w.req.time_limit <= 0) return 0;
    return std::max(0.0, w.req.now + w.req.time_limit - std::max(w.req.now, release));
}

/// Per-call scratch of choose_topo (local to one call: place() stays thread-safe).
struct Scratch {
    const Work* w = nullptr;
    /// leaves with a positive capacity: capacity descending, then fewer physical leaf
    /// switches, then the lowest index (the order of the final group choice without end
    /// times); built on first use
    std::vector<int> ord;
    LeafOrderScratch ord_scratch;
    bool have_ord = false;
    std::vector<std::uint8_t> mark;  ///< per leaf, all 0 between uses
    std::vector<int> caps;           ///< flat per-child capacities (descending)
    std::vector<int> off;            ///< per child: start in caps (n + 1 entries)
    std::vector<long> fsum;          ///< per child: free units

    /// The leaves that hold any of the request in leaf order (leaf_order.hpp), without
    /// extensions.
    const std::vector<int>& order() {
        if (!have_ord) {
            const auto& ix = *w->ix;
            order_leaves(w->leaf_cap, ix.leaf_switch_count, ix.uniform_leaf_switches, ord, ord_scratch);
            have_ord = true;
        }
        return ord;
    }

    std::vector<std::uint8_t>& marks() {
        if (mark.empty()) mark.assign(static_cast<std::size_t>(w->ix->n_leaves), 0);
        return mark;
    }

    std::vector<double> ext_;  ///< per leaf, -1 = not computed yet

    /// extension() of a leaf group (its hosts' latest expected end), computed once per call.
    double ext(int leaf) {
        if (w->req.time_limit <= 0) return 0;
        if (ext_.empty()) ext_.assign(static_cast<std::size_t>(w->ix->n_leaves), -1.0);
        double& e = ext_[static_cast<std::size_t>(leaf)];
        if (e < 0) {
            double rel = w->req.now;
            for (auto h : w->ix->leaf_hosts[static_cast<std::size_t>(leaf)])
                rel = std::max(rel, w->state->at(HostId{h}).release_at);
            e = extension(*w, rel);
        }
        return e;
    }
};

/// For a switch of level >= 2: fewest children whose pooled leaves hold the job in
/// `groups` leaves; ties: least free capacity. Exact up to 10 children, greedy above.
void fewest_children(const Work& w, const Placer::Index::Sw& s, int groups, Cand& c, Scratch& sc) {
    const auto& ix = *w.ix;
    const auto& ch = s.children;
    if (ch.size() <= 10) {
        const auto n = static_cast<unsigned>(ch.size());
        // Children with disjoint leaf sets (a tree): a subset's pool is the union of its
        // children's leaves, so its free units are the sum of theirs and its top-k
        // capacities a merge of their sorted capacities (no pool built per subset).
        auto& mark = sc.marks();
        bool disjoint = true;
        sc.caps.clear();
        sc.off.assign(1, 0);
        sc.fsum.clear();
        for (int x : ch) {
            long f = 0;
            for (int l : ix.sw[static_cast<std::size_t>(x)].leaves) {
                auto& m = mark[static_cast<std::size_t>(l)];
                if (m != 0) disjoint = false;
                m = 1;
                const int cp = w.leaf_cap[static_cast<std::size_t>(l)];
                f += cp;
                if (cp > 0) sc.caps.push_back(cp);
            }
            std::sort(sc.caps.begin() + sc.off.back(), sc.caps.end(), std::greater<>());
            sc.off.push_back(static_cast<int>(sc.caps.size()));
            sc.fsum.push_back(f);
        }
        for (int x : ch)
            for (int l : ix.sw[static_cast<std::size_t>(x)].leaves) mark[static_cast<std::size_t>(l)] = 0;
        int cur[10];
        for (unsigned k = 1; k <= n; ++k) {
            long best_free = -1;
            unsigned best_mask = 0;
            std::vector<int> best_pool;
            // all masks with k bits, in increasing order (Gosper's hack)
            for (unsigned mask = (1U << k) - 1; mask < (1U << n);) {
                if (disjoint) {
                    long f = 0;
                    for (unsigned i = 0; i < n; ++i) {
                        if ((mask & (1U << i)) == 0) continue;
                        f += sc.fsum[i];
                        cur[i] = sc.off[i];
                    }
                    // the `groups` largest capacities of the pool hold the job?
                    long acc = 0;
                    for (int t = 0; t < groups && acc < w.demand; ++t) {
                        int bi = -1;
                        int bv = 0;
                        for (unsigned i = 0; i < n; ++i) {
                            if ((mask & (1U << i)) == 0 || cur[i] == sc.off[i + 1]) continue;
                            const int v = sc.caps[static_cast<std::size_t>(cur[i])];
                            if (v > bv) {
                                bv = v;
                                bi = static_cast<int>(i);
                            }
                        }
                        if (bi < 0) break;
                        acc += bv;
                        ++cur[bi];
                    }
                    if (acc >= w.demand && (best_free < 0 || f < best_free)) {
                        best_free = f;
                        best_mask = mask;
                    }
                } else {
                    auto pool = pooled_leaves(ix, ch, mask);
                    std::vector<int> caps;
                    caps.reserve(pool.size());
                    for (int l : pool) caps.push_back(w.leaf_cap[static_cast<std::size_t>(l)]);
                    const auto kk = std::min<std::size_t>(static_cast<std::size_t>(groups), caps.size());
                    std::partial_sort(caps.begin(), caps.begin() + static_cast<std::ptrdiff_t>(kk), caps.end(),
                                      std::greater<>());
                    long acc = 0;
                    for (std::size_t i = 0; i < kk; ++i) acc += caps[i];
                    if (acc >= w.demand) {
                        const long f = free_of(w, pool);
                        if (best_free < 0 || f < best_free) {
                            best_free = f;
                            best_pool = std::move(pool);
                        }
                    }
                }
                const unsigned low = mask & (~mask + 1U);
                const unsigned r = mask + low;
                mask = (((r ^ mask) >> 2U) / low) | r;
            }
            if (best_free >= 0) {
                c.children = static_cast<int>(k);
                c.pool = disjoint ? pooled_leaves(ix, ch, best_mask) : std::move(best_pool);
                return;
            }
        }
    }
    // Greedy: children by the sum of their best `groups` leaves, largest first; add
    // children until the `groups` largest leaves of the pool hold the job. Sums of the
    // k largest by nth_element (O(n)); the pool's by a walk of the capacity order.
    auto top_sum = [&](std::vector<int>& caps) {
        const auto kk = std::min<std::size_t>(static_cast<std::size_t>(std::max(groups, 0)), caps.size());
        if (kk == 0) return 0L;
        long acc = 0;
        if (kk == caps.size()) {  // all of them: no selection
            for (int x : caps) acc += x;
            return acc;
        }
        std::nth_element(caps.begin(), caps.begin() + static_cast<std::ptrdiff_t>(kk - 1), caps.end(),
                         std::greater<>());
        for (std::size_t j = 0; j < kk; ++j) acc += caps[j];
        return acc;
    };
    std::vector<std::pair<long, int>> order;
    order.reserve(ch.size());
    auto& caps = sc.caps;
    caps.reserve(static_cast<std::size_t>(ix.n_leaves));
    for (std::size_t i = 0; i < ch.size(); ++i) {
        const auto& l = ix.sw[static_cast<std::size_t>(ch[i])].leaves;
        caps.clear();
        for (int x : l) caps.push_back(w.leaf_cap[static_cast<std::size_t>(x)]);
        order.emplace_back(-top_sum(caps), static_cast<int>(i));
    }
    std::sort(order.begin(), order.end());
    std::vector<int> pool;
    pool.reserve(s.leaves.size());
    auto& in_pool = sc.marks();
    // the `groups` largest capacities of the pool so far (zeros add nothing): a min-heap
    // of at most `groups` entries and its sum, updated as children join the pool
    auto& top = caps;
    top.clear();
    long acc = 0;
    int k = 0;
    for (auto [neg, i] : order) {
        const auto& l = ix.sw[static_cast<std::size_t>(ch[static_cast<std::size_t>(i)])].leaves;
        for (int x : l) {
            if (in_pool[static_cast<std::size_t>(x)] != 0) continue;
            in_pool[static_cast<std::size_t>(x)] = 1;
            pool.push_back(x);
            const int cp = w.leaf_cap[static_cast<std::size_t>(x)];
            if (cp <= 0 || groups <= 0) continue;
            if (static_cast<int>(top.size()) < groups) {
                top.push_back(cp);
                std::push_heap(top.begin(), top.end(), std::greater<>());
                acc += cp;
            } else if (cp > top.front()) {
                acc += cp - top.front();
                std::pop_heap(top.begin(), top.end(), std::greater<>());
                top.back() = cp;
                std::push_heap(top.begin(), top.end(), std::greater<>());
            }
        }
        ++k;
        if (acc >= w.demand) break;
    }
    if (pool.size() * 8 >= static_cast<std::size_t>(ix.n_leaves)) {
        // ascending by a walk of the marks (no sort)
        std::size_t o = 0;
        for (int x = 0; x < ix.n_leaves; ++x) {
            if (in_pool[static_cast<std::size_t>(x)] == 0) continue;
            in_pool[static_cast<std::size_t>(x)] = 0;
            pool[o++] = x;
        }
    } else {
        for (int x : pool) in_pool[static_cast<std::size_t>(x)] = 0;
        std::sort(pool.begin(), pool.end());
    }
    c.children = k;
    c.pool = std::move(pool);
}

/// One host, part of its GPUs: the host with the fewest free GPUs that still fit, over
/// the whole cluster (one host spans one group whatever it is), so that idle hosts stay
/// idle for whole-node jobs; ties: the one whose jobs end latest past this one's end (the
/// least extension), the fuller leaf group, then the lowest id.
bool one_shared_host(const Work& w, Choice& out) {
    const auto& ix = *w.ix;
    // The fewest free GPUs that fit, and the groups that have such a host: from the
    // group counts when they describe eligibility (O(groups x GPU classes)), so that
    // only those groups' hosts are read.
    int want = -1;
    std::vector<int> leaves;
    if (w.host_units.empty()) {
        for (int l = 0; l < ix.n_leaves; ++l) {
            if (w.leaf_cap[static_cast<std::size_t>(l)] <= 0) continue;
            const auto fit = w.state->group_fewest_free_fitting(ix.sw[static_cast<std::size_t>(l)].group, w.gpn);
            if (!fit) continue;
            const int f = *fit;
            if (want >= 0 && f > want) continue;
            if (f < want || want < 0) leaves.clear();
            want = f;
            leaves.push_back(l);
        }
    } else {
        for (int l = 0; l < ix.n_leaves; ++l) {
            if (w.leaf_cap[static_cast<std::size_t>(l)] > 0) leaves.push_back(l);
        }
    }
    if (want >= 0 && w.req.time_limit <= 0 && leaves.size() > 1) {
        // no extension to compare: only the fullest of those groups can win
        int cmin = w.leaf_cap[static_cast<std::size_t>(leaves.front())];
        for (int l : leaves) cmin = std::min(cmin, w.leaf_cap[static_cast<std::size_t>(l)]);
        std::erase_if(leaves, [&](int l) { return w.leaf_cap[static_cast<std::size_t>(l)] != cmin; });
    }
    int best_free = -1;
    double best_ext = 0;
    int best_cap = 0;
    std::uint32_t best_host = 0;
    for (int l : leaves) {
        const int cap = w.leaf_cap[static_cast<std::size_t>(l)];
        for (auto h : ix.leaf_hosts[static_cast<std::size_t>(l)]) {
            if (unit_of(w, h) <= 0) continue;
            const int f = w.briefs[h].free;  // = ClusterState::free_gpus(), packed
            if (want >= 0 && f != want) continue;
            // (the HostState read only with a time limit: extension() is 0 without one)
            const double ext = w.req.time_limit > 0 ? extension(w, w.state->at(HostId{h}).release_at) : 0.0;
            if (best_free < 0 || std::tie(f, ext, cap, h) < std::tie(best_free, best_ext, best_cap, best_host)) {
                best_ext = ext;
                best_free = f;
                best_cap = cap;
                best_host = h;
            }
        }
    }
    if (best_free < 0) return false;
    out.hosts.push_back(best_host);
    out.gpus_per_host.push_back(w.gpn);
    out.why = "Chose the host with the fewest free GPUs that fit (" + std::to_string(best_free)
              + " free), so that idle hosts stay whole.";
    return true;
}

bool take_pool(const Work& w, const Cand& best, int candidates_at_best, Scratch& sc, Choice& out);

}  // namespace

bool choose_topo(const Work& w, Choice& out, Choice* low) {
    const auto& ix = *w.ix;
    const int demand = w.demand;
    if (demand <= 0) return false;
    if (w.mode == UnitMode::Nodes && w.nodes == 1 && w.gpn > 0 && !w.req.exclusive && !w.ideal)
        return one_shared_host(w, out);
    Cand best;
    int candidates_at_best = 0;
    // `low`: the scan as it stands when it first passes the lowest tier that holds the job
    // (out.lb_tier): what a scan held to that tier (Request::max_tier) ends with
    Cand low_best;
    int low_at_best = 0;
    int low_lb_groups = -1;
    bool low_taken = false;
    Scratch sc;
    sc.w = &w;
    std::vector<int> caps;
    caps.reserve(static_cast<std::size_t>(ix.n_leaves));
    // The fewest leaves of all that hold the job (-1: none do; -2: not computed yet): no
    // switch's candidate has fewer groups.
    int fewest_of_all = -2;
    auto fewest = [&] {
        if (fewest_of_all == -2) {
            long acc = 0;
            int k = 0;
            for (int l : sc.order()) {
                if (acc >= demand) break;
                acc += w.leaf_cap[static_cast<std::size_t>(l)];
                ++k;
            }
            fewest_of_all = acc >= demand ? k : -1;
        }
        return fewest_of_all;
    };
    for (int x : ix.by_level_order) {
        // a leaf (sw[0..n_leaves)) too small for the job: skipped without reading its record
        if (x < ix.n_leaves && w.leaf_cap[static_cast<std::size_t>(x)] < demand) continue;
        const auto& s = ix.sw[static_cast<std::size_t>(x)];
        if (low != nullptr && !low_taken && out.lb_tier >= 0 && s.level > out.lb_tier) {
            low_taken = true;
            low_best = best;
            low_at_best = candidates_at_best;
            low_lb_groups = out.lb_groups;
        }
        // Switches come level by level: once past the best's level, a later one wins only
        // with fewer groups, and the best already has the fewest any switch can have (1, or
        // the fewest of all leaves). Its bounds are final too: lb_groups is the best's
        // groups, lb_tier was set at a level no higher.
        if (best.sw >= 0 && s.level > best.level && (best.groups == 1 || best.groups == fewest())) break;
        if (w.req.max_tier && s.level > *w.req.max_tier && s.level > 0) continue;
        long total = 0;
        int mg = -1;
        if (s.level == 0) {  // a leaf: itself
            total = std::max(0, w.leaf_cap[static_cast<std::size_t>(x)]);
            if (total < demand) continue;
            mg = 1;
        } else if (static_cast<int>(s.leaves.size()) == ix.n_leaves) {
            // every leaf: the capacity order is this switch's sorted capacities
            // (its fewest groups are the fewest of all leaves: -1 when they do not hold it)
            mg = fewest();
            if (mg < 0) continue;
            for (int l : sc.order()) total += w.leaf_cap[static_cast<std::size_t>(l)];
        } else {
            caps.clear();
            for (int l : s.leaves) {
                const int cp = w.leaf_cap[static_cast<std::size_t>(l)];
                if (cp > 0) {
                    caps.push_back(cp);
                    total += cp;
                }
            }
            if (total < demand) continue;
            mg = min_groups(caps, demand);
        }
        if (mg < 0) continue;
        // the lower bounds come for free from this scan (same as lower_bounds())
        if (out.lb_tier < 0) out.lb_tier = s.level;
        if (out.lb_groups < 0 || mg < out.lb_groups) out.lb_groups = mg;
        if (w.req.max_leaves > 0 && mg > w.req.max_leaves) continue;
        if (best.sw >= 0 && std::tie(mg, s.level) > std::tie(best.groups, best.level)) continue;
        Cand c;
        c.groups = mg;
        c.level = s.level;
        c.sw = x;
        if (s.level >= 2) {
            fewest_children(w, s, mg, c, sc);
            c.free = free_of(w, c.pool);
        } else {
            c.children = s.level == 0 ? 1 : mg;
            c.free = total;  // pool = all of s.leaves (not copied)
        }
        if (s.level == 0) c.leaf_switches = ix.leaf_switch_count[static_cast<std::size_t>(x)];
        if (s.level == 0) c.ext = sc.ext(x);
        if (best.sw < 0
            || std::tie(c.groups, c.level, c.children, c.leaf_switches, c.ext, c.free)
                   < std::tie(best.groups, best.level, best.children, best.leaf_switches, best.ext, best.free)) {
            if (best.sw < 0 || std::tie(c.groups, c.level) != std::tie(best.groups, best.level)) candidates_at_best = 0;
            best = std::move(c);
        }
        if (std::tie(mg, s.level) == std::tie(best.groups, best.level)) ++candidates_at_best;
    }
    if (best.sw < 0) return false;
    if (low != nullptr && low_taken && low_best.sw >= 0 && best.level > out.lb_tier) {
        low->lb_groups = low_lb_groups;
        low->lb_tier = out.lb_tier;
        if (!take_pool(w, low_best, low_at_best, sc, *low)) {
            low->hosts.clear();
            low->gpus_per_host.clear();
        }
    }
    return take_pool(w, best, candidates_at_best, sc, out);
}

namespace {

/// choose_topo's second half: inside the chosen switch's pool, the job's footprint in the
/// fewest, fullest pieces (below), and the explanation.
bool take_pool(const Work& w, const Cand& best, int candidates_at_best, Scratch& sc, Choice& out) {
    const auto& ix = *w.ix;
    const int demand = w.demand;
    // Inside the chosen pool: the job's footprint in the fewest, fullest pieces. Each
    // piece is the tightest group that holds the rest of the job, else the largest
    // group (taken whole). Largest-first reaches the fewest groups (`best.groups`), and
    // a job that fills whole groups gives them back whole when it ends; the remainder
    // goes where it leaves the smallest crumb. (The first version took each piece as
    // the smallest group that still let the others finish, which spreads the job
    // evenly: measured over whole traces it left more jobs crossing spines; see
    // docs/whatif.md.)
    std::vector<std::pair<int, int>> avail;  // cap, leaf
    const auto& pool = best.pool.empty() ? ix.sw[static_cast<std::size_t>(best.sw)].leaves : best.pool;
    // capacity descending; among equal ones the least extension (with a time limit), fewer
    // physical leaf switches (a group that lost a rail cable has fewer), then the lowest
    // index
    const bool timed = w.req.time_limit > 0;
    const bool from_order = w.req.time_limit <= 0 && pool.size() > 16;
    if (from_order) {
        // the capacity order (same comparator) restricted to the pool: no sort
        const auto& ord = sc.order();
        avail.reserve(std::min(pool.size(), ord.size()));
        if (static_cast<int>(pool.size()) == ix.n_leaves) {
            for (int l : ord) avail.emplace_back(w.leaf_cap[static_cast<std::size_t>(l)], l);
        } else {
            auto& mark = sc.marks();
            for (int l : pool) mark[static_cast<std::size_t>(l)] = 1;
            for (int l : ord)
                if (mark[static_cast<std::size_t>(l)] != 0)
                    avail.emplace_back(w.leaf_cap[static_cast<std::size_t>(l)], l);
            for (int l : pool) mark[static_cast<std::size_t>(l)] = 0;
        }
    } else {
        avail.reserve(pool.size());
        for (int l : pool) {
            const int cp = w.leaf_cap[static_cast<std::size_t>(l)];
            if (cp > 0) avail.emplace_back(cp, l);
        }
    }
    if (!from_order)
        std::sort(avail.begin(), avail.end(), [&](const auto& a, const auto& b) {
            auto key = [&](const std::pair<int, int>& x) {
                return LeafKey{x.first, timed ? sc.ext(x.second) : 0.0,
                               ix.leaf_switch_count[static_cast<std::size_t>(x.second)], x.second};
            };
            return leaf_before(key(a), key(b));
        });
    {
        // at most this many hosts join (a GPU unit: at most one host each)
        const auto hosts = static_cast<std::size_t>(
            std::min<long>(w.mode == UnitMode::Segments ? static_cast<long>(demand) * w.seg : demand, ix.n_hosts));
        out.hosts.reserve(out.hosts.size() + hosts);
        out.gpus_per_host.reserve(out.gpus_per_host.size() + hosts);
    }
    int r = demand;
    // avail[head..) are the groups not taken yet: taking the largest (the first) moves head
    // instead of erasing the vector's front (a memmove of the rest per group taken)
    std::size_t head = 0;
    while (r > 0 && head < avail.size()) {
        const auto first = avail.begin() + static_cast<std::ptrdiff_t>(head);
        // the last group with cap >= r is the tightest that holds the rest; among equal
        // capacities the first in order
        std::size_t pick = head;
        auto it = std::partition_point(first, avail.end(), [&](const auto& x) { return x.first >= r; });
        if (it != first) {
            const int cap = (it - 1)->first;
            pick = static_cast<std::size_t>(
                std::partition_point(first, avail.end(), [&](const auto& x) { return x.first > cap; }) - avail.begin());
            if (timed) {
                // with end times: any group that holds the rest, the one the job keeps busy
                // the least past its current end, then the tightest
                const auto n_ok = static_cast<std::size_t>(it - avail.begin());
                for (std::size_t i = head; i < n_ok; ++i) {
                    const double ei = sc.ext(avail[i].second);
                    const double ep = sc.ext(avail[pick].second);
                    if (ei < ep || (ei == ep && avail[i].first < avail[pick].first)) pick = i;
                }
            }
        }
        const int leaf = avail[pick].second;
        const int take = std::min(avail[pick].first, r);
        if (pick == head)
            ++head;
        else
            avail.erase(avail.begin() + static_cast<std::ptrdiff_t>(pick));
        r -= take_from_leaf(w, leaf, take, out);
    }
    if (r > 0) return false;
    const auto& s = ix.sw[static_cast<std::size_t>(best.sw)];
    // (appends into one reserved string: a chain of operator+ allocates per step)
    std::string& why = out.why;
    why.reserve(96 + s.name.size());
    why += "Chose ";
    why += s.level == 0 ? "leaf group " : "the subtree of ";
    why += s.name;
    why += " (level ";
    why += std::to_string(s.level);
    why += ", ";
    why += std::to_string(best.free);
    why += " free unit(s)";
    if (candidates_at_best > 1) {
        why += ", tightest of ";
        why += std::to_string(candidates_at_best);
        why += " that fit";
    }
    why += ")";
    if (s.level >= 2) {
        why += " using ";
        why += std::to_string(best.children);
        why += " of its ";
        why += std::to_string(s.children.size());
        why += " child switch(es)";
    }
    why += ".";
    return true;
}

}  // namespace

}  // namespace topo::placement
