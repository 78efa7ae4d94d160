// SPDX-License-Identifier: Apache-2.0
// nccl-tests output as sites publish it (tests/fixtures/nccl-tests, PROVENANCE.md), and the
// calibration fit recovering known factors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include <topo/perf/nccl_tests.hpp>

namespace {

using namespace topo::perf;

std::string fx(const std::string& name) {
    return std::string(TOPO_FIXTURES) + "/nccl-tests/" + name;
}

TEST(NcclTests, EveryRealFileParses) {
    // rows: grep -cE '^[[:space:]>]*([0-9]+:[[:space:]]+)?[0-9]+[[:space:]]+[0-9]+[[:space:]]+(float|...)[[:space:]]'
    struct Want {
        const char* file;
        std::size_t rows;
        double avg;
        int ranks;
    };

    for (const Want& w :
         {Want{"deepops_nvidia-network-operator.md", 30, 53.7098, 0}, Want{"deepops_roce-perf-k8s.md", 29, 7.76739, 0},
          Want{"deepops_slurm-perf-cluster.md", 13, 113.289, 0},
          Want{"gct_gke-a3-highgpu_multi-node-test-plan.md", 10, 30.9622, -1},
          Want{"ocihpc_Troubleshooting.md", 5, 464.075, 16}, Want{"superbench_nccl_allgather.log", 34, 58.2651, 8},
          Want{"superbench_nccl_allreduce.log", 34, 68.4048, 8},
          Want{"superbench_nccl_alltoall.log", 34, 58.6481, 8}}) {
        auto runs = read_nccl_tests(fx(w.file));
        ASSERT_TRUE(runs) << w.file << ": " << runs.error().to_string();
        ASSERT_EQ(runs->size(), 1U) << w.file;
        const NcclRun& r = runs->front();
        EXPECT_EQ(r.rows.size(), w.rows) << w.file;
        EXPECT_DOUBLE_EQ(r.avg_busbw, w.avg) << w.file;
        if (w.ranks >= 0) {
            EXPECT_EQ(r.ranks, w.ranks) << w.file;
        }
        for (std::size_t i = 1; i < r.rows.size(); ++i) EXPECT_GE(r.rows[i].bytes, r.rows[i - 1].bytes) << w.file;
    }
    auto oci = read_nccl_tests(fx("ocihpc_Troubleshooting.md"));
    ASSERT_TRUE(oci);
    EXPECT_EQ(oci->front().hosts, (std::vector<std::string>{"h100-ord01-03-14", "h100-ord01-03-294"}));
    EXPECT_DOUBLE_EQ(oci->front().rows.front().bytes, 1073741824.0);
    EXPECT_DOUBLE_EQ(oci->front().rows.front().busbw_out, 449.51);
    EXPECT_DOUBLE_EQ(oci->front().rows.front().busbw_in, 451.03);
    // the old layout: no root column, an `error` column; alltoall with a blank redop
    auto a2a = read_nccl_tests(fx("superbench_nccl_alltoall.log"));
    ASSERT_TRUE(a2a);
    EXPECT_DOUBLE_EQ(a2a->front().rows[5].bytes, 32.0);
}

TEST(NcclTests, LauncherPrefixesAndSeveralTables) {
    const std::string text =
        " 0: # nThread 1 nGpus 1 minBytes 1073741824 maxBytes 2147483648 step: 2(factor) warmup iters: 5 iters: 20\n"
        " 0: #  Rank  0 Group  0 Pid 1 on node005 device  0 [0x18] NVIDIA H100 80GB HBM3\n"
        " 0: #  Rank  8 Group  0 Pid 2 on node007 device  0 [0x18] NVIDIA H100 80GB HBM3\n"
        " 0: #       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   "
        "busbw #wrong\n"
        " 0:   1073741824     268435456     float     sum      -1   4478.8  239.74  449.51    N/A   4463.7  240.55  "
        "451.03    N/A\n"
        " 0:   2147483648     536870912     float     sum      -1   8722.7  246.20  461.62    N/A   8717.9  246.33  "
        "461.87    N/A\n"
        " 0: # Avg bus bandwidth    : 455.5\n"
        " 0:\n"
        "[1,0]<stdout>:#       size         count      type   redop    root     time   algbw   busbw #wrong     time   "
        "algbw   busbw #wrong\n"
        "[1,0]<stdout>:  1073741824     268435456     float     sum      -1   4478.8  239.74  400.00      0   4463.7  "
        "240.55  401.00      0\n";
    auto runs = parse_nccl_tests(text, "labelled.txt");
    ASSERT_TRUE(runs) << runs.error().to_string();
    ASSERT_EQ(runs->size(), 2U);
    EXPECT_EQ((*runs)[0].rows.size(), 2U);
    EXPECT_EQ((*runs)[0].ranks, 2);
    EXPECT_EQ((*runs)[0].hosts, (std::vector<std::string>{"node005", "node007"}));
    EXPECT_DOUBLE_EQ((*runs)[0].avg_busbw, 455.5);
    EXPECT_DOUBLE_EQ((*runs)[1].rows[0].busbw_out, 400.0);
    EXPECT_EQ((*runs)[1].rows[0].line, 10);
}

TEST(NcclTests, RefusedInputNamesTheLine) {
    auto not_nccl = read_nccl_tests(std::string(TOPO_FIXTURES) + "/ibnetdiscover/ufm-lab-small.ibnetdiscover.txt");
    ASSERT_FALSE(not_nccl);
    EXPECT_EQ(not_nccl.error().code, topo::Errc::Parse);
    EXPECT_EQ(not_nccl.error().line, 1);
    EXPECT_NE(not_nccl.error().message.find("not nccl-tests output"), std::string::npos);
    const std::string cut =
        "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw "
        "#wrong\n"
        "  1073741824     268435456     float     sum      -1   4478.8  239.74  449.51      0   4463.7  240.55  451.03 "
        "     0\n"
        "  2147483648     536870912     float     sum      -1   8722.7\n";
    auto r = parse_nccl_tests(cut, "cut.txt");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().file, "cut.txt");
    EXPECT_EQ(r.error().line, 3);
    EXPECT_NE(r.error().message.find("4 or 8 time/algbw/busbw/error columns"), std::string::npos) << r.error().message;
    const std::string nan =
        "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw "
        "#wrong\n"
        "  1073741824     268435456     float     sum      -1   4478.8  239.74  fast      0   4463.7  240.55  451.03   "
        "   0\n";
    auto n = parse_nccl_tests(nan, "nan.txt");
    ASSERT_FALSE(n);
    EXPECT_EQ(n.error().line, 2);
}

