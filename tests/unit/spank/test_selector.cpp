// SPDX-License-Identifier: Apache-2.0
// topology/topoplace's decision (spank/core/selector.hpp) and its C face (tp_select.h), on the
// lab fabric (64 hosts n001..n064, leaf groups of 4): what a narrowed offer holds, when the
// offer is left to Slurm, the config file's errors, log-once, and a Slurm node table that is
// numbered differently from the snapshot (the shuffled layout).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <topo/health/store.hpp>
#include <topo/snapshot.hpp>

#include "core.hpp"
#include "lab_topology.hpp"
#include "selector.hpp"
#include "state_cache.hpp"
#include "tp_select.h"
#include <unistd.h>

namespace {

using namespace topo;
using namespace topo::spank;
using topo::spank::testing::lab;
using K = Selection::Kind;

std::string tmpdir() {
    static std::string d = [] {
        std::string t = (std::filesystem::temp_directory_path() / "topo-selector-XXXXXX").string();
        EXPECT_NE(mkdtemp(t.data()), nullptr);
        return t;
    }();
    return d;
}

std::string lab_snapshot() {
    static std::string p = [] {
        std::string path = tmpdir() + "/lab.json";
        auto s = save_snapshot(*lab(), path);
        EXPECT_TRUE(s) << s.error().to_string();
        return path;
    }();
    return p;
}

std::vector<std::string> lab_names() {
    std::vector<std::string> v;
    for (const auto& h : lab()->hosts()) v.push_back(h.name);
    std::sort(v.begin(), v.end());
    return v;
}

struct Fixture {
    std::unique_ptr<Selector> sel;
    std::vector<std::string> names;  // Slurm's node table

    explicit Fixture(std::vector<std::string> order = lab_names(), SelectorConfig cfg = {}) : names(std::move(order)) {
        cfg.snapshot = lab_snapshot();
        auto s = Selector::open(cfg);
        EXPECT_TRUE(s) << s.error().to_string();
        sel = std::move(*s);
        std::vector<std::string_view> v(names.begin(), names.end());
        const auto m = sel->set_nodes(v);
        EXPECT_EQ(m.unknown_nodes, 0U);
        EXPECT_EQ(m.absent_hosts, 0U);
    }

    std::vector<std::uint64_t> offer(const std::set<std::string>& busy) const {
        std::vector<std::uint64_t> w((names.size() + 63) / 64, 0);
        for (std::size_t i = 0; i < names.size(); ++i)
            if (!busy.contains(names[i])) w[i / 64] |= 1ULL << (i % 64);
        return w;
    }

    std::set<std::string> chosen(const Selection& s) const {
        std::set<std::string> out;
        for (auto i : s.nodes) out.insert(names.at(i));
        return out;
    }

