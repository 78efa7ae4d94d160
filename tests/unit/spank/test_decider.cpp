// SPDX-License-Identifier: Apache-2.0
// The Decider (spank/core/decider.hpp): the one decision of the plugin and the service, and
// the one rule both follow for where the node state comes from: sources in order, a busy
// answer on any source but the last decided once more on the last (fresh) one. Sources here
// are counted lambdas over states of the lab fabric; the plugin's are its cache, the feed and
// the RPC (lab.spank checks those live), the service's its memory and a re-read.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include <topo/builder.hpp>
#include <topo/cluster_spec.hpp>
#include <topo/hostlist.hpp>

#include "decider.hpp"
#include "lab_topology.hpp"

namespace {

using namespace topo;
using namespace topo::spank;
using K = ServiceReply::Kind;

using topo::spank::testing::lab;
using topo::spank::testing::pack_request;

placement::ClusterState all_taken(const Topology& t) {
    placement::ClusterState st(t);
    for (std::uint32_t h = 0; h < t.hosts().size(); ++h) st.set_state(HostId{h}, placement::NodeState::Alloc);
    return st;
}

/// A source that counts its reads and gives `state` (or fails with `err`).
struct Counted {
    std::string name;
    std::optional<placement::ClusterState> state;
    Error err{Errc::NotFound, "nothing here"};
    int reads = 0;
    bool missing_is_normal = false;

    StateSource source() {
        return {name,
                [this]() -> Result<SourcedState> {
                    ++reads;
                    if (!state) return fail(err);
                    return SourcedState{*state, name, 42};
                },
                missing_is_normal};
    }
};

struct Notes {
    std::vector<std::string> lines;