/// (bytes, out-of-place busbw) of every row of a file, read with nothing but a split on
/// blanks: the rows' own numbers, to check the parser and the fit against.
std::map<double, double> own_busbw(const std::string& path, std::size_t busbw_column) {
    std::ifstream in(path);
    std::map<double, double> m;
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream ws(line);
        std::vector<std::string> w;
        for (std::string x; ws >> x;) w.push_back(x);
        if (w.size() > busbw_column && w[2] == "float" && w[0].find_first_not_of("0123456789") == std::string::npos) {
            m[std::stod(w[0])] = std::stod(w[busbw_column]);
        }
    }
    return m;
}

bool has_note(const std::vector<std::string>& notes, const std::string& part) {
    return std::ranges::any_of(notes, [&](const std::string& n) { return n.find(part) != std::string::npos; });
}

TEST(NcclTests, EveryFixtureInTheTreeIsRead) {
    // every nccl-tests file we hold, ours and copied, and ../shared's when it is there
    std::vector<std::string> dirs{std::string(TOPO_FIXTURES) + "/nccl-tests"};
    const std::string shared = std::string(TOPO_FIXTURES) + "/../../../shared/fixtures/nccl-tests";
    if (std::filesystem::is_directory(shared)) dirs.push_back(shared);
    int files = 0;
    for (const auto& d : dirs) {
        for (const auto& e : std::filesystem::directory_iterator(d)) {
            if (!e.is_regular_file()) continue;
            ++files;
            const std::string name = e.path().filename().string();
            std::vector<std::string> notes;
            auto runs = read_nccl_tests(e.path().string(), &notes);
            ASSERT_TRUE(runs) << name << ": " << runs.error().to_string();
            ASSERT_FALSE(runs->empty()) << name;
            for (const auto& r : *runs) {
                EXPECT_FALSE(r.rows.empty()) << name;
                for (std::size_t i = 1; i < r.rows.size(); ++i) {
                    EXPECT_GE(r.rows[i].bytes, r.rows[i - 1].bytes) << name;
                    EXPECT_GT(r.rows[i].line, r.rows[i - 1].line) << name;
                }
            }
        }
    }
    EXPECT_GE(files, 10);
}