    std::set<std::string> groups(const Selection& s) const {
        std::set<std::string> g;
        for (auto i : s.nodes) {
            auto h = lab()->find_host(names.at(i));
            g.insert(lab()->groups()[lab()->group_of(*h).index()].name);
        }
        return g;
    }
};

SelectorJob job_of(std::uint32_t nodes) {
    SelectorJob j;
    j.job_id = 7;
    j.min_nodes = j.req_nodes = j.max_nodes = nodes;
    return j;
}

TEST(Selector, NarrowsToOneLeafGroupWhenOneHoldsTheJob) {
    Fixture f;
    // n001-n003 busy: the first group has one host free; a 4-node job fits whole in another
    auto off = f.offer({"n001", "n002", "n003"});
    auto s = f.sel->select(job_of(4), off, static_cast<std::uint32_t>(f.names.size()));
    ASSERT_EQ(s.kind, K::Narrow) << s.why;
    EXPECT_EQ(s.nodes.size(), 4U);
    EXPECT_EQ(f.groups(s).size(), 1U);
    for (const auto& n : f.chosen(s)) EXPECT_NE(n, "n004");
}

TEST(Selector, ChoosesOnlyOfferedNodes) {
    Fixture f;
    std::set<std::string> busy;
    for (int i = 1; i <= 64; i += 2) {
        char b[8];
        std::snprintf(b, sizeof b, "n%03d", i);
        busy.insert(b);
    }
    auto s = f.sel->select(job_of(6), f.offer(busy), static_cast<std::uint32_t>(f.names.size()));
    ASSERT_EQ(s.kind, K::Narrow) << s.why;
    EXPECT_EQ(s.nodes.size(), 6U);
    for (const auto& n : f.chosen(s)) EXPECT_EQ(busy.count(n), 0U) << n;
    // two free per group of 4: three groups is the fewest
    EXPECT_EQ(f.groups(s).size(), 3U);
}

TEST(Selector, TheSlurmNodeTableMayBeNumberedAnyWay) {
    auto order = lab_names();
    std::mt19937 rng(11);
    std::shuffle(order.begin(), order.end(), rng);
    Fixture f(order);
    auto s = f.sel->select(job_of(8), f.offer({"n005"}), static_cast<std::uint32_t>(f.names.size()));
    ASSERT_EQ(s.kind, K::Narrow) << s.why;
    EXPECT_EQ(s.nodes.size(), 8U);
    EXPECT_EQ(f.groups(s).size(), 2U);
    EXPECT_EQ(f.chosen(s).count("n005"), 0U);
}

TEST(Selector, LeavesToSlurmWhatItCannotPlaceOrShouldNot) {
    Fixture f;
    std::set<std::string> all(f.names.begin(), f.names.end());
    std::set<std::string> but_three = all;
    but_three.erase("n010");
    but_three.erase("n020");
    but_three.erase("n030");
    EXPECT_EQ(f.sel->select(job_of(4), f.offer(but_three), 64).kind, K::Pass);  // does not fit in the offer
    auto j = job_of(2);
    j.required_nodes = true;
    EXPECT_EQ(f.sel->select(j, f.offer({}), 64).kind, K::Pass);  // -w
    auto off = job_of(2);
    std::vector<std::string> env = {"SPANK_TOPOPLACE_MODE=off"};
    off.env = {env[0]};
    EXPECT_EQ(f.sel->select(off, f.offer({}), 64).kind, K::Pass);
    EXPECT_EQ(f.sel->stats().narrowed, 0U);
    EXPECT_EQ(f.sel->stats().passed, 3U);
}

TEST(Selector, AnInvalidOptionIsAProblemAndLeftToSlurm) {
    Fixture f;
    auto j = job_of(2);
    std::vector<std::string> env = {"TOPOPLACE_MAX_TIER=99"};
    j.env = {env[0]};
    auto s = f.sel->select(j, f.offer({}), 64);
    EXPECT_EQ(s.kind, K::Pass);
    EXPECT_NE(s.problem.find("--topo-max-tier"), std::string::npos) << s.problem;
    EXPECT_EQ(s.problem_key, "option");
}

TEST(Selector, MaxTierFromTheJobIsHonoured) {
    Fixture f;
    // every group has 2 free hosts: 8 nodes need 4 groups, which fit under one spine (a pod
    // is 4 groups): tier 1 works, tier 0 cannot
    std::set<std::string> busy;
    for (int g = 0; g < 16; ++g)
        for (int k = 1; k <= 2; ++k) {
            char b[8];
            std::snprintf(b, sizeof b, "n%03d", g * 4 + k);
            busy.insert(b);
        }
    auto j = job_of(8);
    std::vector<std::string> env = {"TOPOPLACE_MAX_TIER=0"};
    j.env = {env[0]};
    EXPECT_EQ(f.sel->select(j, f.offer(busy), 64).kind, K::Pass);
    env[0] = "TOPOPLACE_MAX_TIER=1";
    j.env = {env[0]};
    auto s = f.sel->select(j, f.offer(busy), 64);
    ASSERT_EQ(s.kind, K::Narrow) << s.why;
    EXPECT_EQ(f.groups(s).size(), 4U);
}

/// A health record of a degraded host (slowdown 1.3).
health::Record degraded_record(const char* node, const char* reason) {
    health::Record r;
    r.node = node;
    r.verdict = health::Verdict::Degraded;
    r.reason = reason;
    r.slowdown = 1.3;
    return r;
}

TEST(Selector, HealthFlagsAreReadAtMostOncePerIntervalAndHonoured) {
    const std::string store = tmpdir() + "/health";
    auto st = health::Store::open(store, {.trusted_uid = ::getuid(), .create = true});
    ASSERT_TRUE(st) << st.error().to_string();
    health::Record r = degraded_record("n002", "port at half rate");
    ASSERT_TRUE(st->put(r));
    SelectorConfig cfg;
    cfg.health = store;
    Fixture f(lab_names(), cfg);
    auto t = Selector::Clock::time_point{};
    f.sel->set_clock_for_test([&] { return t; });
    // group 1 (n001-n004) whole, the others with n00x busy: a 4-node job would take group 1,
    // but n002 is degraded, so it goes to a group without it while one fits
    std::set<std::string> busy;
    for (int g = 1; g < 16; ++g) busy.insert("n0" + std::string(g * 4 + 1 < 10 ? "0" : "") + std::to_string(g * 4 + 1));
    busy.erase("n061");
    auto s = f.sel->select(job_of(4), f.offer(busy), 64);
    ASSERT_EQ(s.kind, K::Narrow) << s.why;
    EXPECT_EQ(f.chosen(s).count("n002"), 0U);
    EXPECT_EQ(f.groups(s).size(), 1U);
    // unhealthy n061 is never chosen; the store is not re-read before the interval
    r.node = "n061";
    r.verdict = health::Verdict::Unhealthy;
    ASSERT_TRUE(st->put(r));
    t += std::chrono::milliseconds(500);
    s = f.sel->select(job_of(4), f.offer(busy), 64);
    ASSERT_EQ(s.kind, K::Narrow) << s.why;
    EXPECT_EQ(f.chosen(s).count("n061"), 1U) << "read before the interval: the old flags hold";
    t += std::chrono::milliseconds(600);
    s = f.sel->select(job_of(4), f.offer(busy), 64);
    ASSERT_EQ(s.kind, K::Narrow) << s.why;
    EXPECT_EQ(f.chosen(s).count("n061"), 0U);
    EXPECT_EQ(f.chosen(s).count("n002"), 0U);
    // the counters the plugin logs: 3 calls, 2 record files read (n002 at open, n061 at the
    // third call; the second came too soon), the decision's own time
    const auto& stats = f.sel->stats();
    EXPECT_EQ(stats.calls, 3U);
    EXPECT_EQ(stats.narrowed, 3U);
    EXPECT_EQ(stats.health_reads, 2U);
    EXPECT_GT(stats.select_ns, 0U);
    EXPECT_GE(stats.select_ns, stats.select_max_ns);
    EXPECT_GT(stats.select_max_ns, 0U);
    // a store whose directory did not change is not read again (one stat(), and the lstat()
    // round of its records for one edited in place), however long after
    t += std::chrono::milliseconds(1100);
    (void)f.sel->select(job_of(4), f.offer(busy), 64);
    EXPECT_EQ(stats.health_reads, 2U);
    t += std::chrono::seconds(10);
    (void)f.sel->select(job_of(4), f.offer(busy), 64);
    EXPECT_EQ(stats.health_reads, 2U);
    // a record cleared: seen at the next interval (a listing, no record read), the host may be
    // chosen again
    ASSERT_TRUE(st->remove("n061"));
    t += std::chrono::milliseconds(1100);
    s = f.sel->select(job_of(4), f.offer(busy), 64);
    ASSERT_EQ(s.kind, K::Narrow) << s.why;
    EXPECT_EQ(f.chosen(s).count("n061"), 1U);
    EXPECT_EQ(stats.health_reads, 2U);
}

// Backfill holds healthy idle nodes for higher-priority jobs and offers a job what is left:
// when that is a degraded host and little else, the job is held (it waits, as for nodes it
// lacks) while enough healthy idle nodes of its partition are free, up to degraded_wait.
TEST(Selector, AMultiNodeJobIsHeldOffDegradedHostsWhileHealthyOnesAreFree) {
    const std::string store = tmpdir() + "/health-hold";
    auto st = health::Store::open(store, {.trusted_uid = ::getuid(), .create = true});
    ASSERT_TRUE(st) << st.error().to_string();
    for (const char* n : {"n006", "n023"}) ASSERT_TRUE(st->put(degraded_record(n, "straggler")));
    SelectorConfig cfg;
    cfg.health = store;
    cfg.degraded_wait_s = 60;
    cfg.withheld_wait_s = 0;  // this test is the degraded hold's (withheld_wait: the next one)
    Fixture f(lab_names(), cfg);
    auto t = Selector::Clock::time_point{};
    f.sel->set_clock_for_test([&] { return t; });
    EXPECT_TRUE(f.sel->wants_idle_elsewhere());  // the store is read at open
    const auto nbits = static_cast<std::uint32_t>(f.names.size());
    // a job of partition gpu offered every node: the partition's nodes are learned
    auto first = job_of(1);
    first.job_id = 1;
    first.partition = "gpu";
    ASSERT_EQ(f.sel->select(first, f.offer({}), nbits).kind, K::Narrow);
    EXPECT_TRUE(f.sel->wants_idle_elsewhere());
    // job 7 (2 nodes) offered n006, n023, n030; n040-n043 idle but held for another job
    std::set<std::string> not_offered(f.names.begin(), f.names.end());
    for (const char* n : {"n006", "n023", "n030"}) not_offered.erase(n);
    const auto off = f.offer(not_offered);
    std::set<std::string> not_held(f.names.begin(), f.names.end());
    for (const char* n : {"n040", "n041", "n042", "n043"}) not_held.erase(n);
    const auto held = f.offer(not_held);
    auto j = job_of(2);
    j.partition = "gpu";
    j.idle_elsewhere = held;
    auto s = f.sel->select(j, off, nbits);
    EXPECT_EQ(s.kind, K::Hold) << s.why;
    EXPECT_TRUE(s.nodes.empty());
    s = f.sel->select(j, off, nbits);  // the same offer again (the memo): held again
    EXPECT_EQ(s.kind, K::Hold) << s.why;
    EXPECT_EQ(f.sel->stats().held, 2U);
    // what the hold needs: nodes idle elsewhere known, in the job's partition, healthy
    auto unknown = j;
    unknown.idle_elsewhere = {};
    s = f.sel->select(unknown, off, nbits);
    ASSERT_EQ(s.kind, K::Narrow) << s.why;
    EXPECT_EQ(f.chosen(s).count("n030"), 1U);
    EXPECT_EQ(s.nodes.size(), 2U);
    auto other = j;
    other.job_id = 8;
    other.partition = "cpu";  // never offered n040-n043: not its partition's
    EXPECT_EQ(f.sel->select(other, off, nbits).kind, K::Narrow);
    std::set<std::string> not_sick(f.names.begin(), f.names.end());
    not_sick.erase("n006");
    auto sick = j;
    sick.job_id = 9;
    const auto sick_idle = f.offer(not_sick);  // a span's words must outlive the call
    sick.idle_elsewhere = sick_idle;           // only a degraded host idle elsewhere: 1 healthy of 2
    std::set<std::string> all_but(f.names.begin(), f.names.end());
    for (const char* n : {"n023", "n030"}) all_but.erase(n);
    EXPECT_EQ(f.sel->select(sick, f.offer(all_but), nbits).kind, K::Narrow);
    // a single-node job takes a degraded host when that is all it is offered
    auto one = job_of(1);
    one.job_id = 10;
    one.partition = "gpu";
    one.idle_elsewhere = held;
    std::set<std::string> only_sick(f.names.begin(), f.names.end());
    only_sick.erase("n006");
    EXPECT_EQ(f.sel->select(one, f.offer(only_sick), nbits).kind, K::Narrow);
    // held for at most degraded_wait from the first hold: then the offer's best
    t += std::chrono::seconds(30);
    EXPECT_EQ(f.sel->select(j, off, nbits).kind, K::Hold);
    t += std::chrono::seconds(31);
    s = f.sel->select(j, off, nbits);
    ASSERT_EQ(s.kind, K::Narrow) << s.why;
    EXPECT_EQ(f.chosen(s).count("n030"), 1U);
    // a time limit bounds the hold by what the degraded host would cost: 1 min x (1.3 - 1) = 18 s
    auto limited = j;
    limited.job_id = 11;
    limited.time_limit_min = 1;
    EXPECT_EQ(f.sel->select(limited, off, nbits).kind, K::Hold);
    t += std::chrono::seconds(17);
    EXPECT_EQ(f.sel->select(limited, off, nbits).kind, K::Hold);
    t += std::chrono::seconds(2);
    EXPECT_EQ(f.sel->select(limited, off, nbits).kind, K::Narrow);
    // degraded_wait=0: never held
    cfg.degraded_wait_s = 0;
    Fixture g(lab_names(), cfg);
    (void)g.sel->select(first, g.offer({}), nbits);
    EXPECT_FALSE(g.sel->wants_idle_elsewhere());
    EXPECT_EQ(g.sel->select(j, off, nbits).kind, K::Narrow);
}

// A multi-node job about to start whose choice on the offer is beaten by a placement that
// also uses idle nodes of its partition Slurm withheld from it (backfill's reservations) is
// held, for at most its time limit x (S_offer / S_withheld - 1) and withheld_wait; never when
// the withheld nodes do no better, are another partition's, or the job only plans (look-ahead).
TEST(Selector, AJobBeatenByIdleNodesSlurmWithheldIsHeldForWhatTheyWouldSaveIt) {
    SelectorConfig cfg;
    cfg.withheld_wait_s = 60;
    Fixture f(lab_names(), cfg);
    auto t = Selector::Clock::time_point{};
    f.sel->set_clock_for_test([&] { return t; });
    EXPECT_TRUE(f.sel->wants_idle_elsewhere());  // no degraded host needed
    const auto nbits = static_cast<std::uint32_t>(f.names.size());
    auto first = job_of(1);  // a job of partition gpu offered every node: its nodes are learned
    first.job_id = 1;
    first.partition = "gpu";
    ASSERT_EQ(f.sel->select(first, f.offer({}), nbits).kind, K::Narrow);
    auto except = [&](std::initializer_list<const char*> keep) {
        std::set<std::string> out(f.names.begin(), f.names.end());
        for (const char* n : keep) out.erase(n);
        return f.offer(out);
    };
    // 4 nodes offered on two leaf groups of two pods (2 groups, 2 spines); leaf group n033-n036
    // (one group, one spine) idle but withheld for a job ahead
    const auto off = except({"n001", "n002", "n017", "n018"});
    const auto withheld = except({"n033", "n034", "n035", "n036"});
    auto j = job_of(4);
    j.partition = "gpu";
    j.idle_elsewhere = withheld;
    auto s = f.sel->select(j, off, nbits);
    EXPECT_EQ(s.kind, K::Hold) << s.why;
    EXPECT_TRUE(s.withheld);
    EXPECT_TRUE(s.nodes.empty());
    s = f.sel->select(j, off, nbits);  // the same offer again (the memo): held again
    EXPECT_EQ(s.kind, K::Hold) << s.why;
    EXPECT_EQ(f.sel->stats().held_withheld, 2U);
    EXPECT_EQ(f.sel->stats().held, 0U);
    EXPECT_EQ(f.sel->stats().withheld_calls, 1U);  // weighed once: the memo answered the second call
    EXPECT_EQ(f.sel->stats().lookahead_calls, 0U);
    // nothing withheld known, another partition's nodes, a look-ahead call: the offer's best
    auto unknown = j;
    unknown.job_id = 8;
    unknown.idle_elsewhere = {};
    s = f.sel->select(unknown, off, nbits);
    ASSERT_EQ(s.kind, K::Narrow) << s.why;
    EXPECT_EQ(f.chosen(s), (std::set<std::string>{"n001", "n002", "n017", "n018"}));
    auto other = j;
    other.job_id = 9;
    other.partition = "cpu";  // never offered n033-n036
    EXPECT_EQ(f.sel->select(other, off, nbits).kind, K::Narrow);
    auto ahead = j;
    ahead.job_id = 10;
    const auto busy = except({"n017"});  // offered but running a job now: backfill plans
    ahead.busy = busy;
    EXPECT_EQ(f.sel->select(ahead, off, nbits).kind, K::Narrow);
    // withheld nodes that do no better (n003: still two groups under two spines)
    auto same = j;
    same.job_id = 11;
    const auto one_more = except({"n003"});
    same.idle_elsewhere = one_more;
    EXPECT_EQ(f.sel->select(same, off, nbits).kind, K::Narrow);
    // a single-node job is never held
    auto single = job_of(1);
    single.job_id = 12;
    single.partition = "gpu";
    single.idle_elsewhere = withheld;
    EXPECT_EQ(f.sel->select(single, off, nbits).kind, K::Narrow);
    // held for at most withheld_wait from its first hold, then the offer's best
    t += std::chrono::seconds(59);
    EXPECT_EQ(f.sel->select(j, off, nbits).kind, K::Hold);
    t += std::chrono::seconds(2);
    s = f.sel->select(j, off, nbits);
    ASSERT_EQ(s.kind, K::Narrow) << s.why;
    EXPECT_EQ(f.groups(s).size(), 2U);
    // a time limit bounds it by what the offer's choice costs against the withheld one
    placement::Placer placer(*lab());
    const placement::ClusterState idle(*lab());
    auto hosts = [&](std::initializer_list<const char*> names) {
        std::vector<HostId> v;
        for (const char* n : names) v.push_back(*lab()->find_host(n));
        return v;
    };
    const double s_offer = placer.predicted_slowdown(idle, hosts({"n001", "n002", "n017", "n018"}));
    const double s_withheld = placer.predicted_slowdown(idle, hosts({"n033", "n034", "n035", "n036"}));
    ASSERT_GT(s_offer, s_withheld);
    const double bound = 60.0 * 2 * (s_offer / s_withheld - 1.0);  // a 2-minute limit
    ASSERT_LT(bound, 59.0);
    auto limited = j;
    limited.job_id = 13;
    limited.time_limit_min = 2;
    EXPECT_EQ(f.sel->select(limited, off, nbits).kind, K::Hold);
    t += std::chrono::duration_cast<Selector::Clock::duration>(std::chrono::duration<double>(bound * 0.9));
    EXPECT_EQ(f.sel->select(limited, off, nbits).kind, K::Hold);
    t += std::chrono::duration_cast<Selector::Clock::duration>(std::chrono::duration<double>(bound * 0.2));
    EXPECT_EQ(f.sel->select(limited, off, nbits).kind, K::Narrow);
    // new withheld nodes decide again (the memo keys on them): none withheld now
    auto fresh = j;
    fresh.job_id = 14;
    EXPECT_EQ(f.sel->select(fresh, off, nbits).kind, K::Hold);
    const auto nothing = except({});
    fresh.idle_elsewhere = nothing;
    EXPECT_EQ(f.sel->select(fresh, off, nbits).kind, K::Narrow);
    // withheld_wait=0: never held, and nothing gathered for it
    cfg.withheld_wait_s = 0;
    Fixture g(lab_names(), cfg);
    (void)g.sel->select(first, g.offer({}), nbits);
    EXPECT_FALSE(g.sel->wants_idle_elsewhere());
    EXPECT_EQ(g.sel->select(j, off, nbits).kind, K::Narrow);
}

// Slurm evaluates a pending job on the same offer at every main and backfill cycle: the same
// job on the same offer gets its last decision without a new one; another offer, another
// request or new health flags decide again.
TEST(Selector, TheSameJobOnTheSameOfferGetsItsLastDecision) {
    const std::string store = tmpdir() + "/health-memo";
    auto st = health::Store::open(store, {.trusted_uid = ::getuid(), .create = true});
    ASSERT_TRUE(st) << st.error().to_string();
    SelectorConfig cfg;
    cfg.health = store;
    Fixture f(lab_names(), cfg);
    auto t = Selector::Clock::time_point{};
    f.sel->set_clock_for_test([&] { return t; });
    const std::set<std::string> busy{"n005", "n009"};
    auto a = f.sel->select(job_of(4), f.offer(busy), 64);
    ASSERT_EQ(a.kind, K::Narrow) << a.why;
    auto b = f.sel->select(job_of(4), f.offer(busy), 64);
    EXPECT_EQ(f.sel->stats().repeats, 1U);
    EXPECT_EQ(b.kind, a.kind);
    EXPECT_EQ(b.nodes, a.nodes);
    EXPECT_EQ(f.sel->stats().narrowed, 2U);
    // another offer: decided anew (the chosen hosts taken away, others chosen)
    std::set<std::string> busy2 = busy;
    for (const auto& h : f.chosen(a)) busy2.insert(h);
    auto c = f.sel->select(job_of(4), f.offer(busy2), 64);
    EXPECT_EQ(f.sel->stats().repeats, 1U);
    ASSERT_EQ(c.kind, K::Narrow);
    EXPECT_NE(c.nodes, a.nodes);
    // another job id or size on that offer: decided anew
    auto other = job_of(4);
    other.job_id += 1;
    (void)f.sel->select(other, f.offer(busy2), 64);
    (void)f.sel->select(job_of(2), f.offer(busy2), 64);
    EXPECT_EQ(f.sel->stats().repeats, 1U);
    // the chosen host flagged unhealthy: after the store's next read the same job on the same
    // offer is decided again, off that host
    const std::string sick = *f.chosen(c).begin();
    health::Record r;
    r.node = sick;
    r.verdict = health::Verdict::Unhealthy;
    r.reason = "xid 79";
    ASSERT_TRUE(st->put(r));
    t += std::chrono::milliseconds(1100);
    auto d = f.sel->select(job_of(4), f.offer(busy2), 64);
    EXPECT_EQ(f.sel->stats().repeats, 1U);
    ASSERT_EQ(d.kind, K::Narrow);
    EXPECT_EQ(f.chosen(d).count(sick), 0U);
    auto e = f.sel->select(job_of(4), f.offer(busy2), 64);
    EXPECT_EQ(f.sel->stats().repeats, 2U);
    EXPECT_EQ(e.nodes, d.nodes);
    // the same job with other --topo options (its SPANK environment) on that offer: decided anew
    auto spread = job_of(4);
    const std::vector<std::string> env = {"SPANK_TOPOPLACE_MODE=spread"};
    spread.env = {env[0]};
    const auto g = f.sel->select(spread, f.offer(busy2), 64);
    ASSERT_EQ(g.kind, K::Narrow) << g.why;
    EXPECT_EQ(f.sel->stats().repeats, 2U);
    EXPECT_NE(g.nodes, d.nodes);
    // and back to its first options: decided anew again (one decision remembered per job)
    EXPECT_EQ(f.sel->select(job_of(4), f.offer(busy2), 64).nodes, d.nodes);
    EXPECT_EQ(f.sel->stats().repeats, 2U);
}

// Backfill's look-ahead (will-run) offers nodes that run a job now and free up before the job
// can start; the nodes it reserves are held from jobs that could start now. Among placements
// as good, the Selector takes the busy ones (Slurm's own eval_nodes takes nodes already running
// a job before idle ones); it never takes a worse placement for it.
TEST(Selector, LookAheadReservesNodesBusyNowAndLeavesIdleOnesToBackfill) {
    SelectorConfig cfg;
    cfg.lookahead = SelectorConfig::LookAhead::Busy;
    Fixture f(lab_names(), cfg);
    auto is_running = [](const std::set<int>& which, int n) {
        return which.contains(n) || (which.contains(-1) && n >= 33);  // -1: n033-n064
    };
    auto running = [&](const std::set<int>& which) {  // these run a job now (and are offered)
        std::vector<std::uint64_t> w((f.names.size() + 63) / 64, 0);
        for (std::size_t i = 0; i < f.names.size(); ++i)
            if (is_running(which, std::stoi(f.names[i].substr(1)))) w[i / 64] |= 1ULL << (i % 64);
        return w;
    };
    auto idle_chosen = [&](const Selection& s, const std::set<int>& which) {
        int k = 0;
        for (const auto& n : f.chosen(s)) k += is_running(which, std::stoi(n.substr(1))) ? 0 : 1;
        return k;
    };
    const auto all = f.offer({});
    // without the flags: the first groups of the fabric
    auto plain = f.sel->select(job_of(8), all, 64);
    ASSERT_EQ(plain.kind, K::Narrow) << plain.why;
    ASSERT_GT(idle_chosen(plain, {-1}), 0) << "the test needs a placement that takes idle nodes first";
    // n033-n064 busy now: as good a placement among them (two leaf groups under one spine)
    auto job = job_of(8);
    job.job_id = 8;
    const auto busy = running({-1});
    job.busy = busy;
    auto s = f.sel->select(job, all, 64);
    ASSERT_EQ(s.kind, K::Narrow) << s.why;
    EXPECT_EQ(idle_chosen(s, {-1}), 0) << s.why;
    EXPECT_EQ(f.groups(s).size(), f.groups(plain).size());
    EXPECT_NE(s.why.find("look-ahead"), std::string::npos) << s.why;
    EXPECT_EQ(f.sel->stats().lookahead_moved, 1U);
    // a busy set that is not the memo's: decided anew (the flags are part of the key)
    // n017, n018 and n021 busy now, too few for the job: their two leaf groups n017-n024 (one
    // spine: as good), with the three busy nodes
    const auto busy2 = running({17, 18, 21});
    job.busy = busy2;
    auto t = f.sel->select(job, all, 64);
    ASSERT_EQ(t.kind, K::Narrow) << t.why;
    EXPECT_EQ(f.sel->stats().repeats, 0U);
    EXPECT_EQ(f.groups(t).size(), 2U) << t.why;
    EXPECT_EQ(idle_chosen(t, {17, 18, 21}), 5) << t.why;
    for (const char* n : {"n017", "n018", "n021"}) EXPECT_EQ(f.chosen(t).count(n), 1U) << n << ": " << t.why;
    EXPECT_EQ(f.sel->stats().lookahead_moved, 2U);
    EXPECT_EQ(f.sel->stats().lookahead_calls, 2U);
    EXPECT_EQ(f.sel->stats().withheld_calls, 0U);
    EXPECT_LE(f.sel->stats().lookahead_ns + f.sel->stats().place_ns, f.sel->stats().select_ns);
}

// Where the busy nodes alone make a worse placement (one per leaf group), the placement stays
// as good and takes, inside its leaf groups, the busy node instead of an idle one (lookahead=
// busy and group); lookahead=off decides as on any offer, and `group` never moves the
// reservation to other leaf groups.
TEST(Selector, LookAheadSwapsInsideALeafGroupNeverForAWorsePlacement) {
    for (const auto mode :
         {SelectorConfig::LookAhead::Busy, SelectorConfig::LookAhead::Group, SelectorConfig::LookAhead::Off}) {
        SCOPED_TRACE(static_cast<int>(mode));
        SelectorConfig cfg;
        cfg.lookahead = mode;
        Fixture f(lab_names(), cfg);
        std::vector<std::uint64_t> busy((f.names.size() + 63) / 64, 0);
        std::set<std::string> running;
        for (std::size_t i = 0; i < f.names.size(); ++i) {
            const int n = std::stoi(f.names[i].substr(1));
            if (n % 4 == 0) {  // the last node of every group of 4 runs a job now
                busy[i / 64] |= 1ULL << (i % 64);
                running.insert(f.names[i]);
            }
        }
        auto job = job_of(3);
        job.busy = busy;
        auto s = f.sel->select(job, f.offer({}), 64);
        ASSERT_EQ(s.kind, K::Narrow) << s.why;
        EXPECT_EQ(f.groups(s).size(), 1U) << s.why;  // not three groups of busy nodes
        int on_busy = 0;
        for (const auto& n : f.chosen(s)) on_busy += running.contains(n) ? 1 : 0;
        EXPECT_EQ(on_busy, mode == SelectorConfig::LookAhead::Off ? 0 : 1) << s.why;
        EXPECT_EQ(s.why.find("same leaf group") != std::string::npos, mode != SelectorConfig::LookAhead::Off) << s.why;
        // 8 nodes with n033-n064 busy: `busy` moves to them, `group` keeps two idle groups
        std::vector<std::uint64_t> upper((f.names.size() + 63) / 64, 0);
        for (std::size_t i = 0; i < f.names.size(); ++i)
            if (std::stoi(f.names[i].substr(1)) >= 33) upper[i / 64] |= 1ULL << (i % 64);
        auto big = job_of(8);
        big.job_id = 9;
        big.busy = upper;
        auto b = f.sel->select(big, f.offer({}), 64);
        ASSERT_EQ(b.kind, K::Narrow) << b.why;
        int upper_chosen = 0;
        for (const auto& n : f.chosen(b)) upper_chosen += std::stoi(n.substr(1)) >= 33 ? 1 : 0;
        EXPECT_EQ(upper_chosen, mode == SelectorConfig::LookAhead::Busy ? 8 : 0) << b.why;
    }
}

// lookahead=holes: a reservation keeps off the idle nodes of part-used leaf groups (the holes
// that jobs backfill can start in now) when a wholly idle group serves it as well; `busy`
// keeps to the part-used group, where a node is busy now.
TEST(Selector, LookAheadHolesLeavesPartUsedGroupsToBackfill) {
    for (const auto mode : {SelectorConfig::LookAhead::Holes, SelectorConfig::LookAhead::Busy}) {
        SCOPED_TRACE(static_cast<int>(mode));
        SelectorConfig cfg;
        cfg.lookahead = mode;
        Fixture f(lab_names(), cfg);
        // offered: n001, n002 (idle), n003 (busy now); n009-n012 (idle); nothing else
        std::set<std::string> not_offered;
        for (const auto& n : f.names)
            if (n != "n001" && n != "n002" && n != "n003" && (n < "n009" || n > "n012")) not_offered.insert(n);
        std::vector<std::uint64_t> busy((f.names.size() + 63) / 64, 0);
        for (std::size_t i = 0; i < f.names.size(); ++i)
            if (f.names[i] == "n003") busy[i / 64] |= 1ULL << (i % 64);
        auto job = job_of(3);
        auto plain = f.sel->select(job, f.offer(not_offered), 64);  // the tightest group: n001-n003
        ASSERT_EQ(plain.kind, K::Narrow) << plain.why;
        EXPECT_EQ(f.chosen(plain), (std::set<std::string>{"n001", "n002", "n003"})) << plain.why;
        job.job_id = 11;
        job.busy = busy;
        auto s = f.sel->select(job, f.offer(not_offered), 64);
        ASSERT_EQ(s.kind, K::Narrow) << s.why;
        EXPECT_EQ(f.groups(s).size(), 1U) << s.why;
        if (mode == SelectorConfig::LookAhead::Holes) {
            for (const auto& n : f.chosen(s)) EXPECT_TRUE(n >= "n009" && n <= "n012") << n << ": " << s.why;
            EXPECT_NE(s.why.find("part-used"), std::string::npos) << s.why;
            EXPECT_EQ(f.sel->stats().lookahead_moved, 1U);
        } else {
            EXPECT_EQ(f.chosen(s), f.chosen(plain)) << s.why;
        }
    }
}

// lookahead=holes: a reservation that takes part of a wholly idle leaf group leaves the rest
// of it as holes (26.05 replay, seed 2: 2 of an idle group of 4 reserved, and the 3-node job
// behind it started across two groups). As good a placement that takes that group whole or
// not at all, on nodes busy now, is kept; `off` takes the group in part (the control).
TEST(Selector, LookAheadHolesTakesNoIdleGroupInPart) {
    // offered: one spine's four groups n017-n032, busy now but for one idle group: n021-n024
    // for a 6-node job, n025-n028 for a 10-node one (the group a first fit takes in part)
    auto name = [](int i) { return std::string(i < 10 ? "n00" : "n0") + std::to_string(i); };
    std::set<std::string> not_offered;
    for (int i = 1; i <= 64; ++i)
        if (i < 17 || i > 32) not_offered.insert(name(i));
    for (const auto mode : {SelectorConfig::LookAhead::Off, SelectorConfig::LookAhead::Holes}) {
        SCOPED_TRACE(static_cast<int>(mode));
        SelectorConfig cfg;
        cfg.lookahead = mode;
        Fixture f(lab_names(), cfg);
        for (const auto& [n, first_node] : {std::pair{6U, 21}, std::pair{10U, 25}}) {
            SCOPED_TRACE(n);
            const int first = first_node;  // a structured binding is not captured before C++20 in clang
            auto idle_group = [&](const std::string& h) { return h >= name(first) && h <= name(first + 3); };
            std::vector<std::uint64_t> busy((f.names.size() + 63) / 64, 0);
            for (std::size_t i = 0; i < f.names.size(); ++i)
                if (!not_offered.contains(f.names[i]) && !idle_group(f.names[i])) busy[i / 64] |= 1ULL << (i % 64);
            auto job = job_of(n);
            job.job_id = 20 + n;
            job.busy = busy;
            auto s = f.sel->select(job, f.offer(not_offered), 64);
            ASSERT_EQ(s.kind, K::Narrow) << s.why;
            int in_idle = 0;
            for (const auto& h : f.chosen(s)) in_idle += idle_group(h) ? 1 : 0;
            EXPECT_EQ(f.groups(s).size(), (n + 3) / 4) << s.why;
            if (mode == SelectorConfig::LookAhead::Off) {
                EXPECT_TRUE(in_idle > 0 && in_idle < 4) << "the control must split the idle group: " << s.why;
            } else {
                EXPECT_TRUE(in_idle == 0 || in_idle == 4) << in_idle << " of the idle group: " << s.why;
                EXPECT_NE(s.why.find("no idle leaf group taken in part"), std::string::npos) << s.why;
            }
        }
    }
}

// The look-ahead keeps a state of its own from call to call and changes only the hosts whose
// offer differs from its last one (spare_idle). Every decision of a long run of nearly equal
// offers (as in a scheduler pass), with health flags changing in between, must be the one a
// selector makes on that call with no look-ahead state before it; in node-table order and
// shuffled, both modes.
TEST(Selector, LookAheadsKeptStateDecidesAsAFreshSelectorWould) {
    const std::string store = tmpdir() + "/health-ahead";
    auto st = health::Store::open(store, {.trusted_uid = ::getuid(), .create = true});
    ASSERT_TRUE(st) << st.error().to_string();
    for (const bool shuffled : {false, true}) {
        for (const auto mode : {SelectorConfig::LookAhead::Holes, SelectorConfig::LookAhead::Busy}) {
            SCOPED_TRACE(std::string(shuffled ? "shuffled" : "numbered") + " mode "
                         + std::to_string(static_cast<int>(mode)));
            for (const auto& h : lab()->hosts()) (void)st->remove(h.name);
            auto order = lab_names();
            std::mt19937 rng(shuffled ? 5 : 3);
            if (shuffled) std::shuffle(order.begin(), order.end(), rng);
            SelectorConfig cfg;
            cfg.lookahead = mode;
            cfg.health = store;
            Fixture kept(order, cfg);
            Fixture fresh(order, cfg);
            auto t = Selector::Clock::time_point{};
            kept.sel->set_clock_for_test([&] { return t; });
            fresh.sel->set_clock_for_test([&] { return t; });
            const std::vector<std::string_view> table(fresh.names.begin(), fresh.names.end());
            const std::size_t n = order.size();
            std::vector<std::uint64_t> offer((n + 63) / 64, 0);
            std::vector<std::uint64_t> busy((n + 63) / 64, 0);
            for (std::size_t i = 0; i < n; ++i) {
                if (rng() % 10 < 5) offer[i / 64] |= 1ULL << (i % 64);
                if (rng() % 3 == 0) busy[i / 64] |= 1ULL << (i % 64);
            }
            for (int call = 0; call < 150; ++call) {
                for (int k = 0; k < 3; ++k) {  // a few hosts freed or taken since the last call
                    const std::size_t i = rng() % n;
                    offer[i / 64] ^= 1ULL << (i % 64);
                }
                if (call % 50 == 25) {  // the health store changes: other hosts degraded and unhealthy
                    for (const auto& h : lab()->hosts()) (void)st->remove(h.name);
                    for (int k = 0; k < 12; ++k) {
                        health::Record r;
                        r.node = order[rng() % n];
                        r.verdict = k < 4 ? health::Verdict::Degraded : health::Verdict::Unhealthy;
                        r.reason = k < 4 ? "port at half rate" : "xid 79";
                        if (k < 4) r.slowdown = 1.3;
                        ASSERT_TRUE(st->put(r));
                    }
                    t += std::chrono::seconds(2);
                }
                SelectorJob j = job_of(1 + static_cast<std::uint32_t>(rng() % 12));
                j.job_id = static_cast<std::uint32_t>(100 + call);
                std::vector<std::uint64_t> ahead(offer.size());
                std::vector<std::uint64_t> b(offer.size());
                for (std::size_t w = 0; w < offer.size(); ++w) {
                    b[w] = busy[w] & ~offer[w];
                    ahead[w] = offer[w] | b[w];
                }
                j.busy = b;
                const auto s = kept.sel->select(j, ahead, static_cast<std::uint32_t>(n));
                // the decision with no history: a new selector for the calls after a health
                // change, else one whose node table is set again (its decisions forgotten, its
                // look-ahead state copied again from its own)
                std::optional<Fixture> anew;
                if (call % 50 >= 25 && call % 50 < 30) {
                    anew.emplace(order, cfg);
                    anew->sel->set_clock_for_test([&] { return t; });
                } else {
                    (void)fresh.sel->set_nodes(table);
                }
                const auto o = (anew ? *anew : fresh).sel->select(j, ahead, static_cast<std::uint32_t>(n));
                ASSERT_EQ(s.kind, o.kind) << "call " << call << ": " << s.why << " | fresh: " << o.why;
                ASSERT_EQ(s.nodes, o.nodes) << "call " << call << ": " << s.why << " | fresh: " << o.why;
            }
            EXPECT_GT(kept.sel->stats().lookahead_moved, 0U);  // the run did exercise the look-ahead's moves
        }
    }
}

TEST(SelectorConfig, ParsesAndNamesTheLineOfAnError) {
    auto c = parse_selector_config("# comment\nsnapshot = /etc/slurm/x.json\npolicy=topo\ndefault=off\n", "f.conf",
                                   "/etc/slurm");
    ASSERT_TRUE(c) << c.error().to_string();
    EXPECT_EQ(c->snapshot, "/etc/slurm/x.json");
    EXPECT_EQ(c->policy, placement::Policy::Topo);
    EXPECT_EQ(c->default_mode, Mode::Off);
    auto d = parse_selector_config("", "f.conf", "/etc/slurm");
    ASSERT_TRUE(d);
    EXPECT_EQ(d->snapshot, "/etc/slurm/topoplace.json");
    EXPECT_EQ(d->policy, placement::Policy::Cost);
    EXPECT_EQ(d->default_mode, Mode::Pack);
    auto e = parse_selector_config("policy=cost\n\npolcy=topo\n", "f.conf", "/etc/slurm");
    ASSERT_FALSE(e);
    EXPECT_NE(e.error().to_string().find("f.conf:3: unknown key 'polcy'"), std::string::npos) << e.error().to_string();
    EXPECT_FALSE(parse_selector_config("snapshot=relative.json", "f", "/e"));
    EXPECT_FALSE(parse_selector_config("policy=cost\npolicy=topo", "f", "/e"));
    EXPECT_FALSE(parse_selector_config("just words", "f", "/e"));
    EXPECT_EQ(d->stats_interval_s, 300);
    auto si = parse_selector_config("stats_interval=0\n", "f", "/e");
    ASSERT_TRUE(si);
    EXPECT_EQ(si->stats_interval_s, 0);
    EXPECT_FALSE(parse_selector_config("stats_interval=-1", "f", "/e"));
    EXPECT_FALSE(parse_selector_config("stats_interval=86401", "f", "/e"));
    EXPECT_FALSE(parse_selector_config("stats_interval=5s", "f", "/e"));
    EXPECT_FALSE(d->trace);
    auto tr = parse_selector_config("trace=yes\n", "f", "/e");
    ASSERT_TRUE(tr);
    EXPECT_TRUE(tr->trace);
    EXPECT_EQ(d->lookahead, SelectorConfig::LookAhead::Holes);
    auto la = parse_selector_config("lookahead=group\n", "f", "/e");
    ASSERT_TRUE(la) << la.error().to_string();
    EXPECT_EQ(la->lookahead, SelectorConfig::LookAhead::Group);
    auto lb = parse_selector_config("\nlookahead=maybe\n", "g.conf", "/e");
    ASSERT_FALSE(lb);
    EXPECT_NE(lb.error().to_string().find("g.conf:2: lookahead=maybe: expected busy, holes, group or off"),
              std::string::npos)
        << lb.error().to_string();
    EXPECT_EQ(d->degraded_wait_s, 600);
    auto dw = parse_selector_config("degraded_wait=0\n", "f", "/e");
    ASSERT_TRUE(dw) << dw.error().to_string();
    EXPECT_EQ(dw->degraded_wait_s, 0);
    auto dx = parse_selector_config("degraded_wait=10m\n", "h.conf", "/e");
    ASSERT_FALSE(dx);
    EXPECT_NE(dx.error().to_string().find("h.conf:1: degraded_wait: seconds 0..86400"), std::string::npos)
        << dx.error().to_string();
    EXPECT_EQ(d->withheld_wait_s, 600);
    auto ww = parse_selector_config("withheld_wait=30\n", "f", "/e");
    ASSERT_TRUE(ww) << ww.error().to_string();
    EXPECT_EQ(ww->withheld_wait_s, 30);
    auto wx = parse_selector_config("\n\nwithheld_wait=-1\n", "w.conf", "/e");
    ASSERT_FALSE(wx);
    EXPECT_NE(wx.error().to_string().find("w.conf:3: withheld_wait: seconds 0..86400"), std::string::npos)
        << wx.error().to_string();
    auto tb = parse_selector_config("policy=cost\ntrace=1\n", "f.conf", "/e");
    ASSERT_FALSE(tb);
    EXPECT_NE(tb.error().to_string().find("f.conf:2: trace=1: expected yes or no"), std::string::npos)
        << tb.error().to_string();
}

TEST(TpSelect, FailuresAreReturnedNotThrown) {
    char msg[512];
    const std::string conf = tmpdir() + "/missing-snapshot.conf";
    std::ofstream(conf) << "snapshot=" << tmpdir() << "/nope.json\n";
    EXPECT_EQ(tps_open(conf.c_str(), tmpdir().c_str(), msg, sizeof msg), nullptr);
    EXPECT_NE(std::string(msg).find("nope.json"), std::string::npos) << msg;

    const std::string corrupt = tmpdir() + "/corrupt.json";
    std::ofstream(corrupt) << R"({"schema": "topoplace.snapshot", "version": 2, "hosts": [)";
    const std::string conf2 = tmpdir() + "/corrupt.conf";
    std::ofstream(conf2) << "snapshot=" << corrupt << "\n";
    EXPECT_EQ(tps_open(conf2.c_str(), tmpdir().c_str(), msg, sizeof msg), nullptr);
    EXPECT_NE(std::string(msg).find("corrupt.json"), std::string::npos) << msg;

    const std::string bad = tmpdir() + "/bad.conf";
    std::ofstream(bad) << "policy=fastest\n";
    EXPECT_EQ(tps_open(bad.c_str(), tmpdir().c_str(), msg, sizeof msg), nullptr);
    EXPECT_NE(std::string(msg).find("bad.conf:1"), std::string::npos) << msg;

    std::uint64_t w[2] = {0, 0};
    tps_job_t j{};
    EXPECT_EQ(tps_select(nullptr, &j, w, 64, w, msg, sizeof msg), TPS_ERROR);
}

TEST(TpSelect, ASnapshotOfAnotherClusterIsRefusedAndMissingSlurmNodesAreSaid) {
    char msg[512];
    const std::string conf = tmpdir() + "/ok.conf";
    std::ofstream(conf) << "snapshot=" << lab_snapshot() << "\n";
    tps* s = tps_open(conf.c_str(), tmpdir().c_str(), msg, sizeof msg);
    ASSERT_NE(s, nullptr) << msg;
    // slurm.conf defines only n001..n032: half the snapshot is not this cluster
    std::vector<std::string> half;
    half.reserve(32);
    for (int i = 1; i <= 32; ++i) half.push_back("n" + std::string(i < 10 ? "00" : "0") + std::to_string(i));
    std::vector<const char*> p;
    p.reserve(half.size());
    for (auto& n : half) p.push_back(n.c_str());
    EXPECT_EQ(tps_set_nodes(s, p.data(), static_cast<std::uint32_t>(p.size()), msg, sizeof msg), -1);
    EXPECT_NE(std::string(msg).find("not this cluster's"), std::string::npos) << msg;
    // all of it plus two login nodes Slurm also runs jobs on: usable, said once
    auto all = lab_names();
    all.emplace_back("login1");
    all.emplace_back("login2");
    p.clear();
    for (auto& n : all) p.push_back(n.c_str());
    p.push_back(nullptr);  // a hole in the node table
    EXPECT_EQ(tps_set_nodes(s, p.data(), static_cast<std::uint32_t>(p.size()), msg, sizeof msg), 0);
    EXPECT_NE(std::string(msg).find("2 nodes of slurm.conf are not in the snapshot"), std::string::npos) << msg;

    std::vector<std::uint64_t> offered(2, 0);
    std::vector<std::uint64_t> chosen(2, 0);
    for (std::size_t i = 0; i < all.size(); ++i) offered[i / 64] |= 1ULL << (i % 64);
    tps_job_t j{};
    j.job_id = 3;
    j.min_nodes = j.req_nodes = j.max_nodes = 4;
    EXPECT_EQ(tps_select(s, &j, offered.data(), static_cast<std::uint32_t>(p.size()), chosen.data(), msg, sizeof msg),
              TPS_NARROW);
    EXPECT_EQ(__builtin_popcountll(chosen[0]) + __builtin_popcountll(chosen[1]), 4);
    EXPECT_EQ(chosen[1], 0U);  // never a login node, never the hole

    // an invalid option: said the first time only
    std::string e = "TOPOPLACE_SEGMENT=0";
    char* env[] = {e.data()};
    j.env = env;
    j.env_size = 1;
    EXPECT_EQ(tps_select(s, &j, offered.data(), 67, chosen.data(), msg, sizeof msg), TPS_PASS);
    EXPECT_NE(std::string(msg).find("logged once"), std::string::npos) << msg;
    EXPECT_EQ(tps_select(s, &j, offered.data(), 67, chosen.data(), msg, sizeof msg), TPS_PASS);
    EXPECT_STREQ(msg, "");
    tps_summary(s, msg, sizeof msg);
    EXPECT_NE(
        std::string(msg).find("3 calls, 1 narrowed, 2 left to Slurm, 0 repeated (the last decision for the job on "
                              "the same offer), 0 look-ahead decisions moved to leave idle nodes to backfill, 0 held "
                              "off degraded hosts, 0 held for withheld nodes, 0 health records read; decision "),
        std::string::npos)
        << msg;
    EXPECT_NE(std::string(msg).find(" us in all (mean "), std::string::npos) << msg;
    EXPECT_NE(std::string(msg).find(" us in 0 calls, withheld nodes weighed "), std::string::npos) << msg;
    EXPECT_EQ(tps_stats_interval(s), 300);
    EXPECT_EQ(tps_stats_interval(nullptr), 0);
    tps_close(s);
}

}  // namespace

