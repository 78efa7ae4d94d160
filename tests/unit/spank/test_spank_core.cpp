// SPDX-License-Identifier: Apache-2.0
// The Slurm-free logic of the SPANK plugin (spank/core/core.hpp) on the lab fabric
// (tests/fixtures/lab: 4 leaves x 4 hosts, 2 HCAs each, 8 GPUs with GPU0-3 next to mlx5_0
// and GPU4-7 next to mlx5_1).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <topo/builder.hpp>
#include <topo/health/store.hpp>
#include <topo/ib_fabric.hpp>
#include <topo/nvidia_smi_topo.hpp>
#include <topo/placement/place.hpp>

#include "core.hpp"
#include <sys/stat.h>
#include <unistd.h>

namespace {

using namespace topo;
using namespace topo::spank;

const TopologyPtr& lab() {
    static TopologyPtr t = [] {
        const std::string dir = std::string(TOPO_FIXTURES) + "/lab/";
        auto fabric = read_ibnetdiscover_file(dir + "lab-4x4.ibnetdiscover.txt");
        EXPECT_TRUE(fabric) << fabric.error().to_string();
        TopologyBuilder b;
        auto st = import_ib_fabric(*fabric, {}, b);
        EXPECT_TRUE(st) << st.error().to_string();
        auto node = read_nvidia_smi_topo_file(dir + "lab-8gpu-2nic.topo-m.txt");
        EXPECT_TRUE(node) << node.error().to_string();
        for (const auto& h : b.host_names()) b.apply_node_description(h, *node);
        auto topo = std::move(b).freeze();
        EXPECT_TRUE(topo) << topo.error().to_string();
        return *topo;
    }();
    return t;
}

std::string get(const std::vector<std::pair<std::string, std::string>>& v, const std::string& k) {
    for (const auto& [a, b] : v) {
        if (a == k) return b;
    }
    return "<unset>";
}

// ------------------------------------------------------------------ plugstack arguments
TEST(SpankConfig, DefaultsAndAllKeys) {
    auto c = parse_config({});
    ASSERT_TRUE(c);
    EXPECT_EQ(c->default_mode, Mode::Off);
    EXPECT_EQ(c->on_error, OnError::Warn);
    auto d = parse_config({"snapshot=/etc/slurm/topoplace.json", "health=/var/lib/topoplace/health", "on_error=fail",
                           "default=pack", "wait=60", "env=no", "drain=no"});
    ASSERT_TRUE(d) << d.error().message;
    EXPECT_EQ(d->snapshot, "/etc/slurm/topoplace.json");
    EXPECT_EQ(d->health, "/var/lib/topoplace/health");
    EXPECT_EQ(d->on_error, OnError::Fail);
    EXPECT_EQ(d->default_mode, Mode::Pack);
    EXPECT_EQ(d->wait, 60);
    EXPECT_FALSE(d->rail_env);
    EXPECT_FALSE(d->drain);
    EXPECT_EQ(c->policy, placement::Policy::Cost);  // the default (issue 16)
    EXPECT_EQ(d->policy, placement::Policy::Cost);
    auto p = parse_config({"policy=cost"});
    ASSERT_TRUE(p) << p.error().message;
    EXPECT_EQ(p->policy, placement::Policy::Cost);
    EXPECT_EQ(parse_config({"policy=topo"})->policy, placement::Policy::Topo);
    EXPECT_FALSE(c->queued_plan);  // a job queued behind others gets no plan by default (issue 31)
    EXPECT_TRUE(parse_config({"queued_plan=yes"})->queued_plan);
    EXPECT_FALSE(parse_config({"queued_plan=no"})->queued_plan);
}

// ------------------------------------------------------------------ the queue check
TEST(SpankQueue, PartitionsOverlap) {
    // sbatch with no -p: its default partition; every queued job counts
    EXPECT_TRUE(partitions_overlap("gpu", ""));
    EXPECT_TRUE(partitions_overlap("", ""));
    EXPECT_TRUE(partitions_overlap("gpu", "gpu"));
    EXPECT_TRUE(partitions_overlap("cpu,gpu", "gpu"));
    EXPECT_TRUE(partitions_overlap("gpu", "debug,gpu"));
    EXPECT_FALSE(partitions_overlap("cpu", "gpu"));
    EXPECT_FALSE(partitions_overlap("gpu2", "gpu"));  // whole names, not prefixes
    EXPECT_FALSE(partitions_overlap("gpu", "gpu2"));
    EXPECT_FALSE(partitions_overlap("", "gpu"));  // a queued job with no partition shares none
    EXPECT_FALSE(partitions_overlap("cpu,,io", "gpu,"));
}

TEST(SpankConfig, MalformedArgumentsAreClearErrors) {
    const std::vector<std::string> bad = {
        "snapshot",        "=x",
        "snapshot=",       "snapshot=rel/path.json",
        "health=relative", "on_error=maybe",
        "on_error=WARN",   "default=packed",
        "default=",        "wait=-1",
        "wait=86401",      "wait=1e3",
        "wait= 5",         "env=maybe",
        "drain=2",         "bogus=1",
        "Snapshot=/x",     "topo=pack",
        "on_error=warn\n", "default=off ",
        "policy=linear",   "policy=spread",
        "policy=Cost",     "policy=",
        "queued_plan=2",   "queued_plan=",
    };
    for (const auto& a : bad) {
        auto c = parse_config({a});
        ASSERT_FALSE(c) << a;
        EXPECT_EQ(c.error().code, Errc::InvalidArgument) << a;
        EXPECT_NE(c.error().message.find("plugstack argument 1"), std::string::npos) << c.error().message;
        EXPECT_EQ(c.error().message.find('\n'), std::string::npos) << "one line: " << c.error().message;
    }
    auto twice = parse_config({"wait=5", "wait=6"});
    ASSERT_FALSE(twice);
    EXPECT_NE(twice.error().message.find("given twice"), std::string::npos);
    auto unknown = parse_config({"snapshot=/a", "colour=red"});
    ASSERT_FALSE(unknown);
    EXPECT_NE(unknown.error().message.find("plugstack argument 2 'colour=red': unknown key"), std::string::npos)
        << unknown.error().message;
}

// ------------------------------------------------------------------ option values
TEST(SpankOptions, GoodValues) {
    EXPECT_EQ(*parse_mode("pack"), Mode::Pack);
    EXPECT_EQ(*parse_mode("spread"), Mode::Spread);
    EXPECT_EQ(*parse_mode("off"), Mode::Off);
    EXPECT_EQ(*parse_max_tier("0"), 0);
    EXPECT_EQ(*parse_max_tier("15"), 15);
    EXPECT_EQ(*parse_segment("1"), 1);
    EXPECT_EQ(*parse_segment("65536"), 65536);
}

TEST(SpankOptions, MalformedValuesAreRejectedWithTheOptionName) {
    for (const char* v : {"", "Pack", "PACK", "pack ", " pack", "packs", "on", "1", "pack,spread", "spread=1"}) {
        auto m = parse_mode(v);
        ASSERT_FALSE(m) << v;
        EXPECT_NE(m.error().message.find("--topo="), std::string::npos);
        EXPECT_NE(m.error().message.find("expected pack, spread or off"), std::string::npos);
    }
    EXPECT_FALSE(parse_mode(nullptr));
    for (const char* v : {"", "-1", "16", "99999999999999", "1.5", "0x1", "+1", " 1", "1 ", "one", "1a"}) {
        auto t = parse_max_tier(v);
        ASSERT_FALSE(t) << v;
        EXPECT_NE(t.error().message.find("--topo-max-tier="), std::string::npos);
    }
    for (const char* v : {"0", "", "-4", "65537", "4k", "1e2", "\x01", "18446744073709551617"}) {
        auto s = parse_segment(v);
        ASSERT_FALSE(s) << v;
        EXPECT_NE(s.error().message.find("--topo-segment="), std::string::npos);
        EXPECT_EQ(s.error().message.find('\x01'), std::string::npos) << "control bytes are not echoed";
    }
    // Issue 17: a 100 KB value is quoted by its first 64 bytes and its size, one short line.
    const std::string huge(100000, 'p');
    auto m = parse_mode(huge.c_str());
    ASSERT_FALSE(m);
    EXPECT_LT(m.error().message.size(), 200U);
    EXPECT_NE(m.error().message.find("...(100000 bytes)"), std::string::npos) << m.error().message;
}

// ------------------------------------------------------------------ request
TEST(SpankRequest, FromSlurmOptionStrings) {
    const auto& t = *lab();
    SlurmRequest sr;
    sr.nodes = "4";
    sr.gpus_per_node = "h100:8";
    sr.exclusive = "exclusive";
    sr.exclude = "n[001-002]";
    Options o;
    o.max_tier = 0;
    auto r = make_request(t, sr, o);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->nodes_min, 4);
    EXPECT_EQ(r->nodes_max, 0);
    EXPECT_EQ(r->gpus_per_node, 8);
    EXPECT_TRUE(r->exclusive);
    EXPECT_EQ(r->max_tier, 0);
    ASSERT_EQ(r->excluded.size(), 2U);
    EXPECT_EQ(t.host(r->excluded[0]).name, "n001");