TEST(NcclTests, MpirunTagOutputAnywhereInALine) {
    // ours: the OCI run of ocihpc_Troubleshooting.md as `mpirun --tag-output` prints it, with
    // the tag inside rows (PROVENANCE.md); every number must come out as in the original
    std::vector<std::string> notes;
    auto tagged = read_nccl_tests(fx("topoplace-mpirun-tag-output-oci-h100x16.log"), &notes);
    ASSERT_TRUE(tagged) << tagged.error().to_string();
    auto plain = read_nccl_tests(fx("ocihpc_Troubleshooting.md"));
    ASSERT_TRUE(plain);
    ASSERT_EQ(tagged->size(), 1U);
    const NcclRun& t = tagged->front();
    const NcclRun& p = plain->front();
    ASSERT_EQ(t.rows.size(), p.rows.size());
    for (std::size_t i = 0; i < t.rows.size(); ++i) {
        EXPECT_DOUBLE_EQ(t.rows[i].bytes, p.rows[i].bytes) << i;
        EXPECT_DOUBLE_EQ(t.rows[i].busbw_out, p.rows[i].busbw_out) << i;
        EXPECT_DOUBLE_EQ(t.rows[i].busbw_in, p.rows[i].busbw_in) << i;
    }
    EXPECT_EQ(t.ranks, 16);
    EXPECT_EQ(t.hosts, p.hosts);
    EXPECT_DOUBLE_EQ(t.avg_busbw, 464.075);
    // the row cut by rank 8's line starts at line 29 and ends on line 30
    EXPECT_EQ(t.rows[2].line, 29);
    EXPECT_TRUE(has_note(notes, "--tag-output")) << ::testing::PrintToString(notes);
    EXPECT_TRUE(has_note(notes, "3 in the middle of a line")) << ::testing::PrintToString(notes);
    // <stderr> tags, a timestamp or a launcher's words before the tag
    const std::string text =
        "Thu Jan 23 11:55:50 2025[1,1]<stderr>:warning: something\n"
        "(head, rank=0, pid=3808) [1,0]<stdout>:#       size         count      type   redop    root     time   "
        "algbw   busbw #wrong     time   algbw   busbw #wrong\n"
        "(head, rank=0, pid=3808) [1,0]<stdout>:  1073741824     268435456     float     sum      -1[1,0]<stdout>:  "
        " 4478.8  239.74  449.51      0   4463.7  240.55  451.03      0\n";
    std::vector<std::string> n2;
    auto r = parse_nccl_tests(text, "ray.log", &n2);
    ASSERT_TRUE(r) << r.error().to_string();
    ASSERT_EQ(r->front().rows.size(), 1U);
    EXPECT_DOUBLE_EQ(r->front().rows[0].busbw_in, 451.03);
}

TEST(NcclTests, WrappedRankListIsSkippedAndSaid) {
    // ours: two DeepOps runs on one Markdown page, each device list wrapped onto lines of
    // bare numbers (PROVENANCE.md)
    const std::string page = fx("topoplace-markdown-wrapped-rank-list-dgxa100.md");
    std::vector<std::string> notes;
    auto runs = read_nccl_tests(page, &notes);
    ASSERT_TRUE(runs) << runs.error().to_string();
    ASSERT_EQ(runs->size(), 2U);
    EXPECT_EQ((*runs)[0].rows.size(), 30U);
    EXPECT_EQ((*runs)[1].rows.size(), 13U);
    EXPECT_DOUBLE_EQ((*runs)[0].avg_busbw, 53.7098);
    EXPECT_DOUBLE_EQ((*runs)[1].avg_busbw, 113.289);
    EXPECT_EQ((*runs)[1].rows.front().line, 58);
    EXPECT_TRUE(has_note(notes, "lines 52-53")) << ::testing::PrintToString(notes);
    EXPECT_TRUE(has_note(notes, "bare numbers")) << ::testing::PrintToString(notes);
    // the numbers are those of the two pages they come from
    const auto a = own_busbw(fx("deepops_nvidia-network-operator.md"), 6);
    const auto b = own_busbw(fx("deepops_slurm-perf-cluster.md"), 6);
    ASSERT_EQ(a.size(), 30U);
    ASSERT_EQ(b.size(), 13U);
    for (const auto& row : (*runs)[0].rows) EXPECT_DOUBLE_EQ(row.busbw_out, a.at(row.bytes));
    for (const auto& row : (*runs)[1].rows) EXPECT_DOUBLE_EQ(row.busbw_out, b.at(row.bytes));
}