namespace {

// decide=start: what the SPANK plugin hands the job record instead of a plan is exactly what
// topology/topoplace reads back (same mode and options), and carries nothing of a plan.
TEST(DecideAtStart, PlugstackKeyAndTheTopologyPluginLine) {
    EXPECT_EQ(parse_config({})->decide, DecideAt::Auto);
    EXPECT_EQ(parse_config({"decide=start"})->decide, DecideAt::Start);
    EXPECT_EQ(parse_config({"decide=submit"})->decide, DecideAt::Submit);
    auto bad = parse_config({"decide=later"});
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().to_string().find("expected auto, submit or start"), std::string::npos);
    // auto follows slurm.conf's TopologyPlugin; unknown (nullptr) stays at submission
    EXPECT_TRUE(decides_at_start(DecideAt::Auto, "topology/topoplace"));
    EXPECT_FALSE(decides_at_start(DecideAt::Auto, "topology/tree"));
    EXPECT_FALSE(decides_at_start(DecideAt::Auto, "topology/topoplacex"));
    EXPECT_FALSE(decides_at_start(DecideAt::Auto, nullptr));
    EXPECT_TRUE(decides_at_start(DecideAt::Start, nullptr));
    EXPECT_FALSE(decides_at_start(DecideAt::Submit, "topology/topoplace"));
}

