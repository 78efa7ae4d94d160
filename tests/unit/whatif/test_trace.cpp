// SPDX-License-Identifier: Apache-2.0
// Trace readers on the real traces of tests/fixtures/traces, sacct --parsable2 and CSV
// forms, bad lines, and the generator. Expected counts were taken with awk on the
// fixtures (commands next to each figure).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <string>

#include <topo/whatif/trace.hpp>

namespace {

using topo::Errc;
using namespace topo::whatif;

std::string fx(const std::string& name) {
    return std::string(TOPO_FIXTURES) + "/traces/" + name;
}

TEST(TraceRead, AlibabaOpenbPods) {
    auto t = read_trace_file(fx("alibaba-openb2023-pods-default.csv"));
    ASSERT_TRUE(t) << t.error().to_string();
    EXPECT_EQ(t->format, "alibaba-openb");
    // awk -F, 'NR>1 && $4>0 && $9!="" && $10!="" && $11!="" && $11>=$9 && $10>=$11' | wc -l  -> 6203
    EXPECT_EQ(t->jobs.size(), 6203u);
    // 8152 rows: 1088 with num_gpu=0, 861 GPU pods without all three times.
    EXPECT_EQ(t->skipped, 1088 + 861);
    EXPECT_EQ(t->jobs.front().submit_s, 0);
    for (const auto& j : t->jobs) {
        ASSERT_EQ(j.nodes, 1);
        ASSERT_GE(j.gpus_per_node, 1);
        ASSERT_LE(j.gpus_per_node, 8);
        ASSERT_GE(j.duration_s, 0);
    }
    EXPECT_TRUE(std::is_sorted(t->jobs.begin(), t->jobs.end(),
                               [](const TraceJob& a, const TraceJob& b) { return a.submit_s < b.submit_s; }));
    // openb-pod-0000: creation 0, scheduled 0, deletion 12537496, one GPU.
    auto it = std::find_if(t->jobs.begin(), t->jobs.end(), [](const TraceJob& j) { return j.id == "openb-pod-0000"; });
    ASSERT_NE(it, t->jobs.end());
    EXPECT_EQ(it->duration_s, 12537496);
    EXPECT_EQ(it->line, 2);
}

TEST(TraceRead, AlibabaDlrmInstances) {
    auto t = read_trace_file(fx("alibaba-dlrm2025-instances.first10000.csv"));
    ASSERT_TRUE(t) << t.error().to_string();
    EXPECT_EQ(t->format, "alibaba-dlrm");
    // awk -F, 'NR>1 && $6>0 && $15!="" && $16!="" && $17!="" && $16>=$15 && $17>=$16' -> 413
    EXPECT_EQ(t->jobs.size(), 413u);
    EXPECT_EQ(t->skipped, 10000 - 413);
    for (const auto& j : t->jobs) EXPECT_EQ(j.gpus_per_node, 1);
}

TEST(TraceRead, EveryRealFileParsesOrIsRefusedWithAReason) {
    // The files that are not job traces say what they are, at their header line.
    const std::map<std::string, std::string> refused = {
        {"acme-helios-philly-pai-cluster-summary.csv", "per-cluster summary"},
        {"helios-cluster-summary.csv", "per-cluster summary"},
        {"alibaba-openb2023-all-nodes.csv", "node list"},
        {"alibaba-openb2023-gpu-nodes.csv", "node list"},
        {"alibaba-spotgpu2026-nodes.csv", "node list"},
        {"alibaba-openb2023-pods-multigpu50.csv", "without times"},
        {"helios-earth-vc-gpu-quota-daily.csv", "daily quota"},
        {"philly-active-nodes-per-minute.from-heliosartifact.first20000.csv", "utilization time series"},
        {"philly-runtime-seconds.from-alibaba-analysis.csv", "runtime sample"},
        {"philly-vc-node-counts.from-heliosartifact.csv", "virtual-cluster"},
        // sacct's default table (PSC Bridges, 2017): columns cut to width, no Submit
        {"osc-ood-sacct-bridges-fixedwidth.first200.txt", "re-run it as sacct -P"},
    };
    int parsed = 0;
    int seen = 0;
    for (const auto& e : std::filesystem::directory_iterator(std::string(TOPO_FIXTURES) + "/traces")) {
        if (!e.is_regular_file()) continue;
        ++seen;
        const std::string name = e.path().filename().string();
        auto t = read_trace_file(e.path().string());
        auto r = refused.find(name);
        if (r == refused.end()) {
            ASSERT_TRUE(t) << name << ": " << t.error().to_string();
            EXPECT_FALSE(t->jobs.empty()) << name;
            ++parsed;
        } else {
            ASSERT_FALSE(t) << name << " should not parse as a job trace";
            EXPECT_EQ(t.error().code, Errc::Parse);
            EXPECT_EQ(t.error().line, 1) << name;
            EXPECT_NE(t.error().message.find(r->second), std::string::npos) << name << ": " << t.error().message;
        }
    }
    // 14 files since issue 28 added our TAB-separated sacct export, which parses (3 = the two
    // Alibaba lists and it); the 13 real ones are read as before
    EXPECT_EQ(seen, 14);
    EXPECT_EQ(parsed, 3);
}

TEST(TraceRead, PhillyRuntimesAreADurationSample) {
    auto d = read_runtime_samples(fx("philly-runtime-seconds.from-alibaba-analysis.csv"));
    ASSERT_TRUE(d) << d.error().to_string();
    EXPECT_EQ(d->size(), 83154u);  // wc -l = 83155 with the header
    EXPECT_EQ(d->front(), 0.0);
}

const char* kSacct =
    "JobID|JobName|Partition|Submit|Start|End|Elapsed|NNodes|AllocTRES|ReqTRES|Timelimit|State\n"
    "100|train|gpu|2024-03-01T10:00:00|2024-03-01T10:05:00|2024-03-01T12:05:00|02:00:00|4|"
    "billing=256,cpu=256,gres/gpu=32,mem=2000G,node=4|cpu=256,gres/gpu=32,node=4|04:00:00|COMPLETED\n"
    "100.batch|batch||2024-03-01T10:05:00|2024-03-01T10:05:00|2024-03-01T12:05:00|02:00:00|1|cpu=64|||COMPLETED\n"
    "100.0|python||2024-03-01T10:05:01|2024-03-01T10:05:01|2024-03-01T12:05:00|01:59:59|4|cpu=256|||COMPLETED\n"
    "101|eval|gpu|2024-03-01T09:59:00|2024-03-01T10:00:00|2024-03-03T11:00:00|2-01:00:00|1|"
    "cpu=8,gres/gpu:a100=2,gres/gpu=2,node=1|cpu=8,gres/gpu=2|3-00:00:00|TIMEOUT\n"
    "102|queued|gpu|2024-03-01T11:00:00|Unknown|Unknown|00:00:00|0||cpu=8,gres/gpu=8|01:00:00|PENDING\n"
    "103|short|gpu|2024-03-01T11:30:00|2024-03-01T11:30:10|2024-03-01T11:31:40|01:30|1||cpu=8,gres/gpu=8|"
    "UNLIMITED|FAILED\n";

TEST(TraceRead, SacctParsable2) {
    auto t = parse_trace(kSacct, "jobs.sacct");
    ASSERT_TRUE(t) << t.error().to_string();
    EXPECT_EQ(t->format, "sacct");
    ASSERT_EQ(t->jobs.size(), 3u);
    EXPECT_EQ(t->skipped, 3);  // two steps, one never started
    // Sorted by submit: 101 (09:59), 100 (10:00), 103 (11:30); times relative to 09:59.
    EXPECT_EQ(t->jobs[0].id, "101");
    EXPECT_EQ(t->jobs[0].submit_s, 0);
    EXPECT_EQ(t->jobs[0].duration_s, 2 * 86400 + 3600);
    EXPECT_EQ(t->jobs[0].gpus_per_node, 2);
    EXPECT_EQ(t->jobs[0].timelimit_s, 3 * 86400);
    EXPECT_EQ(t->jobs[1].id, "100");
    EXPECT_EQ(t->jobs[1].submit_s, 60);
    EXPECT_EQ(t->jobs[1].nodes, 4);
    EXPECT_EQ(t->jobs[1].gpus_per_node, 8);  // gres/gpu=32 over 4 nodes
    EXPECT_EQ(t->jobs[1].duration_s, 7200);
    EXPECT_EQ(t->jobs[1].timelimit_s, 4 * 3600);
    EXPECT_EQ(t->jobs[1].line, 2);
    EXPECT_EQ(t->jobs[2].id, "103");
    EXPECT_EQ(t->jobs[2].duration_s, 90);
    EXPECT_EQ(t->jobs[2].gpus_per_node, 8);  // from ReqTRES (AllocTRES empty)
    EXPECT_EQ(t->jobs[2].timelimit_s, 0);    // UNLIMITED
}

TEST(TraceRead, SacctTabSeparatedFormatAll) {
    // ours: the jobs of kSacct as `sacct -P --delimiter=$'\t' --format=ALL` prints them, with
    // Slurm 24.11.5's 118 columns (src/sacct/sacct.c fields[]); a '|' inside a field (SubmitLine)
    auto t = read_trace_file(fx("topoplace-sacct-tab-format-all-24.11.tsv"));
    ASSERT_TRUE(t) << t.error().to_string();
    auto p = parse_trace(kSacct, "jobs.sacct");
    ASSERT_TRUE(p);
    EXPECT_EQ(t->format, "sacct");
    ASSERT_EQ(t->jobs.size(), p->jobs.size());
    EXPECT_EQ(t->skipped, p->skipped);
    for (std::size_t i = 0; i < t->jobs.size(); ++i) {
        EXPECT_EQ(t->jobs[i].id, p->jobs[i].id);
        EXPECT_EQ(t->jobs[i].submit_s, p->jobs[i].submit_s);
        EXPECT_EQ(t->jobs[i].duration_s, p->jobs[i].duration_s);
        EXPECT_EQ(t->jobs[i].nodes, p->jobs[i].nodes);
        EXPECT_EQ(t->jobs[i].gpus_per_node, p->jobs[i].gpus_per_node);
        EXPECT_EQ(t->jobs[i].timelimit_s, p->jobs[i].timelimit_s);
        EXPECT_EQ(t->jobs[i].line, p->jobs[i].line);
    }
    const bool said = std::any_of(t->notes.begin(), t->notes.end(), [](const std::string& n) {
        return n.find("TAB-separated") != std::string::npos && n.find("118 columns") != std::string::npos;
    });
    EXPECT_TRUE(said) << ::testing::PrintToString(t->notes);
}

TEST(TraceRead, DelimitedSacctWithoutTheReplayColumnsNamesThem) {
    // TAB or '|': the columns the replay needs that the header lacks are named at its line
    auto tab = parse_trace("# sacct export\nJobID\tJobName\tElapsed\tState\n1\ta\t00:10:00\tCOMPLETED\n", "t.tsv");
    ASSERT_FALSE(tab);
    EXPECT_EQ(tab.error().code, Errc::Parse);
    EXPECT_EQ(tab.error().file, "t.tsv");
    EXPECT_EQ(tab.error().line, 2);
    EXPECT_NE(tab.error().message.find("TAB-separated"), std::string::npos) << tab.error().message;
    EXPECT_NE(tab.error().message.find("Submit, NNodes"), std::string::npos) << tab.error().message;
    auto pipe = parse_trace("JobID|Start|NNodes\n", "p.txt");
    ASSERT_FALSE(pipe);
    EXPECT_EQ(pipe.error().line, 1);
    EXPECT_NE(pipe.error().message.find("Submit, End or Elapsed"), std::string::npos) << pipe.error().message;
    auto nojob = parse_trace("Account\tUser\tState\nml\tkim\tCOMPLETED\n", "n.tsv");
    ASSERT_FALSE(nojob);
    EXPECT_EQ(nojob.error().line, 1);
    EXPECT_NE(nojob.error().message.find("JobID"), std::string::npos) << nojob.error().message;
    EXPECT_EQ(nojob.error().message.find("fixed-width"), std::string::npos) << nojob.error().message;
    // a row with a missing TAB is refused at its line
    auto cut = parse_trace("JobID\tSubmit\tElapsed\tNNodes\n1\t2024-01-01T00:00:00\t00:10:00\n", "c.tsv");
    ASSERT_FALSE(cut);
    EXPECT_EQ(cut.error().line, 2);
    EXPECT_NE(cut.error().message.find("TAB-separated fields"), std::string::npos) << cut.error().message;
}

TEST(TraceRead, SacctColumnsInAnyOrderWithoutElapsed) {
    const char* text =
        "NNodes|End|JobID|Start|Submit\n"
        "2|2024-01-01T01:00:00|7|2024-01-01T00:30:00|2024-01-01T00:00:00\n";
    auto t = parse_trace(text, "x.txt");
    ASSERT_TRUE(t) << t.error().to_string();
    ASSERT_EQ(t->jobs.size(), 1u);
    EXPECT_EQ(t->jobs[0].duration_s, 1800);
    EXPECT_EQ(t->jobs[0].nodes, 2);
    EXPECT_EQ(t->jobs[0].gpus_per_node, 0);
}

TEST(TraceRead, SacctJobIdRawAndTrailingSeparator) {
    // `sacct -p` (not --parsable2) ends every line with '|'; JobIDRaw instead of JobID.
    auto t = parse_trace(
        "JobIDRaw|Submit|Elapsed|NNodes|\n9|2024-01-01T00:00:00|1-00:00:00|16|\n"
        "9.extern|2024-01-01T00:00:00|1-00:00:00|16|\n",
        "p.txt");
    ASSERT_TRUE(t) << t.error().to_string();
    ASSERT_EQ(t->jobs.size(), 1u);
    EXPECT_EQ(t->jobs[0].duration_s, 86400);
    EXPECT_EQ(t->jobs[0].nodes, 16);
    EXPECT_EQ(t->skipped, 1);
}

TEST(TraceRead, SlurmDurations) {
    EXPECT_EQ(parse_slurm_duration("00:00:00"), std::optional<double>(0));
    EXPECT_EQ(parse_slurm_duration("01:02:03"), std::optional<double>(3723));
    EXPECT_EQ(parse_slurm_duration("1-00:00:01"), std::optional<double>(86401));
    EXPECT_EQ(parse_slurm_duration("12:34"), std::optional<double>(754));
    EXPECT_DOUBLE_EQ(parse_slurm_duration("00:01.500").value_or(-1), 1.5);
    EXPECT_EQ(parse_slurm_duration("2-3"), std::optional<double>(2 * 86400 + 3 * 3600));
    EXPECT_FALSE(parse_slurm_duration(""));
    EXPECT_FALSE(parse_slurm_duration("abc"));
    EXPECT_FALSE(parse_slurm_duration("1:99:00"));
    EXPECT_FALSE(parse_slurm_duration("-1:00:00"));
}

struct Bad {
    const char* text;
    int line;
    const char* what;
};

TEST(TraceRead, BadInputNamesFileAndLine) {
    const Bad cases[] = {
        {"JobID|Submit|Elapsed|NNodes\n1|2024-01-01T00:00:00|00:10:00|1\n2|2024-01-01T00:00:00|xx|1\n", 3, "Elapsed"},
        {"JobID|Submit|Elapsed|NNodes\n1|2024-01-01T00:00:00|00:10:00\n", 2, "fields"},
        {"JobID|Submit|Elapsed|NNodes\n1|yesterday|00:10:00|1\n", 2, "Submit"},
        {"JobID|Submit|Elapsed|NNodes\n1|2024-01-01T00:00:00|00:10:00|-3\n", 2, "NNodes"},
        {"JobID|Elapsed|NNodes\n", 1, "Submit"},
        {"# comment\nsubmit_s,duration_s,nodes,gpus_per_node\n0,10,1,8\n5,ten,1,8\n", 4, "duration_s"},
        {"submit_s,duration_s,nodes,gpus_per_node\n0,10,0,8\n", 2, "nodes"},
        {"submit_s,duration_s,nodes,gpus_per_node\n0,10,1\n", 2, "fields"},
        {"submit_s,duration_s,nodes,gpus_per_node,timelimit_s\n0,10,1,8,-1\n", 2, "timelimit_s"},
        {"duration_s,submit_s,nodes,gpus_per_node\n", 1, "header"},
        {"hello,world\n1,2\n", 1, "unknown trace format"},
        {"", 1, "empty"},
        {"\n\n# only comments\n", 1, "empty"},
    };
    for (const auto& c : cases) {
        auto t = parse_trace(c.text, "bad.trace");
        ASSERT_FALSE(t) << c.text;
        EXPECT_EQ(t.error().code, Errc::Parse) << c.text;
        EXPECT_EQ(t.error().file, "bad.trace");
        EXPECT_EQ(t.error().line, c.line) << c.text << " -> " << t.error().to_string();
        EXPECT_NE(t.error().message.find(c.what), std::string::npos) << t.error().to_string();
    }
}

TEST(TraceRead, SimpleCsv) {
    auto t = parse_trace(
        "# a comment\nsubmit_s,duration_s,nodes,gpus_per_node,timelimit_s\n"
        "100,50,4,8,3600\n10,5,1,2,0\n\n",
        "t.csv");
    ASSERT_TRUE(t) << t.error().to_string();
    ASSERT_EQ(t->jobs.size(), 2u);
    EXPECT_EQ(t->jobs[0].line, 4);  // sorted by submit; times relative to the first
    EXPECT_EQ(t->jobs[0].submit_s, 0);
    EXPECT_EQ(t->jobs[1].submit_s, 90);
    EXPECT_EQ(t->jobs[1].timelimit_s, 3600);
    EXPECT_EQ(t->jobs[0].timelimit_s, 5);  // never below the duration
}

TEST(TraceRead, MissingFileIsIo) {
    auto t = read_trace_file(fx("no-such-trace.csv"));
    ASSERT_FALSE(t);
    EXPECT_EQ(t.error().code, Errc::Io);
}

// ---- generator ------------------------------------------------------------------------

GeneratorOptions gen_opts(std::uint64_t seed) {
    GeneratorOptions g;
    g.jobs = 5000;
    g.cluster_nodes = 512;
    g.gpus_per_node = 8;
    g.load = 0.85;
    g.seed = seed;
    return g;
}

bool same(const Trace& a, const Trace& b) {
    if (a.jobs.size() != b.jobs.size()) return false;
    for (std::size_t i = 0; i < a.jobs.size(); ++i) {
        const auto& x = a.jobs[i];
        const auto& y = b.jobs[i];
        if (x.submit_s != y.submit_s || x.duration_s != y.duration_s || x.nodes != y.nodes
            || x.gpus_per_node != y.gpus_per_node || x.timelimit_s != y.timelimit_s) {
            return false;
        }
    }
    return true;
}

TEST(Generator, DeterministicForASeed) {
    auto a = generate_trace(gen_opts(7));
    auto b = generate_trace(gen_opts(7));
    auto c = generate_trace(gen_opts(8));
    ASSERT_TRUE(a && b && c);
    EXPECT_TRUE(same(*a, *b));
    EXPECT_FALSE(same(*a, *c));
}

TEST(Generator, ShapeOfTheTrace) {
    auto t = generate_trace(gen_opts(11));
    ASSERT_TRUE(t);
    ASSERT_EQ(t->jobs.size(), 5000u);
    int single = 0;
    int multi = 0;
    int pow2 = 0;
    int partial = 0;
    int max_nodes = 0;
    std::vector<double> d;
    for (const auto& j : t->jobs) {
        ASSERT_GE(j.nodes, 1);
        ASSERT_GE(j.duration_s, 60);
        ASSERT_GE(j.timelimit_s, j.duration_s);
        max_nodes = std::max(max_nodes, j.nodes);
        d.push_back(j.duration_s);
        if (j.nodes == 1) {
            ++single;
            if (j.gpus_per_node < 8) ++partial;
        } else {
            ++multi;
            EXPECT_EQ(j.gpus_per_node, 8);
            if ((j.nodes & (j.nodes - 1)) == 0) ++pow2;
        }
    }
    EXPECT_LE(max_nodes, 128);  // min(512/4, 256)
    EXPECT_GT(max_nodes, 32);
    EXPECT_NEAR(single / 5000.0, 0.45, 0.03);
    EXPECT_NEAR(partial / static_cast<double>(single), 0.5, 0.05);
    EXPECT_GT(pow2 / static_cast<double>(multi), 0.85);  // 85 % by draw, plus in-between sizes that are powers of two
    // Long tail: the mean is well above the median (lognormal sigma 1.6).
    std::sort(d.begin(), d.end());
    double mean = 0;
    for (double x : d) mean += x;
    mean /= static_cast<double>(d.size());
    const double median = d[d.size() / 2];
    EXPECT_NEAR(median, 1800, 300);
    EXPECT_GT(mean, 2.5 * median);
    // Offered load over the submit span is the target (Poisson noise: a few percent).
    EXPECT_NEAR(offered_load(*t, 512), 0.85, 0.06);
}

TEST(Generator, EmpiricalDurations) {
    auto g = gen_opts(3);
    g.duration_samples = {100, 200, 300};
    auto t = generate_trace(g);
    ASSERT_TRUE(t);
    std::set<double> seen;
    for (const auto& j : t->jobs) seen.insert(j.duration_s);
    EXPECT_EQ(seen, (std::set<double>{100, 200, 300}));
}

TEST(Generator, RejectsImpossibleOptions) {
    auto g = gen_opts(1);
    g.cluster_nodes = 0;
    EXPECT_FALSE(generate_trace(g));
    g = gen_opts(1);
    g.load = 0;
    EXPECT_FALSE(generate_trace(g));
    g = gen_opts(1);
    g.jobs = 0;
    EXPECT_FALSE(generate_trace(g));
}

}  // namespace