TEST(NcclTests, BareNumbersAfterARowAreStillACutRow) {
    // a row cut after size and count is not a wrapped list: refused at its line
    const std::string cut =
        "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw "
        "#wrong\n"
        "  1073741824     268435456     float     sum      -1   4478.8  239.74  449.51      0   4463.7  240.55  451.03 "
        "     0\n"
        "  2147483648     536870912\n";
    auto r = parse_nccl_tests(cut, "cut2.txt");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().line, 3);
}

TEST(NcclTests, MarkdownPipeTable) {
    // a results page that turned the table into a Markdown table (the OCI figures)
    const std::string text =
        "| size | count | type | redop | root | time | algbw | busbw | #wrong | time | algbw | busbw | #wrong |\n"
        "|---:|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
        "| 1073741824 | 268435456 | float | sum | -1 | 4478.8 | 239.74 | 449.51 | 0 | 4463.7 | 240.55 | 451.03 | 0 |\n"
        "| 2147483648 | 536870912 | float | sum | -1 | 8722.7 | 246.20 | 461.62 | 0 | 8717.9 | 246.33 | 461.87 | 0 |\n";
    auto r = parse_nccl_tests(text, "pipes.md");
    ASSERT_TRUE(r) << r.error().to_string();
    ASSERT_EQ(r->front().rows.size(), 2U);
    EXPECT_DOUBLE_EQ(r->front().rows[1].busbw_out, 461.62);
    EXPECT_DOUBLE_EQ(r->front().rows[1].busbw_in, 461.87);
}

/// A table whose busbw at each size is `base[size] / factor`.
std::string table(const std::map<double, double>& base, double factor) {
    std::string t =
        "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw "
        "#wrong\n";
    for (const auto& [bytes, bw] : base) {
        char line[256];
        const double b = bw / factor;
        std::snprintf(
            line, sizeof line,
            "  %10.0f  %12.0f     float     sum      -1   1000.0  %6.2f  %6.2f      0   1000.0  %6.2f  %6.2f      0\n",
            bytes, bytes / 4, b / 2, b, b / 2, b);
        t += line;
    }
    return t;
}

Measurement measure(const std::string& label, const std::string& text) {
    auto runs = parse_nccl_tests(text, label);
    EXPECT_TRUE(runs) << (runs ? "" : runs.error().to_string());
    return Measurement{label, label, runs ? runs->front() : NcclRun{}};
}

TEST(Calibrate, RecoversKnownFactors) {
    // bus bandwidths written for this test (not measurements): 64 MiB .. 8 GiB
    const std::map<double, double> leaf{{67108864.0, 330.0},   {134217728.0, 345.0},  {268435456.0, 352.0},
                                        {536870912.0, 356.0},  {1073741824.0, 366.0}, {2147483648.0, 375.0},
                                        {4294967296.0, 381.0}, {8589934592.0, 387.0}, {1048576.0, 40.0}};
    const Measurement l = measure("leaf", table(leaf, 1.0));
    const Measurement p = measure("pod", table(leaf, 1.05));
    const Measurement x = measure("cross-pod", table(leaf, 1.25));
    const Measurement s = measure("shared", table(leaf, 1.05 * 1.3));
    auto c = calibrate(Params{}, l, &p, &x, &s);
    ASSERT_TRUE(c) << c.error().to_string();
    ASSERT_EQ(c->fits.size(), 3U);
    EXPECT_NEAR(c->params.tier_collective[2], 1.05, 0.002);
    EXPECT_NEAR(c->params.tier_collective[3], 1.25, 0.002);
    EXPECT_NEAR(c->params.kappa[0], 0.3, 0.003);
    EXPECT_EQ(c->fits[0].points.size(), 8U) << "sizes below 64 MiB are left out";
    for (const auto& f : c->fits) EXPECT_LT(f.max_abs_residual, 0.01) << f.what;
    // the model file it prints reads back to the same values
    auto again = parse_params(write_params(c->params), "fitted.yaml");
    ASSERT_TRUE(again) << again.error().to_string();
    EXPECT_NEAR(again->tier_collective[3], c->params.tier_collective[3], 1e-5);
    // only the baseline: nothing fitted, three notes
    auto none = calibrate(Params{}, l, nullptr, nullptr, nullptr);
    ASSERT_TRUE(none);
    EXPECT_TRUE(none->fits.empty());
    EXPECT_GE(none->notes.size(), 3U);
}