    SlurmRequest g;
    g.nodes = "2-6";
    g.gres = "gres:gpu:h100:4,gres:foo:1";
    auto r2 = make_request(t, g, {});
    ASSERT_TRUE(r2) << r2.error().message;
    EXPECT_EQ(r2->nodes_min, 2);
    EXPECT_EQ(r2->nodes_max, 6);
    EXPECT_EQ(r2->gpus_per_node, 4);
    EXPECT_FALSE(r2->exclusive);

    SlurmRequest w;
    w.nodelist = "n001";
    auto r3 = make_request(t, w, {});
    ASSERT_FALSE(r3);
    EXPECT_EQ(r3.error().code, Errc::Unsupported);

    for (const char* n : {"0", "x", "4-2", "-3", "3-"}) {
        SlurmRequest b;
        b.nodes = n;
        auto rb = make_request(t, b, {});
        ASSERT_FALSE(rb) << n;
        EXPECT_NE(rb.error().message.find("--nodes="), std::string::npos);
    }
    SlurmRequest bg;
    bg.gres = "gpu:h100:lots";
    EXPECT_FALSE(make_request(t, bg, {}));
}

// ------------------------------------------------------------------ plan
TEST(SpankPlan, OneGroupIsAPlainFeatureAndOneSwitch) {
    const auto& t = *lab();
    placement::Placement p;
    for (const char* n : {"n005", "n006", "n007", "n008"}) p.hosts.push_back(*t.find_host(n));
    Plan plan = make_plan(t, p, Mode::Pack, 120, {"n003", "n001", "n003"});
    EXPECT_EQ(plan_constraint(plan), "lg_g002");
    EXPECT_EQ(plan.switches, 1);
    auto env = plan_env(plan);
    EXPECT_EQ(get(env, "TOPOPLACE_CONSTRAINT"), "lg_g002");
    EXPECT_EQ(get(env, "TOPOPLACE_SWITCHES"), "1");
    EXPECT_EQ(get(env, "TOPOPLACE_WAIT"), "120");
    EXPECT_EQ(get(env, "TOPOPLACE_HOSTS"), "n[005-008]");
    EXPECT_EQ(get(env, "TOPOPLACE_EXCLUDE"), "n[001,003]");
    EXPECT_EQ(get(env, "TOPOPLACE_MODE"), "pack");
}

