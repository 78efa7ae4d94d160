// SPDX-License-Identifier: Apache-2.0
// topo with end-time hints (Request::now/time_limit, HostState::release_at): jobs that
// end together share groups; without hints nothing changes; constraints and bounds hold.
#include <gtest/gtest.h>

#include <random>

#include <topo/hostlist.hpp>

#include "fabric.hpp"

namespace topo::placement {
namespace {

using testing::names;
using testing::three_level;

/// 16 leaves x 4 hosts: the first free[l] hosts of leaf l idle, the others busy until
/// release[l].
ClusterState timed_state(const Topology& t, const std::vector<int>& free, const std::vector<double>& release) {
    ClusterState s(t);
    for (std::size_t l = 0; l < free.size(); ++l) {
        for (int i = 0; i < 4; ++i) {
            const auto h = t.find_host(testing::num("n", static_cast<int>(l) * 4 + i + 1));
            EXPECT_TRUE(h.has_value());
            HostState hs;
            hs.state = i < free[l] ? NodeState::Idle : NodeState::Alloc;
            hs.release_at = i < free[l] ? -1 : release[l];
            s.set(*h, hs);
        }
    }
    return s;
}

TEST(TimeHints, SingleGroupJobJoinsTheGroupItDoesNotExtend) {
    auto t = three_level();
    ASSERT_TRUE(t);
    std::vector<int> free(16, 0);
    std::vector<double> rel(16, 0);
    free[0] = 2;  // tightest fit, but its jobs end at t=100
    rel[0] = 100;
    free[5] = 3;  // looser, its jobs end at t=2000
    rel[5] = 2000;
    const auto s = timed_state(*t, free, rel);
    Request r;
    r.nodes_min = 2;
    auto plain = place(*t, s, r, Policy::Topo);
    ASSERT_TRUE(plain) << plain.error().to_string();
    EXPECT_EQ(compress_hostlist(names(*t, *plain)), "n[001-002]");  // best fit, no hints

    r.now = 0;
    r.time_limit = 1000;  // ends at 1000: leaf 1 would stay busy 900 s longer, leaf 6 not at all
    auto timed = place(*t, s, r, Policy::Topo);
    ASSERT_TRUE(timed) << timed.error().to_string();
    EXPECT_EQ(compress_hostlist(names(*t, *timed)), "n[021-022]");
    EXPECT_EQ(timed->groups.size(), 1U);

    r.time_limit = 50;  // ends before both: no extension anywhere, best fit again
    auto short_job = place(*t, s, r, Policy::Topo);
    ASSERT_TRUE(short_job);
    EXPECT_EQ(compress_hostlist(names(*t, *short_job)), "n[001-002]");

    // slurm-tree and linear ignore the hints
    r.time_limit = 1000;
    auto st = place(*t, s, r, Policy::SlurmTree);
    Request r0;
    r0.nodes_min = 2;
    auto st0 = place(*t, s, r0, Policy::SlurmTree);
    ASSERT_TRUE(st && st0);
    EXPECT_EQ(names(*t, *st), names(*t, *st0));
}

TEST(TimeHints, SharedHostWithTheLatestEndingJobs) {
    auto t = three_level();
    ASSERT_TRUE(t);
    ClusterState s(*t);
    for (const char* n : {"n010", "n040"}) {
        HostState hs;
        hs.state = NodeState::Mixed;
        hs.free_gpus = 4;
        hs.release_at = std::string(n) == "n010" ? 300 : 5000;
        s.set(*t->find_host(n), hs);
    }
    Request r;
    r.nodes_min = 1;
    r.gpus_per_node = 2;
    r.exclusive = false;
    auto plain = place(*t, s, r, Policy::Topo);
    ASSERT_TRUE(plain);
    EXPECT_EQ(names(*t, *plain), std::vector<std::string>{"n010"});  // fewest free GPUs tie: lowest id
    r.time_limit = 3600;
    auto timed = place(*t, s, r, Policy::Topo);
    ASSERT_TRUE(timed);
    EXPECT_EQ(names(*t, *timed), std::vector<std::string>{"n040"});  // n010 would stay busy 3300 s longer
}

TEST(TimeHints, RandomStatesKeepBoundsAndConstraints) {
    auto t = three_level();
    ASSERT_TRUE(t);
    std::mt19937 rng(7);
    int placed = 0;
    int differs = 0;
    for (int it = 0; it < 400; ++it) {
        std::vector<int> free(16);
        std::vector<double> rel(16);
        for (int l = 0; l < 16; ++l) {
            free[static_cast<std::size_t>(l)] = static_cast<int>(rng() % 5);
            rel[static_cast<std::size_t>(l)] = static_cast<double>(rng() % 10000);
        }
        const auto s = timed_state(*t, free, rel);
        Request r;
        r.nodes_min = 1 + static_cast<int>(rng() % 16);
        auto plain = place(*t, s, r, Policy::Topo);
        r.now = 0;
        r.time_limit = static_cast<double>(1 + rng() % 10000);
        auto timed = place(*t, s, r, Policy::Topo);
        ASSERT_EQ(plain.has_value(), timed.has_value());
        if (!timed) continue;
        ++placed;
        // the hints only choose among placements at both bounds, never below them
        EXPECT_EQ(timed->groups.size(), plain->groups.size());
        EXPECT_EQ(static_cast<int>(timed->groups.size()), timed->lower_bound_groups);
        EXPECT_EQ(timed->max_tier, plain->max_tier);
        EXPECT_EQ(static_cast<int>(timed->hosts.size()), r.nodes_min);
        for (HostId h : timed->hosts) EXPECT_EQ(s.at(h).state, NodeState::Idle) << t->host(h).name;
        if (names(*t, *timed) != names(*t, *plain)) ++differs;
    }
    EXPECT_GT(placed, 300);
    EXPECT_GT(differs, 20);  // the hints do change choices
    std::printf("[ figures  ] %d placed, %d chosen differently with end-time hints\n", placed, differs);
}

}  // namespace
}  // namespace topo::placement
