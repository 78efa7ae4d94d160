// SPDX-License-Identifier: Apache-2.0
// Private to topo_placement: the order in which `topo` takes leaf groups, defined once.
//
// A leaf comes before another when it holds more of the request (capacity, descending); then,
// with a time limit, when its hosts free up sooner (extension, ascending); then when it has
// fewer physical leaf switches (a group that lost a rail cable has fewer); then by index.
// leaf_before() is that definition. The fast paths of order_leaves() are derived from it (an
// integer key packing the same fields in the same significance; a counting sort when every
// leaf has the same switch count) and tests/unit/placement/test_leaf_order.cpp checks each
// against a plain sort by leaf_before().
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace topo::placement {

struct LeafKey {
    int cap = 0;       ///< units of the request the leaf group holds now
    double ext = 0;    ///< latest expected end of its hosts (0 without a time limit)
    int switches = 0;  ///< physical leaf switches of the group
    int index = 0;     ///< leaf index
};

/// The leaf order.
[[nodiscard]] inline bool leaf_before(const LeafKey& a, const LeafKey& b) noexcept {
    if (a.cap != b.cap) return a.cap > b.cap;
    if (a.ext != b.ext) return a.ext < b.ext;
    if (a.switches != b.switches) return a.switches < b.switches;
    return a.index < b.index;
}

/// leaf_before() without extensions as one integer (smaller = earlier), when the fields fit:
/// capacity in 31 bits, switches < 4096, index < 2^20.
[[nodiscard]] inline bool leaf_key_fits(const LeafKey& k) noexcept {
    return k.cap > 0 && k.switches >= 0 && k.switches < 4096 && k.index >= 0 && k.index < (1 << 20) && k.ext == 0;
}

[[nodiscard]] inline std::uint64_t leaf_key(const LeafKey& k) noexcept {
    return (static_cast<std::uint64_t>(0x7fffffff - k.cap) << 32) | (static_cast<std::uint64_t>(k.switches) << 20)
           | static_cast<std::uint64_t>(k.index);
}

/// Scratch of order_leaves(), kept between calls of one decision.
struct LeafOrderScratch {
    std::vector<std::uint64_t> keys;
    std::vector<int> bucket;
};

/// `ord` = the leaves with cap[l] > 0 in leaf order, without extensions. `switches[l]` are
/// the leaves' physical switch counts; `uniform_switches` says they are all equal (then a
/// counting sort by capacity, O(leaves + largest capacity), when capacities are small).
inline void order_leaves(const std::vector<int>& cap, const std::vector<int>& switches, bool uniform_switches,
                         std::vector<int>& ord, LeafOrderScratch& s) {
    const int n_leaves = static_cast<int>(cap.size());
    ord.clear();
    if (uniform_switches) {
        int maxcap = 0;
        int n = 0;
        for (int l = 0; l < n_leaves; ++l) {
            if (cap[static_cast<std::size_t>(l)] > 0) {
                maxcap = std::max(maxcap, cap[static_cast<std::size_t>(l)]);
                ++n;
            }
        }
        if (maxcap <= 4 * n_leaves + 4096) {
            // equal switch counts: leaf_before() is capacity descending, then index
            s.bucket.assign(static_cast<std::size_t>(maxcap) + 2, 0);
            for (int l = 0; l < n_leaves; ++l)
                if (cap[static_cast<std::size_t>(l)] > 0)
                    ++s.bucket[static_cast<std::size_t>(cap[static_cast<std::size_t>(l)])];
            int at = 0;  // slots: the largest capacity first
            for (int cp = maxcap; cp >= 1; --cp) {
                const int k = s.bucket[static_cast<std::size_t>(cp)];
                s.bucket[static_cast<std::size_t>(cp)] = at;
                at += k;
            }
            ord.resize(static_cast<std::size_t>(n));
            for (int l = 0; l < n_leaves; ++l) {
                const int cp = cap[static_cast<std::size_t>(l)];
                if (cp > 0) ord[static_cast<std::size_t>(s.bucket[static_cast<std::size_t>(cp)]++)] = l;
            }
            return;
        }
    }
    auto key_of = [&](int l) {
        return LeafKey{cap[static_cast<std::size_t>(l)], 0, switches[static_cast<std::size_t>(l)], l};
    };
    bool keyed = true;
    s.keys.clear();
    for (int l = 0; l < n_leaves; ++l) {
        if (cap[static_cast<std::size_t>(l)] <= 0) continue;
        ord.push_back(l);
        const LeafKey k = key_of(l);
        if (!leaf_key_fits(k)) keyed = false;
        if (keyed) s.keys.push_back(leaf_key(k));
    }
    if (keyed) {
        std::sort(s.keys.begin(), s.keys.end());
        for (std::size_t i = 0; i < s.keys.size(); ++i) ord[i] = static_cast<int>(s.keys[i] & 0xfffffU);
        return;
    }
    std::sort(ord.begin(), ord.end(), [&](int a, int b) { return leaf_before(key_of(a), key_of(b)); });
}

}  // namespace topo::placement
