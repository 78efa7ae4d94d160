// SPDX-License-Identifier: Apache-2.0
// Running jobs (`scontrol show jobs`) and what their placement costs (topoplace status).
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>
#include <vector>

#include <topo/placement/running.hpp>

#include "fabric.hpp"

namespace topo::placement {
namespace {

using testing::three_level;

// Our own text in the layout of `scontrol show jobs --oneliner` (Slurm 22.05 prints TRES=,
// later releases AllocTRES=), a pending job, a one-host shared job, and a job on hosts the
// snapshot does not have.
const char* const kJobs =
    "JobId=101 JobName=llm train UserId=alice(1001) GroupId=alice(1001) MCS_label=N/A Priority=1 Nice=0 "
    "Account=(null) QOS=normal JobState=RUNNING Reason=None Dependency=(null) Requeue=1 Restarts=0 BatchFlag=1 "
    "Reboot=0 ExitCode=0:0 RunTime=00:10:00 TimeLimit=1-00:00:00 TimeMin=N/A SubmitTime=2026-11-26T08:00:00 "
    "EligibleTime=2026-11-26T08:00:00 StartTime=2026-11-26T08:00:05 EndTime=2026-11-27T08:00:05 "
    "Partition=gpu AllocNode:Sid=login1:1 ReqNodeList=(null) ExcNodeList=(null) NodeList=n[001-002,005-006] "
    "BatchHost=n001 NumNodes=4 NumCPUs=4 NumTasks=4 CPUs/Task=1 ReqB:S:C:T=0:0:*:* "
    "TRES=cpu=4,mem=4G,node=4,billing=4,gres/gpu=32 Socks/Node=*\n"
    "JobId=102 JobName=eval UserId=bob(1002) JobState=PENDING Reason=Resources NodeList=(null) NumNodes=2\n"
    "JobId=103 JobName=one UserId=bob(1002) JobState=RUNNING Reason=None NodeList=n009 NumNodes=1 "
    "AllocTRES=cpu=8,mem=64G,node=1,billing=8,gres/gpu=2,gres/gpu:h100=2 StartTime=2026-11-26T08:01:00\n"
    "JobId=104 JobName=elsewhere JobState=RUNNING NodeList=other[1-2] NumNodes=2\n";

TEST(Running, ParsesRunningJobsOnlyWithGpusAndHosts) {
    auto t = three_level(2, 2, 4);  // 16 hosts, leaves of 4, 2 spines
    std::vector<std::string> warnings;
    auto jobs = parse_scontrol_jobs(*t, kJobs, "jobs.txt", &warnings);
    ASSERT_TRUE(jobs) << jobs.error().to_string();
    ASSERT_EQ(jobs->size(), 2U);
    const auto& a = (*jobs)[0];
    EXPECT_EQ(a.id, "101");
    EXPECT_EQ(a.name, "llm train");
    EXPECT_EQ(a.user, "alice(1001)");
    EXPECT_EQ(a.nodelist, "n[001-002,005-006]");
    EXPECT_EQ(a.hosts.size(), 4U);
    EXPECT_EQ(a.gpus, 32);
    EXPECT_EQ(a.line, 1);
    const auto& b = (*jobs)[1];
    EXPECT_EQ(b.id, "103");
    EXPECT_EQ(b.gpus, 2);  // the typed entry repeats the total: not counted twice
    EXPECT_EQ(b.start, "2026-11-26T08:01:00");
    ASSERT_EQ(warnings.size(), 1U);
    EXPECT_NE(warnings[0].find("jobs.txt:4: job 104 runs on other[1-2], not in the topology; skipped"),
              std::string::npos)
        << warnings[0];
}

TEST(Running, MultiLineFormAndNoJobs) {
    auto t = three_level(2, 2, 4);
    const std::string multi =
        "JobId=7 JobName=x\n   UserId=a(1) GroupId=a(1)\n   JobState=RUNNING Reason=None\n"
        "   NodeList=n[003-004]\n   NumNodes=2 NumCPUs=2\n   TRES=cpu=2,node=2\n\n"
        "JobId=8 JobName=y\n   JobState=COMPLETED\n   NodeList=n001\n";
    auto jobs = parse_scontrol_jobs(*t, multi, "m.txt");
    ASSERT_TRUE(jobs) << jobs.error().to_string();
    ASSERT_EQ(jobs->size(), 1U);
    EXPECT_EQ((*jobs)[0].id, "7");
    EXPECT_EQ((*jobs)[0].hosts.size(), 2U);
    EXPECT_EQ((*jobs)[0].gpus, 0);
    auto none = parse_scontrol_jobs(*t, "No jobs in the system\n", "n.txt");
    ASSERT_TRUE(none);
    EXPECT_TRUE(none->empty());
}

TEST(Running, BadInputNamesFileAndLine) {
    auto t = three_level(2, 2, 4);
    auto e1 = parse_scontrol_jobs(*t, "JobId=1 JobState=RUNNING NodeList=n001\nNodeName=n001 State=IDLE\n", "j.txt");
    ASSERT_FALSE(e1);
    EXPECT_EQ(e1.error().line, 2);
    EXPECT_EQ(e1.error().file, "j.txt");
    auto e2 = parse_scontrol_jobs(*t, "JobId=1 JobState=RUNNING NodeList=n[001-\n", "j.txt");
    ASSERT_FALSE(e2);
    EXPECT_EQ(e2.error().line, 1);
    auto e3 = parse_scontrol_jobs(*t, "JobId=1 JobState=RUNNING NodeList=(null)\n", "j.txt");
    ASSERT_FALSE(e3);
    auto e4 = parse_scontrol_jobs(*t, "JobId=1 JobState=RUNNING NodeList=n001 TRES=gres/gpu=99999999\n", "j.txt");
    ASSERT_FALSE(e4);
    EXPECT_NE(e4.error().message.find("GPUs per host"), std::string::npos) << e4.error().to_string();
}

TEST(Running, CostAgainstTheBestPlacementNow) {
    auto t = three_level(2, 2, 4);  // n001-004 leaf01, n005-008 leaf02 (spine01); n009-016 spine02
    auto jobs = parse_scontrol_jobs(*t, kJobs, "jobs.txt");
    ASSERT_TRUE(jobs);
    ClusterState st(*t);
    for (auto& j : *jobs) {
        for (auto h : j.hosts) {
            if (j.gpus == 32) {
                st.set_state(h, NodeState::Alloc);
            } else {
                st.set_state(h, NodeState::Mixed);
                st.set_free_gpus(h, 6);
            }
        }
    }
    const perf::Params params;
    const Placer placer(*t);
    auto c = assess_running(placer, st, *jobs, params);
    ASSERT_EQ(c.jobs.size(), 2U);
    const auto& a = c.jobs[0];
    EXPECT_EQ(a.gpus, 32);
    EXPECT_EQ(a.gpus_per_host, 8);
    EXPECT_EQ(a.groups, 2);
    EXPECT_EQ(a.tier, 1);
    // two leaf groups under one spine: the model's M_tier 1.03 on the pipeline's exposed
    // share 0.04 (PERF-MODEL 6.2): 1.0012; one leaf group would hold it now: 1.0
    EXPECT_NEAR(a.now.s_job, 1.0 + 0.04 * 0.03, 1e-9);
    EXPECT_DOUBLE_EQ(a.best_now, 1.0);
    const auto& b = c.jobs[1];
    EXPECT_EQ(b.gpus, 2);
    EXPECT_DOUBLE_EQ(b.now.s_job, 1.0);  // one host: no network
    EXPECT_EQ(c.running_gpus, 34);
    EXPECT_NEAR(c.lost_gpus, 32 * (1 - 1 / a.now.s_job), 1e-9);
    EXPECT_NEAR(c.recoverable_gpus, 32 * (1 - 1 / a.now.s_job), 1e-9);

    // Across the core: n003-004 and n011-012 (two spines), while one leaf is free.
    const std::string across = "JobId=200 JobState=RUNNING NodeList=n[003-004,011-012] TRES=gres/gpu=32\n";
    auto j2 = parse_scontrol_jobs(*t, across, "a.txt");
    ASSERT_TRUE(j2);
    ClusterState s2(*t);
    for (auto h : (*j2)[0].hosts) s2.set_state(h, NodeState::Alloc);
    auto c2 = assess_running(placer, s2, *j2, params);
    ASSERT_EQ(c2.jobs.size(), 1U);
    EXPECT_EQ(c2.jobs[0].tier, 2);
    EXPECT_GT(c2.jobs[0].now.s_job, 1.0);
    EXPECT_DOUBLE_EQ(c2.jobs[0].best_now, 1.0);  // one leaf group holds it now
    EXPECT_NEAR(c2.lost_gpus, 32 * (1 - 1 / c2.jobs[0].now.s_job), 1e-9);
    EXPECT_GT(c2.recoverable_gpus, 0.0);
    EXPECT_DOUBLE_EQ(c2.degraded_gpus, 0.0);

    // A degraded host in it: its share is counted apart.
    ClusterState s3 = s2;
    s3.set_slowdown((*j2)[0].hosts.front(), 1.34);
    auto c3 = assess_running(placer, s3, *j2, params);
    EXPECT_NEAR(c3.jobs[0].now.s_deg, 1.34, 1e-9);
    EXPECT_GT(c3.degraded_gpus, 0.0);
    EXPECT_LT(c3.degraded_gpus, c3.lost_gpus);
    EXPECT_NEAR(c3.lost_gpus, 32 * (1 - 1 / c3.jobs[0].now.s_job), 1e-9);
}

// The uplink counts the cost policy reads (record_uplinks into a ClusterState) say of
// every leaf group and pod what the model's own reading of the running jobs says
// (perf::uplink_use): random jobs added and taken off again.
TEST(Running, RecordedUplinksEqualTheModelsReadingOfTheJobs) {
    auto t = three_level(4, 4, 4);  // 64 hosts, leaves of 4, 4 spines
    ASSERT_TRUE(t);
    const auto shape = perf::fabric_shape(*t);
    ASSERT_GT(shape.pods, 1);
    std::mt19937 rng(16);
    const auto n = static_cast<unsigned>(t->hosts().size());
    for (int round = 0; round < 30; ++round) {
        ClusterState s(*t);
        std::vector<std::vector<HostId>> jobs;
        const int count = 1 + static_cast<int>(rng() % 8);
        for (int k = 0; k < count; ++k) {
            std::vector<HostId> hosts;
            const unsigned size = 1 + rng() % 9;
            for (unsigned i = 0; i < size; ++i) hosts.emplace_back(rng() % n);
            jobs.push_back(hosts);
            record_uplinks(*t, shape, s, hosts, +1);
        }
        // one job ends
        const auto gone = static_cast<std::size_t>(rng() % jobs.size());
        record_uplinks(*t, shape, s, jobs[gone], -1);
        jobs.erase(jobs.begin() + static_cast<std::ptrdiff_t>(gone));
        const auto use = perf::uplink_use(*t, shape, jobs);
        int busy_groups = 0;
        std::vector<char> pod_busy(static_cast<std::size_t>(shape.pods), 0);
        for (std::size_t g = 0; g < t->groups().size(); ++g) {
            const auto u = s.uplink_users(GroupId{static_cast<std::uint32_t>(g)});
            const bool want = !use.busy_group.empty() && use.busy_group[g] != 0;
            EXPECT_EQ(u.spanning > 0, want) << "round " << round << " group " << g;
            busy_groups += u.spanning > 0 ? 1 : 0;
            if (u.multi_pod > 0) pod_busy[static_cast<std::size_t>(shape.pod_of_group[g])] = 1;
        }
        EXPECT_EQ(s.groups_with_uplink_users(), busy_groups);
        for (std::size_t p = 0; p < pod_busy.size(); ++p)
            EXPECT_EQ(pod_busy[p] != 0, !use.busy_pod.empty() && use.busy_pod[p] != 0) << "round " << round;
        // all at once (the service's and `place --jobs`' way): the same counts, and how many span
        ClusterState all(*t);
        int spanning = 0;
        for (const auto& hosts : jobs) {
            std::set<GroupId> gs;
            for (auto h : hosts) gs.insert(t->group_of(h));
            spanning += gs.size() > 1 ? 1 : 0;
        }
        EXPECT_EQ(record_running_uplinks(*t, shape, all, jobs), spanning) << "round " << round;
        for (std::size_t g = 0; g < t->groups().size(); ++g) {
            const GroupId id{static_cast<std::uint32_t>(g)};
            EXPECT_EQ(all.uplink_users(id).spanning, s.uplink_users(id).spanning) << "round " << round;
            EXPECT_EQ(all.uplink_users(id).multi_pod, s.uplink_users(id).multi_pod) << "round " << round;
        }
    }
}

}  // namespace
}  // namespace topo::placement