TEST(Calibrate, PublishedMultiNodeRunsFitTheirOwnBusbwRatios) {
    // Two published multi-node runs (DeepOps, DGX A100 on HDR: 2 nodes as the baseline, 4
    // nodes measured): the fitted factor is the geometric mean of their own busbw ratios at
    // the common sizes >= 64 MiB, each point is one of those ratios; the same runs read from
    // our wrapped page give the same fit, and the tagged OCI run fits its original at 1.
    const auto a = own_busbw(fx("deepops_nvidia-network-operator.md"), 6);
    const auto b = own_busbw(fx("deepops_slurm-perf-cluster.md"), 6);
    double log_sum = 0;
    int n = 0;
    std::map<double, double> ratio;
    for (const auto& [bytes, bw] : b) {
        if (bytes < 64.0 * 1024 * 1024 || !a.contains(bytes)) continue;
        ratio[bytes] = a.at(bytes) / bw;
        log_sum += std::log(ratio[bytes]);
        ++n;
    }
    ASSERT_EQ(n, 7);
    const double want = std::exp(log_sum / n);
    auto run_of = [](const std::string& file, std::size_t which) {
        auto runs = read_nccl_tests(fx(file));
        EXPECT_TRUE(runs) << file;
        return runs && runs->size() > which ? (*runs)[which] : NcclRun{};
    };
    const Measurement leaf{"leaf", "2 nodes", run_of("deepops_nvidia-network-operator.md", 0)};
    const Measurement pod{"pod", "4 nodes", run_of("deepops_slurm-perf-cluster.md", 0)};
    auto c = calibrate(Params{}, leaf, &pod, nullptr, nullptr);
    ASSERT_TRUE(c) << c.error().to_string();
    ASSERT_EQ(c->fits.size(), 1U);
    EXPECT_NEAR(c->fits[0].value, want, 1e-12);
    ASSERT_EQ(c->fits[0].points.size(), 7U);
    for (const auto& p : c->fits[0].points) EXPECT_NEAR(p.ratio, ratio.at(p.bytes), 1e-12) << p.bytes;
    const Measurement leaf2{"leaf", "page@1", run_of("topoplace-markdown-wrapped-rank-list-dgxa100.md", 0)};
    const Measurement pod2{"pod", "page@2", run_of("topoplace-markdown-wrapped-rank-list-dgxa100.md", 1)};
    auto c2 = calibrate(Params{}, leaf2, &pod2, nullptr, nullptr);
    ASSERT_TRUE(c2) << c2.error().to_string();
    EXPECT_NEAR(c2->fits[0].value, want, 1e-12);
    const Measurement oci{"leaf", "oci", run_of("ocihpc_Troubleshooting.md", 0)};
    const Measurement tagged{"pod", "tagged", run_of("topoplace-mpirun-tag-output-oci-h100x16.log", 0)};
    auto c3 = calibrate(Params{}, oci, &tagged, nullptr, nullptr, 1024.0 * 1024 * 1024);
    ASSERT_TRUE(c3) << c3.error().to_string();
    EXPECT_EQ(c3->fits[0].points.size(), 5U);
    EXPECT_DOUBLE_EQ(c3->fits[0].value, 1.0);
}

TEST(Calibrate, NoCommonSizeIsAnError) {
    const Measurement l = measure("leaf", table({{67108864.0, 330.0}}, 1.0));
    const Measurement p = measure("pod", table({{134217728.0, 330.0}}, 1.0));
    auto c = calibrate(Params{}, l, &p, nullptr, nullptr);
    ASSERT_FALSE(c);
    EXPECT_EQ(c.error().code, topo::Errc::InvalidArgument);
    EXPECT_NE(c.error().message.find("no message size >= 64 MiB in common"), std::string::npos) << c.error().message;
}

}  // namespace