TEST(SpankPlan, SeveralGroupsUseMultipleCounts) {
    const auto& t = *lab();
    placement::Placement p;
    for (const char* n : {"n002", "n003", "n004", "n009"}) p.hosts.push_back(*t.find_host(n));
    p.max_tier = 1;
    Plan plan = make_plan(t, p, Mode::Pack, 300, {});
    EXPECT_EQ(plan_constraint(plan), "[lg_g001*3&lg_g003*1]");
    EXPECT_EQ(plan.switches, 2);
    EXPECT_EQ(get(plan_env(plan), "TOPOPLACE_TIER"), "1");
    EXPECT_EQ(get(plan_env(plan), "TOPOPLACE_EXCLUDE"), "");
}

TEST(SpankPlan, NvlAndSegmentReachJobSubmit) {
    const auto& t = *lab();
    placement::Placement p;
    for (const char* n : {"n005", "n006"}) p.hosts.push_back(*t.find_host(n));
    // without the options: no such variables (empty values are not handed over)
    const Plan plain = make_plan(t, p, Mode::Pack, 120, {});
    EXPECT_EQ(get(plan_env(plain), "TOPOPLACE_NVL"), "");
    EXPECT_EQ(get(plan_env(plain), "TOPOPLACE_SEGMENT"), "");
    Options o;
    o.nvl = true;
    o.segment = 2;
    const Plan plan = make_plan(t, p, Mode::Pack, 120, {}, &o);
    EXPECT_EQ(get(plan_env(plan), "TOPOPLACE_NVL"), "1");
    EXPECT_EQ(get(plan_env(plan), "TOPOPLACE_SEGMENT"), "2");
}

