// SPDX-License-Identifier: Apache-2.0
// ClusterState::briefs(): the packed per-host view place() reads instead of HostState.
// After random mutations through every setter and through at(), each placeable host's
// Brief equals what its HostState says (resolved total / free GPUs, state, health, busy
// list present), for the state itself, its copies and states read from scontrol text.
#include <gtest/gtest.h>

#include <array>
#include <random>

#include "fabric.hpp"

namespace topo::placement {
namespace {

using Rng = std::mt19937;

void expect_briefs_match(const Topology& t, const ClusterState& s, const char* when) {
    const ClusterState::Brief* b = s.briefs();
    for (std::uint32_t g = 0; g < t.groups().size(); ++g) {
        for (auto h : t.groups()[g].hosts) {
            if (t.host(h).role == HostRole::Service) continue;  // never placed, not kept
            const HostState& hs = s.at(h);
            const auto& x = b[h.index()];
            ASSERT_EQ(x.total, s.total_gpus(t, h)) << when << ": " << t.host(h).name;
            ASSERT_EQ(x.free, s.free_gpus(t, h)) << when << ": " << t.host(h).name;
            ASSERT_EQ(x.state, hs.state) << when << ": " << t.host(h).name;
            ASSERT_EQ(x.unhealthy, hs.unhealthy) << when << ": " << t.host(h).name;
            ASSERT_EQ(x.busy_listed, !hs.busy_gpus.empty()) << when << ": " << t.host(h).name;
        }
    }
}

void mutate(const Topology& t, ClusterState& s, Rng& rng) {
    const HostId h{static_cast<std::uint32_t>(rng() % t.hosts().size())};
    const int gpus = static_cast<int>(t.host(h).gpus.size());
    static const std::array<NodeState, 6> states{NodeState::Idle,  NodeState::Mixed, NodeState::Alloc,
                                                 NodeState::Drain, NodeState::Down,  NodeState::Unknown};
    const auto st = states[rng() % states.size()];
    const int free = static_cast<int>(rng() % static_cast<unsigned>(gpus + 3)) - 1;  // -1..gpus+1
    switch (rng() % 8) {
        case 0:
            s.set_state(h, st);
            break;
        case 1:
            s.set_free_gpus(h, free);
            break;
        case 2:
            s.set_unhealthy(h, rng() % 2 == 0, "probe");
            break;
        case 3:
            s.set_total_gpus(h, rng() % 20 == 0 ? 16 : static_cast<int>(rng() % 9) - 1);
            break;
        case 4: {
            HostState hs;
            hs.state = st;
            hs.free_gpus = free;
            hs.unhealthy = rng() % 10 == 0;
            if (rng() % 2 == 0) hs.busy_gpus = {1, 3};
            s.set(h, hs);
            break;
        }
        case 5:
            s.set_busy_gpus(h, rng() % 2 == 0 ? std::vector<int>{} : std::vector<int>{0, 2});
            break;
        default: {  // through the mutable reference (refreshed lazily)
            auto& hs = s.at(h);
            hs.state = st;
            hs.free_gpus = free;
            if (rng() % 10 == 0) hs.unhealthy = !hs.unhealthy;
            if (rng() % 30 == 0) hs.total_gpus = 12;
            if (rng() % 4 == 0) hs.busy_gpus = hs.busy_gpus.empty() ? std::vector<int>{5} : std::vector<int>{};
            break;
        }
    }
}

TEST(Briefs, MatchHostStatesUnderRandomMutations) {
    const auto t = testing::rail_fabric(8, 8, 4, 4);
    Rng rng(6);
    ClusterState s(*t);
    expect_briefs_match(*t, s, "fresh");
    for (int round = 0; round < 200; ++round) {
        const int n = 1 + static_cast<int>(rng() % 40);
        for (int i = 0; i < n; ++i)
            mutate(*t, s, rng);
        expect_briefs_match(*t, s, "after mutations");
        if (round % 50 == 0) {
            ClusterState c = s;
            expect_briefs_match(*t, c, "copy");
            mutate(*t, c, rng);
            expect_briefs_match(*t, c, "mutated copy");
            expect_briefs_match(*t, s, "original after copy mutated");
        }
    }
}

TEST(Briefs, ParsedStatesMatch) {
    const auto t = testing::three_level();
    const std::string text =
        "NodeName=n001 State=ALLOCATED Gres=gpu:8 GresUsed=gpu:8(IDX:0-7)\n"
        "NodeName=n002 State=MIXED Gres=gpu:8 GresUsed=gpu:3(IDX:0-2)\n"
        "NodeName=n003 State=IDLE+DRAIN Reason=xid\n"
        "NodeName=n005 State=IDLE Gres=gpu:16\n";
    auto s = parse_scontrol_nodes(*t, text, "x.txt");
    ASSERT_TRUE(s) << s.error().to_string();
    expect_briefs_match(*t, *s, "parsed");
    const auto* b = s->briefs();
    EXPECT_EQ(b[t->find_host("n002")->index()].free, 5);
    EXPECT_TRUE(b[t->find_host("n002")->index()].busy_listed);
    EXPECT_EQ(b[t->find_host("n005")->index()].total, 16);
}

/// GPU indices handed out skip the busy ones: the Brief's busy flag and the list agree.
TEST(Briefs, PlacementSkipsBusyGpus) {
    const auto t = testing::three_level(1, 1, 2);
    ClusterState s(*t);
    const HostId a = *t->find_host("n001");
    const HostId b = *t->find_host("n002");
    s.set_state(a, NodeState::Mixed);
    s.set_free_gpus(a, 5);
    s.set_busy_gpus(a, {0, 3, 6});
    s.set_state(b, NodeState::Alloc);
    Request r;
    r.exclusive = false;
    r.gpus_per_node = 4;
    auto p = place(*t, s, r);
    ASSERT_TRUE(p) << p.error().to_string();
    ASSERT_EQ(p->hosts, (std::vector<HostId>{a}));
    EXPECT_EQ(p->gpus[0], (std::vector<int>{1, 2, 4, 5}));
    s.at(a).busy_gpus.clear();  // through at(): the next decision sees the change
    p = place(*t, s, r);
    ASSERT_TRUE(p) << p.error().to_string();
    EXPECT_EQ(p->gpus[0], (std::vector<int>{0, 1, 2, 3}));
}

}  // namespace
}  // namespace topo::placement
