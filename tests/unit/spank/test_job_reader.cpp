// SPDX-License-Identifier: Apache-2.0
// JobReader: topoplace-nodefeed's job-table read in a child process (issue 32 point 5).
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdint>
#include <fstream>
#include <initializer_list>
#include <string>
#include <thread>
#include <vector>

#include "job_reader.hpp"
#include <unistd.h>

namespace topo::spank {
namespace {

using namespace std::chrono_literals;

// The result of a read, waiting for it (the tests' only blocking: the daemon polls)
Result<JobTableRead> wait_for(JobReader& r, std::size_t hosts) {
    for (int i = 0; i < 2000; ++i) {
        if (auto got = r.poll(hosts)) return std::move(*got);
        std::this_thread::sleep_for(5ms);
    }
    ADD_FAILURE() << "no result in 10 s";
    return fail(Errc::Internal, "no result");
}

RunningJobs jobs_of(std::initializer_list<std::initializer_list<std::uint32_t>> ids) {
    RunningJobs out;
    for (const auto& j : ids) {
        out.emplace_back();
        for (const auto h : j) out.back().push_back(HostId{h});
    }
    return out;
}

long peak_rss_kb() {  // VmHWM of this process
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("VmHWM:", 0) == 0) return std::stol(line.substr(6));
    return -1;
}

TEST(JobReaderCodec, RoundTrips) {
    const RunningJobs jobs = jobs_of({{0, 1}, {5, 6, 7}});
    auto d = decode_job_table_read(encode_job_table_read(JobTableRead{jobs, 1234}), 8, 10);
    ASSERT_TRUE(d) << d.error().to_string();
    ASSERT_TRUE(d->jobs);
    EXPECT_EQ(*d->jobs, jobs);
    EXPECT_EQ(d->last_update, 1234);
    auto nc = decode_job_table_read(encode_job_table_read(JobTableRead{std::nullopt, 99}), 8, 10);
    ASSERT_TRUE(nc);
    EXPECT_FALSE(nc->jobs);
    EXPECT_EQ(nc->last_update, 99);
    auto e = decode_job_table_read(encode_job_table_read(fail(Errc::Io, "slurm_load_jobs: down")), 8, 10);
    ASSERT_FALSE(e);
    EXPECT_EQ(e.error().code, Errc::Io);
    EXPECT_EQ(e.error().message, "slurm_load_jobs: down");
}

TEST(JobReaderCodec, RefusesWhatDoesNotFitTheModel) {
    const std::string ok = encode_job_table_read(JobTableRead{jobs_of({{0, 1}, {2, 3}}), 1});
    EXPECT_TRUE(decode_job_table_read(ok, 4, 10));
    EXPECT_FALSE(decode_job_table_read(ok, 3, 10));  // host id 3 of 3
    EXPECT_FALSE(decode_job_table_read(ok, 4, 1));   // 2 jobs, at most 1
    for (std::size_t n = 0; n < ok.size(); ++n)      // every truncation
        EXPECT_FALSE(decode_job_table_read(std::string_view(ok).substr(0, n), 4, 10)) << n;
    EXPECT_FALSE(decode_job_table_read(ok + "x", 4, 10));
    EXPECT_FALSE(decode_job_table_read(encode_job_table_read(JobTableRead{jobs_of({{1}}), 1}), 4, 10));
    std::string lying = encode_job_table_read(JobTableRead{RunningJobs{}, 1});
    lying.replace(lying.size() - 4, 4, std::string("\xff\xff\xff\x0f", 4));  // a job count with nothing after it
    EXPECT_FALSE(decode_job_table_read(lying, 4, ~std::size_t{0}));
}

TEST(JobReader, AnswersWhileTheReadRunsAndGetsItsResult) {
    JobReader r;
    ASSERT_TRUE(r.start(
        [](std::time_t* lu) -> Result<std::optional<RunningJobs>> {
            std::this_thread::sleep_for(300ms);  // a slow slurm_load_jobs
            EXPECT_EQ(*lu, 42);
            *lu = 43;
            return std::optional<RunningJobs>(jobs_of({{1, 2}, {3, 4, 5}}));
        },
        42));
    EXPECT_TRUE(r.busy());
    EXPECT_FALSE(r.poll(8));  // the caller goes on: the child is still reading
    EXPECT_FALSE(r.start([](std::time_t*) { return Result<std::optional<RunningJobs>>(std::nullopt); }, 0));
    auto got = wait_for(r, 8);
    ASSERT_TRUE(got) << got.error().to_string();
    ASSERT_TRUE(got->jobs);
    EXPECT_EQ(got->jobs->size(), 2U);
    EXPECT_EQ(got->last_update, 43);
    EXPECT_FALSE(r.busy());
    EXPECT_GE(r.last_duration(), 300ms);
}

TEST(JobReader, TheTablesMemoryIsTheChildsNotTheDaemons) {
    const long before = peak_rss_kb();
    ASSERT_GT(before, 0);
    JobReader r;
    ASSERT_TRUE(r.start(
        [](std::time_t*) -> Result<std::optional<RunningJobs>> {
            std::vector<char> table(256U << 20, 'x');  // a 256 MiB job table, touched
            return std::optional<RunningJobs>(jobs_of({{0, table[12345] == 'x' ? 1U : 2U}}));
        },
        0));
    auto got = wait_for(r, 4);
    ASSERT_TRUE(got) << got.error().to_string();
    EXPECT_LT(peak_rss_kb() - before, 64 * 1024) << "the parent's peak RSS grew with the child's table";
}

TEST(JobReader, ReadErrorsDeathAndTimeoutsAreErrors) {
    JobReader r;
    ASSERT_TRUE(
        r.start([](std::time_t*) -> Result<std::optional<RunningJobs>> { return fail(Errc::Io, "no ctld"); }, 0));
    auto e = wait_for(r, 4);
    ASSERT_FALSE(e);
    EXPECT_EQ(e.error().message, "no ctld");

    ASSERT_TRUE(r.start(
        [](std::time_t*) -> Result<std::optional<RunningJobs>> {
            std::raise(SIGKILL);
            return std::optional<RunningJobs>{};
        },
        0));
    auto d = wait_for(r, 4);
    ASSERT_FALSE(d);
    EXPECT_NE(d.error().message.find("signal 9"), std::string::npos) << d.error().message;

    JobReader quick(JobReader::Limits{200ms, 1U << 20, 100});
    ASSERT_TRUE(quick.start(
        [](std::time_t*) -> Result<std::optional<RunningJobs>> {
            std::this_thread::sleep_for(30s);
            return std::optional<RunningJobs>{};
        },
        0));
    const pid_t child = quick.child();
    const auto t0 = std::chrono::steady_clock::now();
    auto t = wait_for(quick, 4);
    ASSERT_FALSE(t);
    EXPECT_NE(t.error().message.find("killed"), std::string::npos) << t.error().message;
    EXPECT_LT(std::chrono::steady_clock::now() - t0, 10s);
    EXPECT_NE(::kill(child, 0), 0);  // reaped, not left behind

    ASSERT_TRUE(r.start(
        [](std::time_t*) -> Result<std::optional<RunningJobs>> {
            return std::optional<RunningJobs>(jobs_of({{0, 9}}));  // a host the model does not have
        },
        0));
    auto h = wait_for(r, 4);
    ASSERT_FALSE(h);
    EXPECT_EQ(h.error().code, Errc::Parse);
}

TEST(JobReader, CancelAndDestructorReapTheChild) {
    pid_t child = -1;
    {
        JobReader r;
        ASSERT_TRUE(r.start(
            [](std::time_t*) -> Result<std::optional<RunningJobs>> {
                std::this_thread::sleep_for(30s);
                return std::optional<RunningJobs>{};
            },
            0));
        child = r.child();
        ASSERT_GT(child, 0);
    }
    EXPECT_NE(::kill(child, 0), 0);
}

}  // namespace
}  // namespace topo::spank