TEST(SpankPlan, SpreadRoundRobinsOverGroups) {
    const auto& t = *lab();
    placement::ClusterState st(t);
    st.set_state(*t.find_host("n001"), placement::NodeState::Alloc);
    placement::Request r;
    r.nodes_min = 6;
    auto p = placement::place(t, st, r, placement::Policy::Spread);
    ASSERT_TRUE(p) << p.error().message;
    std::vector<std::string> names;
    for (auto h : p->hosts) names.push_back(t.host(h).name);
    EXPECT_EQ(names, (std::vector<std::string>{"n002", "n003", "n005", "n006", "n009", "n013"}));
    EXPECT_EQ(p->groups.size(), 4U);
    EXPECT_EQ(p->max_tier, 1);
    r.nodes_min = 17;
    auto busy = placement::place(t, st, r, placement::Policy::Spread);
    ASSERT_FALSE(busy);
    EXPECT_EQ(busy.error().code, Errc::Busy);
}

// ------------------------------------------------------------------ rail environment
TEST(SpankTaskEnv, NicsNearestToTheTasksGpus) {
    const auto& t = *lab();
    const std::vector<std::string> job = {"n005", "n006"};
    auto low = task_env(t, "n005", {0, 1}, job);
    ASSERT_TRUE(low) << low.error().message;
    EXPECT_EQ(get(low->vars, "NCCL_IB_HCA"), "=mlx5_0");
    EXPECT_EQ(get(low->vars, "UCX_NET_DEVICES"), "mlx5_0:1");
    EXPECT_EQ(get(low->vars, "TOPOPLACE_NICS_FROM"), "gpu-locality");
    auto high = task_env(t, "n005", {6}, job);
    ASSERT_TRUE(high);
    EXPECT_EQ(get(high->vars, "NCCL_IB_HCA"), "=mlx5_1");
    auto both = task_env(t, "n005", {3, 4}, job);
    ASSERT_TRUE(both);
    EXPECT_EQ(get(both->vars, "NCCL_IB_HCA"), "=mlx5_0,mlx5_1");
    EXPECT_EQ(get(both->vars, "UCX_NET_DEVICES"), "mlx5_0:1,mlx5_1:1");
    EXPECT_EQ(get(both->vars, "TOPOPLACE_LEAVES"), "1");
    EXPECT_EQ(get(both->vars, "TOPOPLACE_GROUPS"), "1");
    EXPECT_EQ(get(both->vars, "TOPOPLACE_TIER"), "0");
    EXPECT_EQ(get(both->vars, "TOPOPLACE_GROUP"), "g002");
}