TEST(DecideAtStart, StartEnvRoundTripsThroughTheSelector) {
    Options o;
    o.max_tier = 2;
    o.nvl = true;
    o.segment = 4;
    const auto env = start_env(Mode::Pack, o);
    std::vector<std::string> kv;
    for (const auto& [k, v] : env) {
        EXPECT_NE(k, "TOPOPLACE_CONSTRAINT");
        EXPECT_NE(k, "TOPOPLACE_SWITCHES");
        EXPECT_NE(k, "TOPOPLACE_EXCLUDE");
        if (v.empty()) continue;
        std::string e = "SPANK_";  // as Slurm stores spank_job_env
        e += k;
        e += '=';
        e += v;
        kv.push_back(std::move(e));
    }
    std::vector<std::string_view> views(kv.begin(), kv.end());
    auto back = options_from_env(views);
    ASSERT_TRUE(back) << back.error().to_string();
    EXPECT_EQ(back->mode, Mode::Pack);
    EXPECT_EQ(back->max_tier, 2);
    EXPECT_TRUE(back->nvl);
    EXPECT_EQ(back->segment, 4);
    // --topo=off reaches the controller as off, so its default= does not place the job
    auto off = start_env(Mode::Off, Options{});
    ASSERT_FALSE(off.empty());
    EXPECT_EQ(off.front(), std::make_pair(std::string("TOPOPLACE_MODE"), std::string("off")));
    for (const auto& [k, v] : off) {
        if (k != "TOPOPLACE_MODE" && k != "TOPOPLACE_DECIDE") {
            EXPECT_TRUE(v.empty()) << k;
        }
    }
}

}  // namespace