    std::function<void(const std::string&)> sink() {
        return [this](const std::string& s) { lines.push_back(s); };
    }
};

TEST(Decider, TakesTheFirstSourceThatReads) {
    const Topology& t = *lab();
    const placement::Placer placer(t);
    Counted cache{"cache", std::nullopt, Error(Errc::NotFound, "no cache file"), 0, true};
    Counted feed{"feed", std::nullopt, Error(Errc::Io, "feed older than 3 s")};
    Counted rpc{"rpc", placement::ClusterState(t)};
    Notes notes;
    const Decider d({cache.source(), feed.source(), rpc.source()}, notes.sink());
    auto out = d.decide(placer, pack_request("4"), {});
    ASSERT_TRUE(out) << out.error().to_string();
    EXPECT_EQ(out->decision.reply.kind, K::Planned) << out->decision.reply.message;
    ASSERT_TRUE(out->state);
    EXPECT_EQ(out->state->from, "rpc");
    EXPECT_TRUE(out->fresh);
    EXPECT_FALSE(out->retried);
    EXPECT_EQ(cache.reads + feed.reads + rpc.reads, 3);
    // a missing cache is normal (silent); a feed that cannot be used is said once
    ASSERT_EQ(notes.lines.size(), 1U);
    EXPECT_NE(notes.lines[0].find("state feed not used: "), std::string::npos) << notes.lines[0];
    EXPECT_NE(notes.lines[0].find("older than 3 s"), std::string::npos) << notes.lines[0];
    // the same decision as decide_on()/serve() on that state
    EXPECT_EQ(out->decision.reply.env, serve(placer, pack_request("4"), placement::ClusterState(t), {}).env);
    ASSERT_TRUE(out->decision.placement);
    ASSERT_TRUE(out->decision.request);
    EXPECT_TRUE(out->decision.request->exclusive);
}

TEST(Decider, BusyOnAStaleStateIsDecidedOnceMoreOnAFreshRead) {
    const Topology& t = *lab();
    const placement::Placer placer(t);
    Counted cache{"cached 2.0 s", all_taken(t)};  // holds jobs that have ended since
    Counted feed{"feed", placement::ClusterState(t)};
    Counted rpc{"rpc", placement::ClusterState(t)};
    const Decider d({cache.source(), feed.source(), rpc.source()});
    auto out = d.decide(placer, pack_request("4"), {});
    ASSERT_TRUE(out) << out.error().to_string();
    EXPECT_EQ(out->decision.reply.kind, K::Planned) << out->decision.reply.message;
    EXPECT_EQ(out->state->from, "rpc");  // the last source, not the next one
    EXPECT_TRUE(out->fresh);
    EXPECT_TRUE(out->retried);
    EXPECT_EQ(cache.reads, 1);
    EXPECT_EQ(feed.reads, 0);
    EXPECT_EQ(rpc.reads, 1);
}

TEST(Decider, BusyOnTheFreshStateIsTheAnswer) {
    const Topology& t = *lab();
    const placement::Placer placer(t);
    Counted rpc{"rpc", all_taken(t)};
    const Decider d({rpc.source()});
    auto out = d.decide(placer, pack_request("4"), {});
    ASSERT_TRUE(out);
    EXPECT_EQ(out->decision.reply.kind, K::Busy);
    EXPECT_FALSE(out->retried);
    EXPECT_EQ(rpc.reads, 1);
    EXPECT_FALSE(out->decision.placement);
}

TEST(Decider, AFailedFreshReadLeavesTheBusyAnswer) {
    const Topology& t = *lab();
    const placement::Placer placer(t);
    Counted memory{"memory", all_taken(t)};
    Counted reread{"re-read", std::nullopt, Error(Errc::Busy, "slurmctld was read less than a second ago")};
    Notes notes;
    const Decider d({memory.source(), reread.source()}, notes.sink());
    auto out = d.decide(placer, pack_request("4"), {});
    ASSERT_TRUE(out);
    EXPECT_EQ(out->decision.reply.kind, K::Busy);
    EXPECT_EQ(out->state->from, "memory");
    EXPECT_FALSE(out->fresh);
    EXPECT_FALSE(out->retried);
    EXPECT_EQ(reread.reads, 1);
    ASSERT_EQ(notes.lines.size(), 1U);
    EXPECT_NE(notes.lines[0].find("state re-read not used"), std::string::npos) << notes.lines[0];
}

TEST(Decider, AnInvalidRequestReadsNoState) {
    const Topology& t = *lab();
    const placement::Placer placer(t);
    Counted rpc{"rpc", placement::ClusterState(t)};
    const Decider d({rpc.source()});
    auto out = d.decide(placer, pack_request("x"), {});
    ASSERT_TRUE(out);
    EXPECT_EQ(out->decision.reply.kind, K::Invalid);
    EXPECT_FALSE(out->state);
    EXPECT_EQ(rpc.reads, 0);
    auto chosen = pack_request("2");
    chosen.sr.nodelist = "n[001-002]";
    auto out2 = d.decide(placer, chosen, {});
    ASSERT_TRUE(out2);
    EXPECT_EQ(out2->decision.reply.kind, K::Unsupported);
    EXPECT_EQ(rpc.reads, 0);
}

TEST(Decider, NoStateAtAllIsAnErrorNamingTheLastSource) {
    const Topology& t = *lab();
    const placement::Placer placer(t);
    Counted cache{"cache", std::nullopt, Error(Errc::NotFound, "no cache file"), 0, true};
    Counted rpc{"rpc", std::nullopt, Error(Errc::Io, "slurm_load_node: Unable to contact slurm controller")};
    const Decider d({cache.source(), rpc.source()});
    auto out = d.decide(placer, pack_request("4"), {});
    ASSERT_FALSE(out);
    EXPECT_NE(out.error().message.find("Unable to contact"), std::string::npos) << out.error().to_string();
}

TEST(Decider, TheStateDecidedOnCarriesTheHealthMarks) {
    const Topology& t = *lab();
    const placement::Placer placer(t);
    Counted rpc{"rpc", placement::ClusterState(t)};
    const Decider d({rpc.source()});
    const HostId sick{0};
    auto out = d.decide(placer, pack_request("4"), HealthFlags{{{sick, "xid 79"}}, {}, {}});
    ASSERT_TRUE(out);
    ASSERT_EQ(out->decision.reply.kind, K::Planned);
    EXPECT_FALSE(out->state->state.available(sick));  // what the plugin caches is what was decided on
    for (HostId h : out->decision.placement->hosts) EXPECT_NE(h, sick);
    bool named = false;
    for (const auto& [k, v] : out->decision.reply.env) named |= k == "TOPOPLACE_EXCLUDE" && v == t.host(sick).name;
    EXPECT_TRUE(named);
}

// policy=cost (plugstack): the decision is the cost policy's. On the lab fabric with free
// hosts per scalable unit [2 2 2 0 | 4 0 0 0 | 0 ...], 6 nodes: topo takes 2 units under two
// spines (the core); cost stays under one spine with 3 units (the model: a pipeline across
// pods costs more than a third unit in one pod, PERF-MODEL 1.2).
TEST(Decider, PolicyCostDecidesByTheModel) {
    const Topology& t = *lab();
    placement::ClusterState st(t);
    const int free[16] = {2, 2, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    for (int su = 0; su < 16; ++su) {
        for (int i = 0; i < 4; ++i) {
            char name[8];
            std::snprintf(name, sizeof name, "n%03d", su * 4 + i + 1);
            const auto h = t.find_host(name);
            ASSERT_TRUE(h) << name;
            if (i >= free[su]) st.set_state(*h, placement::NodeState::Alloc);
        }
    }
    const placement::Placer placer(t);
    auto req = pack_request("6");
    auto topo = decide_on(placer, req, st, HealthFlags{});
    ASSERT_EQ(topo.reply.kind, K::Planned) << topo.reply.message;
    ASSERT_TRUE(topo.placement);
    EXPECT_EQ(topo.placement->groups.size(), 2U);
    EXPECT_EQ(topo.placement->max_tier, 2);
    req.policy = placement::Policy::Cost;
    auto cost = decide_on(placer, req, st, HealthFlags{});
    ASSERT_EQ(cost.reply.kind, K::Planned) << cost.reply.message;
    ASSERT_TRUE(cost.placement);
    EXPECT_EQ(cost.placement->policy, placement::Policy::Cost);
    EXPECT_EQ(cost.placement->groups.size(), 3U);
    EXPECT_EQ(cost.placement->max_tier, 1);
    EXPECT_NE(cost.reply.text.find("cost:"), std::string::npos) << cost.reply.text;
    // spread jobs are spread whatever the policy
    req.opts.mode = Mode::Spread;
    auto spread = decide_on(placer, req, st, HealthFlags{});
    ASSERT_EQ(spread.reply.kind, K::Planned) << spread.reply.message;
    EXPECT_EQ(spread.placement->policy, placement::Policy::Spread);
}

}  // namespace

namespace {

// A job that gets no plan (busy, or queued behind other jobs: docs/spank.md "Queued jobs")
// still keeps off the hosts the health store flags: unhealthy ones always, degraded ones for
// a multi-node job while the rest of the fabric can hold it; a single-node job may use them.
TEST(Decider, AJobWithoutAPlanStillKeepsOffFlaggedHosts) {
    const Topology& t = *lab();
    const HostId sick{0};
    const HostId slow{5};
    const HostId slow2{9};
    const HealthFlags flags{{{sick, "xid 79"}}, {{slow, 1.34}, {slow2, 1.2}}, {}};
    auto req = make_request(t, pack_request("4").sr, pack_request("4").opts);
    ASSERT_TRUE(req);
    req->excluded.push_back(sick);  // as the Decider's request carries it
    auto env = unplanned_env(t, *req, flags, Mode::Pack);
    ASSERT_EQ(env.size(), 2U);
    EXPECT_EQ(env[0], (std::pair<std::string, std::string>{"TOPOPLACE_MODE", "pack"}));
    const std::vector<std::string> three{t.host(sick).name, t.host(slow).name, t.host(slow2).name};
    EXPECT_EQ(env[1].first, "TOPOPLACE_EXCLUDE");
    EXPECT_EQ(env[1].second, compress_hostlist(three));
    // one node: the degraded hosts are allowed, the unhealthy one is not
    auto one = make_request(t, pack_request("1").sr, pack_request("1").opts);
    ASSERT_TRUE(one);
    auto env1 = unplanned_env(t, *one, flags, Mode::Pack);
    ASSERT_EQ(env1.size(), 2U);
    EXPECT_EQ(env1[1].second, t.host(sick).name);
    // a job as large as the fabric: the degraded hosts are needed, only the unhealthy one is out
    const auto all = std::to_string(t.hosts().size() - 1);
    auto big = make_request(t, pack_request(all.c_str()).sr, pack_request(all.c_str()).opts);
    ASSERT_TRUE(big);
    big->excluded.push_back(sick);
    EXPECT_EQ(unplanned_env(t, *big, flags, Mode::Pack)[1].second, t.host(sick).name);
    // nothing flagged: nothing handed over
    EXPECT_TRUE(unplanned_env(t, *req, HealthFlags{}, Mode::Pack).empty());
}

}  // namespace
