// SPDX-License-Identifier: Apache-2.0
// Running jobs (`scontrol show jobs`) and what their placement costs (topoplace status).
#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <topo/placement/running.hpp>
#include <topo/text_input.hpp>

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

TEST(Running, ANonTableFailsABadRecordIsSkippedNamingFileAndLine) {
    auto t = three_level(2, 2, 4);
    // not a job table at all: refused at its first line
    auto e0 = parse_scontrol_jobs(*t, "NodeName=n001 State=IDLE\n", "j.txt");
    ASSERT_FALSE(e0);
    EXPECT_EQ(e0.error().line, 1);
    EXPECT_EQ(e0.error().file, "j.txt");
    // within a table, one bad record is skipped with a warning, never the whole table
    // (issue 32 point 1: one user's job stopped `topoplace status` for everyone)
    const std::string text =
        "JobId=1 JobState=RUNNING NodeList=n[001-\n"
        "JobId=2 JobState=RUNNING NodeList=(null)\n"
        "JobId=3 JobState=RUNNING NodeList=n001 TRES=gres/gpu=99999999\n"
        "JobId=4 JobState=RUNNING NodeList=n002\n"
        "NodeName=n001 State=IDLE\n";
    std::vector<std::string> w;
    auto jobs = parse_scontrol_jobs(*t, text, "j.txt", &w);
    ASSERT_TRUE(jobs) << jobs.error().to_string();
    ASSERT_EQ(jobs->size(), 1U);
    EXPECT_EQ((*jobs)[0].id, "4");
    ASSERT_EQ(w.size(), 4U);
    EXPECT_NE(w[0].find("j.txt:5: not part of a job record"), std::string::npos) << w[0];
    EXPECT_NE(w[1].find("j.txt:1: job 1: node list n[001-: "), std::string::npos) << w[1];
    EXPECT_NE(w[2].find("j.txt:2: running job 2 has no node list; skipped"), std::string::npos) << w[2];
    EXPECT_NE(w[3].find("j.txt:3: job 3: more than 1024 GPUs per host; skipped"), std::string::npos) << w[3];
}

TEST(Running, AJobsGpusAreNotCappedAtAHostsCount) {
    auto t = three_level(4, 4, 16, 8);  // 256 hosts
    auto text = parse_scontrol_jobs(
        *t, "JobId=9 JobState=RUNNING NodeList=n[001-256] NumNodes=256 AllocTRES=cpu=256,node=256,gres/gpu=2048\n",
        "j.txt");
    ASSERT_TRUE(text) << text.error().to_string();
    ASSERT_EQ(text->size(), 1U);
    EXPECT_EQ((*text)[0].gpus, 2048);
    auto json = parse_slurm_jobs_json(*t,
                                      R"({"jobs":[{"job_id":9,"job_state":["RUNNING"],"nodes":"n[001-256]",)"
                                      R"("tres_alloc_str":"cpu=256,node=256,gres/gpu=2048"}]})",
                                      "j.json");
    ASSERT_TRUE(json) << json.error().to_string();
    ASSERT_EQ(json->size(), 1U);
    EXPECT_EQ((*json)[0].gpus, 2048);
}

TEST(Running, UserTextPosingAsFieldsIsNeverRead) {
    auto t = three_level(2, 2, 4);
    // a pending job whose comment, name or path holds fields: in the text form, a field read
    // here that appears twice makes the record ambiguous, and it is skipped
    const std::string text =
        "JobId=5 JobName=a UserId=u(1) JobState=PENDING Reason=Priority NodeList=(null) NumNodes=1 "
        "Comment=x JobState=RUNNING NodeList=n[001-016]\n"
        "JobId=6 JobName=b JobState=RUNNING NodeList=n[001-016] UserId=u(1) JobState=PENDING NodeList=(null)\n"
        "JobId=7 JobName=c UserId=u(1) JobState=RUNNING NodeList=n003 WorkDir=/x JobId=999\n"
        "JobId=8 JobName=ok UserId=u(1) JobState=RUNNING NodeList=n004 Command=/bin/run --JobState=RUNNING\n";
    std::vector<std::string> w;
    auto jobs = parse_scontrol_jobs(*t, text, "j.txt", &w);
    ASSERT_TRUE(jobs) << jobs.error().to_string();
    ASSERT_EQ(jobs->size(), 1U);
    EXPECT_EQ((*jobs)[0].id, "8");  // "--JobState=" is not a field: no space before it
    ASSERT_EQ(w.size(), 3U);
    EXPECT_NE(w[0].find("j.txt:1: job 5: JobState= appears twice"), std::string::npos) << w[0];
    EXPECT_NE(w[1].find("j.txt:2: job 6: JobState= appears twice"), std::string::npos) << w[1];
    EXPECT_NE(w[2].find("j.txt:3: job 7: JobId= appears twice"), std::string::npos) << w[2];
}