namespace {

std::int64_t wall_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// The running jobs' uplinks (issue 31 item 1): topoplace-nodefeed's feed carries each leaf
// group's running multi-group jobs; the selector takes them into its state at most once per
// interval, and drops them (said once) when the feed is missing or too old.
TEST(Selector, RunningJobsUplinksComeFromTheFeed) {
    const std::string feed = tmpdir() + "/nodes.bin";
    const std::string store = tmpdir() + "/health-feedtest";
    placement::ClusterState fed(*lab());
    fed.add_uplink_users(GroupId(0), 2, 1);
    fed.add_uplink_users(GroupId(3), 1, 0);
    ASSERT_TRUE(write_state_feed(feed, *lab(), fed, wall_ns()));
    SelectorConfig cfg;
    cfg.state_feed = feed;
    cfg.state_feed_owner = ::getuid();
    Fixture f(lab_names(), cfg);
    auto t = Selector::Clock::time_point{};
    f.sel->set_clock_for_test([&] { return t; });
    auto s = f.sel->select(job_of(2), f.offer({}), 64);
    EXPECT_TRUE(s.problem.empty()) << s.problem;
    EXPECT_EQ(f.sel->uplink_users(GroupId(0)).spanning, 2);
    EXPECT_EQ(f.sel->uplink_users(GroupId(0)).multi_pod, 1);
    EXPECT_EQ(f.sel->uplink_users(GroupId(3)).spanning, 1);
    // the jobs end: not seen before the interval, then gone
    ASSERT_TRUE(write_state_feed(feed, *lab(), placement::ClusterState(*lab()), wall_ns()));
    t += std::chrono::milliseconds(500);
    (void)f.sel->select(job_of(2), f.offer({}), 64);
    EXPECT_EQ(f.sel->uplink_users(GroupId(0)).spanning, 2);
    t += std::chrono::milliseconds(600);
    (void)f.sel->select(job_of(2), f.offer({}), 64);
    EXPECT_EQ(f.sel->uplink_users(GroupId(0)).spanning, 0);
    EXPECT_EQ(f.sel->uplink_users(GroupId(3)).spanning, 0);
    // a feed that stopped (its last slurmctld read a minute ago): its counts are not used
    ASSERT_TRUE(write_state_feed(feed, *lab(), fed, wall_ns() - 60'000'000'000LL));
    t += std::chrono::milliseconds(1100);
    s = f.sel->select(job_of(2), f.offer({}), 64);
    EXPECT_EQ(s.problem_key, "feed");
    EXPECT_NE(s.problem.find("not used"), std::string::npos) << s.problem;
    EXPECT_EQ(f.sel->uplink_users(GroupId(0)).spanning, 0);
    EXPECT_EQ(s.kind, K::Narrow) << "the job is still placed";
}

TEST(Selector, TwoProblemsInOneCallAreBothSaid) {
    SelectorConfig cfg;
    cfg.health = tmpdir() + "/not-a-store";  // a file where the store's directory should be
    std::ofstream(cfg.health) << "x\n";
    cfg.state_feed = tmpdir() + "/no-such-feed";
    Fixture f(lab_names(), cfg);
    auto a = f.sel->select(job_of(2), f.offer({}), 64);
    auto b = f.sel->select(job_of(2), f.offer({}), 64);
    EXPECT_EQ(a.problem_key, "health");
    EXPECT_EQ(b.problem_key, "feed") << b.problem;
}

}  // namespace
