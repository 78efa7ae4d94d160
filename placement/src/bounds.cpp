// SPDX-License-Identifier: Apache-2.0
// place(): the lower bounds a placement is measured against (fewest groups, lowest tier, fewest leaf switches) (see
// internal.hpp).
#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include <topo/hostlist.hpp>
#include <topo/placement/place.hpp>

#include "internal.hpp"

namespace topo::placement {

// ------------------------------------------------------------------ bounds

Bounds lower_bounds(const Work& w) {
    const auto& ix = *w.ix;
    Bounds b;
    std::vector<int> caps;
    int best_root = -1;
    for (int x : ix.by_level_order) {
        const auto& s = ix.sw[static_cast<std::size_t>(x)];
        if (w.req.max_tier && s.level > *w.req.max_tier) continue;
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
        while (acc < w.demand) acc += caps[static_cast<std::size_t>(mg++)];
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
        if (w.req.max_tier && s.level > *w.req.max_tier) continue;
        if (s.parent >= 0 && !(w.req.max_tier && ix.sw[static_cast<std::size_t>(s.parent)].level > *w.req.max_tier)) {
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

}  // namespace topo::placement