// Real job tables from our live labs (tests/fixtures/placement/lab-hostile-jobs-*: squeue
// --all --json and scontrol show jobs of Slurm 22.05.8, 24.11.5 and 26.05.5 with job 1
// named "evil JobState=RUNNING NodeList=n[001-004]" and commented "x JobState=RUNNING
// NodeList=[" on n001, job 2 named "bad\xffname\nJobState=RUNNING" on n[001-002], jobs 3-4
// pending).
TEST(Running, RealJsonJobTablesOfEachReleaseReadOnlySlurmsFields) {
    auto t = three_level(2, 2, 4);
    for (const char* f : {"lab-hostile-jobs-22.05.squeue.json", "lab-hostile-jobs-24.11.squeue.json",
                          "lab-hostile-jobs-26.05.squeue.json", "lab-hostile-jobs-26.05.scontrol.json"}) {
        SCOPED_TRACE(f);
        const std::string path = std::string(TOPO_FIXTURES) + "/placement/" + f;
        auto text = read_text_file(path);
        ASSERT_TRUE(text);
        std::vector<std::string> w;
        auto jobs = parse_scontrol_jobs(*t, *text, path, &w);
        ASSERT_TRUE(jobs) << jobs.error().to_string();
        EXPECT_TRUE(w.empty()) << w.front();
        ASSERT_EQ(jobs->size(), 2U);
        EXPECT_EQ((*jobs)[0].id, "1");
        EXPECT_EQ((*jobs)[0].nodelist, "n001");
        EXPECT_EQ((*jobs)[0].hosts.size(), 1U);
        EXPECT_EQ((*jobs)[0].name, "evil JobState=RUNNING NodeList=n[001-004]");
        EXPECT_EQ((*jobs)[0].user, "root(0)");
        EXPECT_EQ((*jobs)[1].id, "2");
        EXPECT_EQ((*jobs)[1].nodelist, "n[001-002]");
        EXPECT_EQ((*jobs)[1].name, "bad?name?JobState=RUNNING");  // printable, one line
        EXPECT_FALSE((*jobs)[1].start.empty());
    }
}

TEST(Running, RealTextJobTablesSkipTheAmbiguousRecord) {
    auto t = three_level(2, 2, 4);
    for (const char* f : {"lab-hostile-jobs-22.05.scontrol.txt", "lab-hostile-jobs-26.05.scontrol.txt"}) {
        SCOPED_TRACE(f);
        const std::string path = std::string(TOPO_FIXTURES) + "/placement/" + f;
        auto text = read_text_file(path);
        ASSERT_TRUE(text);
        std::vector<std::string> w;
        auto jobs = parse_scontrol_jobs(*t, *text, path, &w);
        ASSERT_TRUE(jobs) << jobs.error().to_string();
        // job 1's first line is "JobId=1 JobName=evil JobState=RUNNING NodeList=n[001-004]":
        // never read as running on four hosts; job 2's name broke a line, its record goes on
        ASSERT_EQ(jobs->size(), 1U);
        EXPECT_EQ((*jobs)[0].id, "2");
        EXPECT_EQ((*jobs)[0].nodelist, "n[001-002]");
        EXPECT_EQ((*jobs)[0].name, "bad?name");
        // the name's newline: once in 22.05's table, twice in 26.05's (its SubmitLine= too)
        ASSERT_EQ(w.size(), std::string(f).find("26.05") != std::string::npos ? 3U : 2U);
        EXPECT_NE(w[0].find(":31: not part of a job record"), std::string::npos) << w[0];
        EXPECT_NE(w.back().find(":1: job 1: JobState= appears twice"), std::string::npos) << w.back();
    }
}