TEST(SpankTaskEnv, PlacementAcrossGroupsAndNoGpus) {
    const auto& t = *lab();
    auto e = task_env(t, "n001", {}, {"n001", "n002", "n016"});
    ASSERT_TRUE(e);
    EXPECT_EQ(get(e->vars, "NCCL_IB_HCA"), "<unset>") << "no GPUs: no NIC choice";
    EXPECT_EQ(get(e->vars, "TOPOPLACE_LEAVES"), "2");
    EXPECT_EQ(get(e->vars, "TOPOPLACE_GROUPS"), "2");
    EXPECT_EQ(get(e->vars, "TOPOPLACE_TIER"), "1");
    auto unknown = task_env(t, "nosuchhost", {0}, {});
    ASSERT_FALSE(unknown);
    EXPECT_EQ(unknown.error().code, Errc::NotFound);
}

TEST(SpankTaskEnv, GpuLists) {
    EXPECT_EQ(*parse_gpu_list("0,1,3"), (std::vector<int>{0, 1, 3}));
    EXPECT_EQ(*parse_gpu_list("4-6,0"), (std::vector<int>{0, 4, 5, 6}));
    EXPECT_TRUE(parse_gpu_list("")->empty());
    for (const char* v : {"GPU-5d2a", "NoDevFiles", "1,,2", "3-1", "-1", "0,a"}) EXPECT_FALSE(parse_gpu_list(v)) << v;
}

// ------------------------------------------------------------------ launch gate
// The plugin's job prolog decides with health::gate() (health/store.hpp), as `topoplace
// health gate` does: the drain reason, and a degraded node allowed.
TEST(SpankGate, DrainReason) {
    health::Record bad;
    bad.node = "n001";
    bad.verdict = health::Verdict::Unhealthy;
    bad.reason = "ib port mlx5_1 down\nsecond line";
    bad.source = "operator";
    EXPECT_EQ(health::drain_reason(bad), "topoplace: ib port mlx5_1 down second line (operator)");
    bad.reason.clear();
    bad.source.clear();
    EXPECT_EQ(health::drain_reason(bad), "topoplace: flagged unhealthy");
    bad.reason = std::string(500, 'x');
    EXPECT_EQ(health::drain_reason(bad).size(), 200U);
}

// Through the real store the gate reads (health/ part).
TEST(SpankGate, ThroughTheHealthStore) {
    if (geteuid() != 0) GTEST_SKIP() << "the store must be owned by root";
    namespace fs = std::filesystem;
    fs::path dir = fs::temp_directory_path() / ("topoplace-spank-gate-" + std::to_string(getpid()));
    fs::remove_all(dir);
    health::StoreOptions so;
    so.create = true;
    auto store = health::Store::open(dir.string(), so);
    ASSERT_TRUE(store) << store.error().to_string();
    health::Record r;
    r.node = "n007";
    r.verdict = health::Verdict::Unhealthy;
    r.reason = "gpu 3 xid 79";
    r.source = "check";
    ASSERT_TRUE(store->put(r));
    r.node = "n009";
    r.verdict = health::Verdict::Degraded;
    r.reason = "ib: rate";
    ASSERT_TRUE(store->put(r));
    auto v = health::gate(dir.string(), "n007", health::FailMode::Closed);
    EXPECT_FALSE(v.allow);
    EXPECT_FALSE(v.store_error);
    EXPECT_EQ(v.drain_reason, "topoplace: gpu 3 xid 79 (check)");
    EXPECT_TRUE(health::gate(dir.string(), "n008", health::FailMode::Closed).allow);  // no record
    EXPECT_TRUE(health::gate(dir.string(), "n009", health::FailMode::Closed).allow);  // degraded: allowed
    fs::remove_all(dir);
}

}  // namespace
