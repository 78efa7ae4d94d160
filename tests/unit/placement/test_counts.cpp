// SPDX-License-Identifier: Apache-2.0
// What ClusterState derives from its HostStates for place(): the per-group counts (what
// `topo` reads instead of scanning every host) and the packed per-host Briefs. After
// random sequences of mutations through the set_*() mutators and through at(), for the
// state, its copies and states read from scontrol text, the counts equal a recount from
// scratch and each placeable host's Brief equals its HostState (resolved total / free
// GPUs, state, health, busy list present, the idle-host bit); a placement read from the counts is the same
// as one computed by the full per-host scan.
#include <gtest/gtest.h>

#include <array>
#include <random>

#include <topo/placement/slurm_state.hpp>

#include "fabric.hpp"

namespace topo::placement {
namespace {

using Rng = std::mt19937;

void expect_counts_consistent(const Topology& t, const ClusterState& s, const char* when) {
    for (std::uint32_t g = 0; g < t.groups().size(); ++g) {
        const auto kept = s.group_counts(GroupId{g});
        const auto fresh = s.recount_group(GroupId{g});
        ASSERT_EQ(kept, fresh) << when << ": group " << t.groups()[g].name;
        // the idle-host total kept apart for whole-node requests
        int idle = 0;
        for (int n : fresh.idle_by_total) idle += n;
        ASSERT_EQ(s.group_hosts_fitting(GroupId{g}, true, 0), idle) << when << ": group " << t.groups()[g].name;
    }
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
            // the idle-host bit (a whole-node job's walk of a group): idle and healthy
            const bool bit = ((s.idle_bits()[h.index() / 64] >> (h.index() % 64)) & 1U) != 0;
            ASSERT_EQ(bit, hs.state == NodeState::Idle && !hs.unhealthy) << when << ": " << t.host(h).name;
        }
    }
}

/// One random mutation of one host, through a setter or through at().
void mutate(const Topology& t, ClusterState& s, Rng& rng) {
    const HostId h{static_cast<std::uint32_t>(rng() % t.hosts().size())};
    const int gpus = static_cast<int>(t.host(h).gpus.size());
    static const std::array<NodeState, 6> states{NodeState::Idle,  NodeState::Mixed, NodeState::Alloc,
                                                 NodeState::Drain, NodeState::Down,  NodeState::Unknown};
    const auto st = states[rng() % states.size()];
    const int free = static_cast<int>(rng() % static_cast<unsigned>(gpus + 3)) - 1;  // -1..gpus+1
    switch (rng() % 8) {
        case 0: s.set_state(h, st); break;
        case 1: s.set_free_gpus(h, free); break;
        case 2: s.set_unhealthy(h, rng() % 2 == 0, "probe"); break;
        case 3: s.set_total_gpus(h, rng() % 20 == 0 ? 16 : static_cast<int>(rng() % 9) - 1); break;
        case 4: {
            HostState hs;
            hs.state = st;
            hs.free_gpus = free;
            hs.unhealthy = rng() % 10 == 0;
            if (rng() % 2 == 0) hs.busy_gpus = {1, 3};
            s.set(h, hs);
            break;
        }
        case 5: s.set_busy_gpus(h, rng() % 2 == 0 ? std::vector<int>{} : std::vector<int>{0, 2}); break;
        default: {  // a copy changed in several fields and set back (a wider host recounts all)
            HostState hs = s.at(h);
            hs.state = st;
            hs.free_gpus = free;
            if (rng() % 10 == 0) hs.unhealthy = !hs.unhealthy;
            if (rng() % 30 == 0) hs.total_gpus = 12;
            if (rng() % 4 == 0) hs.busy_gpus = hs.busy_gpus.empty() ? std::vector<int>{5} : std::vector<int>{};
            s.set(h, std::move(hs));
            break;
        }
    }
}

TEST(Counts, StayConsistentUnderRandomMutations) {
    const auto t = testing::rail_fabric(8, 8, 4, 4);
    Rng rng(20261123);
    ClusterState s(*t);
    expect_counts_consistent(*t, s, "fresh");
    for (int round = 0; round < 200; ++round) {
        const int n = 1 + static_cast<int>(rng() % 40);
        for (int i = 0; i < n; ++i) mutate(*t, s, rng);
        expect_counts_consistent(*t, s, "after mutations");
        // copies and moves keep consistent counts
        if (round % 50 == 0) {
            ClusterState c = s;
            expect_counts_consistent(*t, c, "copy");
            mutate(*t, c, rng);
            expect_counts_consistent(*t, c, "mutated copy");
            expect_counts_consistent(*t, s, "original after copy mutated");
        }
    }
}

