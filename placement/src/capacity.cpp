// SPDX-License-Identifier: Apache-2.0
// place(): the units of a request each host and leaf group can hold now, and taking them from a leaf (see
// internal.hpp).
#include <algorithm>
#include <bit>
#include <numeric>
#include <string>
#include <vector>

#include <topo/hostlist.hpp>
#include <topo/placement/place.hpp>

#include "internal.hpp"

namespace topo::placement {

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
            for (const auto& cell : leaf_cells(w, l)) cap += static_cast<int>(cell.size()) / w.seg;
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
    for (std::size_t l = 0; l < w.skip_leaf.size(); ++l) {  // excluded groups: nothing
        if (w.skip_leaf[l] != 0) w.leaf_cap[l] = 0;
    }
}

int take_from_leaf(const Work& w, int leaf, int units, Choice& c) {
    const auto& ix = *w.ix;
    if (units <= 0) return 0;
    if (!w.skip_leaf.empty() && w.skip_leaf[static_cast<std::size_t>(leaf)] != 0) return 0;
    const auto& hs = ix.leaf_hosts[static_cast<std::size_t>(leaf)];
    int taken = 0;
    switch (w.mode) {
        case UnitMode::Nodes: {
            const bool best_fit = !w.req.exclusive && w.gpn > 0 && !w.ideal;
            if (!best_fit && w.host_units.empty() && w.req.exclusive) {
                // the same as below when the caps came from the group counts (no
                // exclusions, domain or rail filter: caps_from_counts_ok): eligible =
                // idle, healthy, enough GPUs; the Brief alone decides
                if (w.idle_bits != nullptr && ix.leaf_contiguous[static_cast<std::size_t>(leaf)] != 0) {
                    // the group's hosts are the ids a..e-1: walk its idle, healthy ones
                    // (the set bits, ascending = config order) instead of every Brief
                    const std::uint32_t a = hs.front();
                    const std::uint32_t e = hs.back() + 1;
                    for (std::uint32_t wd = a / 64; wd <= (e - 1) / 64 && taken < units; ++wd) {
                        std::uint64_t m = w.idle_bits[wd];
                        if (wd == a / 64) m &= ~std::uint64_t{0} << (a % 64);
                        if (wd == (e - 1) / 64 && e % 64 != 0) m &= (std::uint64_t{1} << (e % 64)) - 1;
                        while (m != 0 && taken < units) {
                            const auto h =
                                static_cast<std::uint32_t>(wd * 64 + static_cast<unsigned>(std::countr_zero(m)));
                            m &= m - 1;
                            const ClusterState::Brief& b = w.briefs[h];
                            if (w.gpn > b.total || (w.skip != nullptr && b.degraded)) continue;
                            c.hosts.push_back(h);
                            c.gpus_per_host.push_back(w.gpn > 0 ? w.gpn : b.total);
                            ++taken;
                        }
                    }
                    break;
                }
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
            for (std::size_t i = 0; i < cells.size(); ++i) cap[i] = static_cast<int>(cells[i].size()) / w.seg;
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

}  // namespace topo::placement
