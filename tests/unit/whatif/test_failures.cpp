// SPDX-License-Identifier: Apache-2.0
// Failure tables from tests/fixtures/failures: the Llama 3 405B figures give the rate.
#include <gtest/gtest.h>

#include <string>

#include <topo/whatif/failures.hpp>

namespace {

using topo::Errc;
using namespace topo::whatif;

std::string fx(const std::string& name) {
    return std::string(TOPO_FIXTURES) + "/failures/" + name;
}

TEST(Failures, Llama3Table5) {
    auto m = read_failure_table(fx("llama3-405b-unexpected-interruptions.csv"));
    ASSERT_TRUE(m) << m.error().to_string();
    EXPECT_EQ(m->events, 419);  // sum of interruption_count = 419, as the paper states
    EXPECT_EQ(m->exposure_gpus, 16384);
    EXPECT_EQ(m->exposure_hours, 54 * 24);
    EXPECT_DOUBLE_EQ(m->per_gpu_hour, 419.0 / (16384.0 * 54 * 24));
    ASSERT_EQ(m->causes.size(), 18u);
    EXPECT_EQ(m->causes[0].name, "Faulty GPU");
    EXPECT_EQ(m->causes[0].weight, 148);
    EXPECT_TRUE(m->causes[0].takes_node_down);
    // Software Bug (Dependency) and NCCL Watchdog Timeouts (Unknown) leave the node up.
    int soft = 0;
    for (const auto& c : m->causes) soft += c.takes_node_down ? 0 : static_cast<int>(c.weight);
    EXPECT_EQ(soft, 54 + 7 + 2);
    EXPECT_NE(m->summary.find("419"), std::string::npos);
}

TEST(Failures, Llama3SummaryGivesTheSameRate) {
    auto m = read_failure_table(fx("llama3-405b-interruption-summary.csv"));
    ASSERT_TRUE(m) << m.error().to_string();
    EXPECT_DOUBLE_EQ(m->per_gpu_hour, 419.0 / (16384.0 * 54 * 24));
    EXPECT_TRUE(m->causes.empty());
    // 54*24/419 = 3.09 h between interruptions on the whole 16,384-GPU cluster.
    EXPECT_NEAR(1.0 / (m->per_gpu_hour * 16384), 3.09, 0.01);
}

TEST(Failures, TablesWithoutARateAreRefusedAtTheirHeader) {
    struct Case {
        const char* file;
        int line;
        const char* what;
    };

    const Case cases[] = {
        {"crusoe-h200-gtc25-fault-causes.csv", 4, "no rate"},
        {"gpu-job-outcome-rates-by-cluster.csv", 3, "job outcome"},
        {"delta-ncsa-gpu-resilience-headlines.csv", 3, "no failure rate"},
    };
    for (const auto& c : cases) {
        auto m = read_failure_table(fx(c.file));
        ASSERT_FALSE(m) << c.file;
        EXPECT_EQ(m.error().code, Errc::Parse);
        EXPECT_EQ(m.error().line, c.line) << m.error().to_string();
        EXPECT_NE(m.error().message.find(c.what), std::string::npos) << m.error().to_string();
    }
}

TEST(Failures, GenericTableAndBadLines) {
    auto m = parse_failure_table(
        "# gpus: 1024\n# days: 10\ncause,category,count\nGPU fell off the bus,GPU,12\n"
        "driver,Software,3\n",
        "site.csv");
    ASSERT_TRUE(m) << m.error().to_string();
    EXPECT_DOUBLE_EQ(m->per_gpu_hour, 15.0 / (1024 * 240));
    EXPECT_FALSE(m->causes[1].takes_node_down);

    auto bad = parse_failure_table("# gpus: 8\n# days: 1\ncause,category,count\nx,GPU,1\ny,GPU,many\n", "site.csv");
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().line, 5);
    EXPECT_EQ(bad.error().file, "site.csv");
    auto short_row = parse_failure_table("# gpus: 8\n# days: 1\ncause,category,count\nx,GPU\n", "s.csv");
    ASSERT_FALSE(short_row);
    EXPECT_EQ(short_row.error().line, 4);
    auto no_exposure = parse_failure_table("cause,category,count\nx,GPU,1\n", "s.csv");
    ASSERT_FALSE(no_exposure);
    EXPECT_NE(no_exposure.error().message.find("exposure"), std::string::npos);
}

}  // namespace