TEST(Counts, ParsedStatesAreConsistent) {
    const auto t = testing::three_level();
    const std::string text =
        "NodeName=n001 State=ALLOCATED Gres=gpu:8 GresUsed=gpu:8(IDX:0-7)\n"
        "NodeName=n002 State=MIXED Gres=gpu:8 GresUsed=gpu:3(IDX:0-2)\n"
        "NodeName=n003 State=IDLE+DRAIN Reason=xid\n"
        "NodeName=n005 State=IDLE Gres=gpu:16\n";
    auto s = parse_scontrol_nodes(*t, text, "x.txt");
    ASSERT_TRUE(s) << s.error().to_string();
    expect_counts_consistent(*t, *s, "parsed");
    const auto* b = s->briefs();
    EXPECT_EQ(b[t->find_host("n002")->index()].free, 5);
    EXPECT_TRUE(b[t->find_host("n002")->index()].busy_listed);
    EXPECT_EQ(b[t->find_host("n005")->index()].total, 16);
    const auto g0 = s->group_counts(t->group_of(HostId{0}));
    // leaf 1 = n001..n004: n004 idle (8), n002 mixed (5 free), n001 alloc, n003 drained
    EXPECT_EQ(g0.free_gpus, 13);
    EXPECT_EQ(s->group_hosts_fitting(t->group_of(HostId{0}), true, 0), 1);
    EXPECT_EQ(s->group_hosts_fitting(t->group_of(HostId{0}), false, 5), 2);
    EXPECT_EQ(s->group_hosts_fitting(t->group_of(HostId{0}), false, 6), 1);
    // leaf 2: n005 has 16 GPUs per scontrol (wider than the snapshot's 8)
    EXPECT_EQ(s->group_hosts_fitting(t->group_of(HostId{4}), true, 16), 1);
    EXPECT_EQ(s->group_hosts_fitting(t->group_of(HostId{4}), true, 9), 1);
}

/// A random request: whole hosts (1 << 0..max_shift-1 of them), shared hosts with some GPUs
/// each, a GPU count on one host; with `kinds` 5 also a node range or a tier limit.
Request random_request(Rng& rng, unsigned max_shift, unsigned kinds) {
    Request r;
    r.nodes_min = 1 << (rng() % max_shift);
    const unsigned kind = rng() % kinds;
    if (kind == 1) {
        r.exclusive = false;
        r.gpus_per_node = 1 + static_cast<int>(rng() % 8);
        r.nodes_min = 1 + static_cast<int>(rng() % 16);
    } else if (kind == 2) {
        r.exclusive = false;
        r.nodes_min = 1;
        r.total_gpus = 1 + static_cast<int>(rng() % 24);
    } else if (kind == 3) {
        r.nodes_max = r.nodes_min + static_cast<int>(rng() % 16);
    } else if (kind == 4) {
        r.max_tier = static_cast<int>(rng() % 3);
    }
    return r;
}

/// The same decision whether leaf capacities come from the counts or from the per-host
/// scan. Excluding a host that is not eligible anyway changes nothing but forces the
/// scan (caps_from_counts_ok is false with exclusions).
TEST(Counts, PlacementFromCountsEqualsFullScan) {
    const auto t = testing::rail_fabric(16, 8, 4, 4);
    const Placer placer(*t);
    Rng rng(7);
    int compared = 0;
    for (int st = 0; st < 40; ++st) {
        ClusterState s(*t);
        HostId busy_host{};
        for (std::uint32_t h = 0; h < t->hosts().size(); ++h) {
            const double busy = 0.2 + 0.1 * static_cast<double>((h / 24) % 7);
            const double x = static_cast<double>(rng() % 1000) / 1000.0;
            if (x < busy) {
                s.set_state(HostId{h}, NodeState::Alloc);
                busy_host = HostId{h};
            } else if (x < busy + 0.15) {
                s.set_state(HostId{h}, NodeState::Mixed);
                s.set_free_gpus(HostId{h}, static_cast<int>(rng() % 8));
            } else if (x > 0.99) {
                s.set_unhealthy(HostId{h}, true);
            }
        }
        ASSERT_TRUE(busy_host.valid());
        for (int probe = 0; probe < 20; ++probe) {
            const Request r = random_request(rng, 7, 3);
            Request r2 = r;
            r2.excluded.push_back(busy_host);
            auto a = placer.place(s, r, Policy::Topo);
            auto b = placer.place(s, r2, Policy::Topo);
            ASSERT_EQ(a.has_value(), b.has_value());
            if (!a) {
                EXPECT_EQ(a.error().code, b.error().code);
                continue;
            }
            EXPECT_EQ(a->hosts, b->hosts);
            EXPECT_EQ(a->gpus, b->gpus);
            EXPECT_EQ(a->groups, b->groups);
            EXPECT_EQ(a->lower_bound_groups, b->lower_bound_groups);
            EXPECT_EQ(a->lower_bound_tier, b->lower_bound_tier);
            EXPECT_EQ(a->explanation, b->explanation);
            ++compared;
        }
    }
    EXPECT_GT(compared, 400);
}