TEST(Running, JsonThatIsNotAJobTableIsRefusedAtItsLine) {
    auto t = three_level(2, 2, 4);
    auto e1 = parse_scontrol_jobs(*t, "{\n  \"jobs\": [\n  {\"job_id\": 1,,}\n]}\n", "j.json");
    ASSERT_FALSE(e1);
    EXPECT_EQ(e1.error().file, "j.json");
    EXPECT_EQ(e1.error().line, 3);
    auto e2 = parse_scontrol_jobs(*t, "{\"nodes\": []}", "j.json");
    ASSERT_FALSE(e2);
    EXPECT_NE(e2.error().message.find("squeue --json"), std::string::npos) << e2.error().to_string();
    // bad records inside: skipped by name
    std::vector<std::string> w;
    auto ok = parse_scontrol_jobs(*t,
                                  R"({"errors":[],"jobs":[{"job_state":"RUNNING","nodes":"n001"},)"
                                  R"({"job_id":3,"job_state":"RUNNING","nodes":"n[1-"},)"
                                  R"({"job_id":4,"job_state":["PENDING"],"nodes":""},)"
                                  R"({"job_id":{"set":true,"infinite":false,"number":5},"job_state":["RUNNING"],)"
                                  R"("nodes":"n005","node_count":{"set":true,"number":1}}]})",
                                  "j.json", &w);
    ASSERT_TRUE(ok) << ok.error().to_string();
    ASSERT_EQ(ok->size(), 1U);
    EXPECT_EQ((*ok)[0].id, "5");
    ASSERT_EQ(w.size(), 2U);
    EXPECT_NE(w[0].find("a running job without a job_id"), std::string::npos) << w[0];
    EXPECT_NE(w[1].find("job 3: node list n[1-"), std::string::npos) << w[1];
}

TEST(Running, PrintableUtf8KeepsValidTextAndReplacesTheRest) {
    EXPECT_EQ(printable_utf8("llm-70b \xc3\xa9t\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x9a\x80\tok"),
              "llm-70b \xc3\xa9t\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x9a\x80\tok");
    EXPECT_EQ(printable_utf8("a\xff"
                             "b\nc\x1b[31m"),
              "a?b?c?[31m");
    EXPECT_EQ(printable_utf8("\xc0\x80|\xed\xa0\x80|\xf4\x90\x80\x80|\xe2\x9c"), "??|???|????|??");
    EXPECT_EQ(valid_utf8("a\xff\n\"b\""), "a?\n\"b\"");  // valid_utf8 keeps control characters
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

// Issue 32 point 2: status's time is bounded however long the job table. Past the deadline
// no best placement is searched; every job's slowdown where it runs is still computed.
TEST(Running, PastTheDeadlineNoBestPlacementIsSearched) {
    auto t = three_level(2, 2, 4);
    const std::string across =
        "JobId=200 JobState=RUNNING NodeList=n[003-004,011-012] TRES=gres/gpu=32\n"
        "JobId=201 JobState=RUNNING NodeList=n[005-006] TRES=gres/gpu=16\n";
    auto jobs = parse_scontrol_jobs(*t, across, "a.txt");
    ASSERT_TRUE(jobs);
    ClusterState st(*t);
    for (const auto& j : *jobs)
        for (auto h : j.hosts) st.set_state(h, NodeState::Alloc);
    const perf::Params params;
    const Placer placer(*t);
    const auto all = assess_running(placer, st, *jobs, params);
    EXPECT_EQ(all.best_skipped, 0);
    EXPECT_DOUBLE_EQ(all.jobs[0].best_now, 1.0);
    EXPECT_GT(all.recoverable_gpus, 0.0);
    const auto none = assess_running(placer, st, *jobs, params, std::chrono::steady_clock::now());
    EXPECT_EQ(none.best_skipped, 2);
    ASSERT_EQ(none.jobs.size(), 2U);
    for (const auto& c : none.jobs) {
        EXPECT_TRUE(c.best_skipped);
        EXPECT_DOUBLE_EQ(c.best_now, 0.0);
    }
    EXPECT_DOUBLE_EQ(none.jobs[0].now.s_job, all.jobs[0].now.s_job);
    EXPECT_DOUBLE_EQ(none.lost_gpus, all.lost_gpus);
    EXPECT_EQ(none.running_gpus, all.running_gpus);
    EXPECT_DOUBLE_EQ(none.recoverable_gpus, 0.0);
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
