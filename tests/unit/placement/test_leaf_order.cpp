// SPDX-License-Identifier: Apache-2.0
// The leaf order of the topo policy is defined once (placement/src/leaf_order.hpp:
// leaf_before()); its fast paths (a counting sort when every leaf group has the same number
// of leaf switches, an integer key, the comparator) must give exactly a plain sort by
// leaf_before(). Random capacities and switch counts drive each path.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "leaf_order.hpp"

namespace topo::placement {
namespace {

std::vector<int> reference(const std::vector<int>& cap, const std::vector<int>& sw) {
    std::vector<int> ord;
    for (int l = 0; l < static_cast<int>(cap.size()); ++l)
        if (cap[static_cast<std::size_t>(l)] > 0) ord.push_back(l);
    std::sort(ord.begin(), ord.end(), [&](int a, int b) {
        return leaf_before(LeafKey{cap[static_cast<std::size_t>(a)], 0, sw[static_cast<std::size_t>(a)], a},
                           LeafKey{cap[static_cast<std::size_t>(b)], 0, sw[static_cast<std::size_t>(b)], b});
    });
    return ord;
}

struct Case {
    int leaves;
    int max_cap;
    int max_switches;  ///< 1 = uniform
};

TEST(LeafOrder, FastPathsEqualASortByTheDefinition) {
    std::mt19937 rng(20261126);
    // counting sort (uniform, small capacities), integer key (non-uniform, or capacities too
    // large to count), comparator (switch counts over 4095)
    const Case cases[] = {{1, 4, 1},    {40, 8, 1},        {512, 64, 1},  {300, 1 << 30, 1},
                          {200, 16, 4}, {1000, 100000, 3}, {64, 8, 5000}, {257, 3, 1}};
    for (const auto& c : cases) {
        for (int round = 0; round < 50; ++round) {
            std::vector<int> cap(static_cast<std::size_t>(c.leaves));
            std::vector<int> sw(static_cast<std::size_t>(c.leaves));
            for (int l = 0; l < c.leaves; ++l) {
                cap[static_cast<std::size_t>(l)] =
                    static_cast<int>(rng() % static_cast<unsigned>(c.max_cap + 1)) - (rng() % 5 == 0 ? 1 : 0);
                sw[static_cast<std::size_t>(l)] =
                    c.max_switches == 1 ? 2 : 1 + static_cast<int>(rng() % static_cast<unsigned>(c.max_switches));
            }
            std::vector<int> ord;
            LeafOrderScratch s;
            order_leaves(cap, sw, c.max_switches == 1, ord, s);
            ASSERT_EQ(ord, reference(cap, sw)) << "leaves " << c.leaves << " max_cap " << c.max_cap << " switches "
                                               << c.max_switches << " round " << round;
        }
    }
}

TEST(LeafOrder, TheIntegerKeyOrdersAsTheDefinition) {
    std::mt19937 rng(7);
    for (int i = 0; i < 20000; ++i) {
        const LeafKey a{1 + static_cast<int>(rng() % 50), 0, static_cast<int>(rng() % 4096),
                        static_cast<int>(rng() % (1 << 20))};
        LeafKey b{1 + static_cast<int>(rng() % 50), 0, static_cast<int>(rng() % 4096),
                  static_cast<int>(rng() % (1 << 20))};
        if (rng() % 3 == 0) b.cap = a.cap;
        if (rng() % 3 == 0) b.switches = a.switches;
        ASSERT_TRUE(leaf_key_fits(a) && leaf_key_fits(b));
        ASSERT_EQ(leaf_key(a) < leaf_key(b), leaf_before(a, b));
    }
    EXPECT_FALSE(leaf_key_fits(LeafKey{3, 0, 4096, 1}));
    EXPECT_FALSE(leaf_key_fits(LeafKey{3, 0, 1, 1 << 20}));
    EXPECT_FALSE(leaf_key_fits(LeafKey{3, 2.5, 1, 1}));  // extensions: the comparator
}

TEST(LeafOrder, ExtensionsComeAfterCapacityAndBeforeSwitches) {
    EXPECT_TRUE(leaf_before({8, 100, 1, 5}, {4, 0, 1, 1}));  // more capacity first
    EXPECT_TRUE(leaf_before({8, 10, 2, 5}, {8, 20, 1, 1}));  // then the sooner free
    EXPECT_TRUE(leaf_before({8, 10, 1, 5}, {8, 10, 2, 1}));  // then fewer leaf switches
    EXPECT_TRUE(leaf_before({8, 10, 1, 1}, {8, 10, 1, 5}));  // then the index
    EXPECT_FALSE(leaf_before({8, 10, 1, 1}, {8, 10, 1, 1}));
}

}  // namespace
}  // namespace topo::placement