/// Request::excluded_groups decides as every host of those groups in Request::excluded (the
/// cost policy's third candidate uses the former: topo keeps its count path), for every
/// policy, with degraded hosts and health flags in the state, whole-node, shared, GPU-count,
/// node-range and tier-limited requests. Only the explanation differs where the request
/// can never fit (it counts groups instead of hosts).
TEST(Counts, ExcludedGroupsDecideAsTheirHostsExcluded) {
    const auto t = testing::rail_fabric(16, 8, 4, 4);
    const Placer placer(*t);
    Rng rng(11);
    int compared = 0;
    int placed = 0;
    const auto ng = static_cast<std::uint32_t>(t->groups().size());
    for (int st = 0; st < 30; ++st) {
        ClusterState s(*t);
        for (std::uint32_t h = 0; h < t->hosts().size(); ++h) {
            const double x = static_cast<double>(rng() % 1000) / 1000.0;
            if (x < 0.4) {
                s.set_state(HostId{h}, NodeState::Alloc);
            } else if (x < 0.55) {
                s.set_state(HostId{h}, NodeState::Mixed);
                s.set_free_gpus(HostId{h}, static_cast<int>(rng() % 8));
            } else if (x > 0.99) {
                s.set_unhealthy(HostId{h}, true);
            } else if (x > 0.975) {
                s.set_slowdown(HostId{h}, 1.2);
            }
        }
        for (int probe = 0; probe < 12; ++probe) {
            const Request r = random_request(rng, 6, 5);
            Request by_hosts = r;
            Request by_groups = r;
            for (std::uint32_t g = 0; g < ng; ++g) {
                if (rng() % 3 != 0) continue;
                by_groups.excluded_groups.emplace_back(g);
                for (auto h : t->groups()[g].hosts) by_hosts.excluded.push_back(h);
            }
            for (Policy pol : {Policy::Topo, Policy::Cost, Policy::SlurmTree, Policy::Linear, Policy::Spread}) {
                auto a = placer.place(s, by_hosts, pol);
                auto b = placer.place(s, by_groups, pol);
                ASSERT_EQ(a.has_value(), b.has_value()) << policy_name(pol) << " state " << st << " probe " << probe
                                                        << ": " << (a ? b.error().to_string() : a.error().to_string());
                ++compared;
                if (!a) {
                    EXPECT_EQ(a.error().code, b.error().code) << policy_name(pol);
                    continue;
                }
                ++placed;
                EXPECT_EQ(a->hosts, b->hosts) << policy_name(pol) << " state " << st << " probe " << probe;
                EXPECT_EQ(a->gpus, b->gpus) << policy_name(pol);
                EXPECT_EQ(a->groups, b->groups) << policy_name(pol);
                EXPECT_EQ(a->max_tier, b->max_tier) << policy_name(pol);
                EXPECT_EQ(a->lower_bound_groups, b->lower_bound_groups) << policy_name(pol);
                EXPECT_EQ(a->lower_bound_tier, b->lower_bound_tier) << policy_name(pol);
                EXPECT_EQ(a->explanation, b->explanation) << policy_name(pol);
            }
        }
    }
    EXPECT_GT(placed, 600);
    EXPECT_EQ(compared, 30 * 12 * 5);
    // an id out of range is an invalid argument, not a crash
    Request bad;
    bad.nodes_min = 1;
    bad.excluded_groups.emplace_back(ng);
    for (Policy pol : {Policy::Topo, Policy::SlurmTree}) {
        auto p = placer.place(ClusterState(*t), bad, pol);
        ASSERT_FALSE(p);
        EXPECT_EQ(p.error().code, Errc::InvalidArgument);
    }
}

/// GPU indices handed out skip the busy ones: the Brief's busy flag and the list agree.
TEST(Counts, PlacementSkipsBusyGpus) {
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
    EXPECT_EQ(std::vector<int>(p->gpus[0].begin(), p->gpus[0].end()), (std::vector<int>{1, 2, 4, 5}));
    s.set_busy_gpus(a, {});  // the next decision sees the change
    p = place(*t, s, r);
    ASSERT_TRUE(p) << p.error().to_string();
    EXPECT_EQ(std::vector<int>(p->gpus[0].begin(), p->gpus[0].end()), (std::vector<int>{0, 1, 2, 3}));
}

}  // namespace
}  // namespace topo::placement