namespace {

// Mutated real and sacct inputs (deterministic): every outcome is a trace or a Parse
// error with a line inside the text, never a crash (run under ASan/UBSan in the asan preset).
TEST(TraceRead, MutatedInputsGiveATraceOrALineNumberedError) {
    auto real = topo::whatif::read_trace_file(fx("alibaba-openb2023-pods-default.csv"));
    ASSERT_TRUE(real);
    std::string base_csv = "submit_s,duration_s,nodes,gpus_per_node,timelimit_s\n0,10,2,8,60\n5,20,1,4,60\n";
    const std::string bases[] = {kSacct, base_csv,
                                 "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,"
                                 "deletion_time,scheduled_time\np0,1,1,1,1000,,LS,Running,0,100,0\n"};
    Rng rng(42);
    const char alphabet[] = "|,:-.T0123456789\n#ax \t";
    int ok = 0;
    int errors = 0;
    for (const auto& base : bases) {
        for (int i = 0; i < 3000; ++i) {
            std::string s = base;
            const int edits = 1 + static_cast<int>(rng.uniform() * 4);
            for (int e = 0; e < edits && !s.empty(); ++e) {
                const auto pos = static_cast<std::size_t>(rng.uniform() * static_cast<double>(s.size()));
                const double op = rng.uniform();
                const char c = alphabet[static_cast<std::size_t>(rng.uniform() * (sizeof alphabet - 1))];
                if (op < 0.4) {
                    s[pos] = c;
                } else if (op < 0.7) {
                    s.insert(pos, 1, c);
                } else {
                    s.erase(pos, 1 + static_cast<std::size_t>(rng.uniform() * 8));
                }
            }
            auto t = parse_trace(s, "m.txt");
            if (t) {
                ++ok;
                for (const auto& j : t->jobs) {
                    ASSERT_GE(j.nodes, 1);
                    ASSERT_GE(j.duration_s, 0);
                    ASSERT_GE(j.submit_s, 0);
                }
            } else {
                ++errors;
                ASSERT_EQ(t.error().code, Errc::Parse) << s;
                ASSERT_GE(t.error().line, 1);
                ASSERT_LE(t.error().line, static_cast<int>(std::count(s.begin(), s.end(), '\n')) + 1) << s;
            }
        }
    }
    EXPECT_GT(ok, 100);
    EXPECT_GT(errors, 100);
}

}  // namespace
