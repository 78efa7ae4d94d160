// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file The job-table read of topoplace-nodefeed, off its request path (issue 32 point 5).
/// slurm_load_jobs is one synchronous RPC whose answer, and the unpacked table in memory, grow
/// with the whole job table, which users fill (pending jobs, long comments, paths). Read inline
/// on the daemon's one thread, nothing was answered and no feed written while it ran, and the
/// daemon's peak memory was the table's. JobReader runs the read in a forked child: the child
/// calls the read function, writes only its result (the host ids of the running multi-node
/// jobs) to an anonymous memory file (memfd) and exits; the daemon keeps serving and, when
/// the child has exited, reads that result with bounds (size, host ids, counts). A child past
/// its time limit is killed (SIGKILL), and dies with the daemon (PR_SET_PDEATHSIG). Slurm-free:
/// the read function is the caller's (the daemon passes load_running_jobs_since).

#include <chrono>
#include <cstddef>
#include <ctime>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <topo/result.hpp>
#include <topo/topology.hpp>

#include <sys/types.h>

namespace topo::spank {

/// Hosts of each running job on several hosts.
using RunningJobs = std::vector<std::vector<HostId>>;

/// One job-table read: the running multi-node jobs, or std::nullopt for "no change since
/// `last_update`"; `last_update` is the table's time after the read.
struct JobTableRead {
    std::optional<RunningJobs> jobs;
    std::time_t last_update = 0;
};

/// The read a child makes: `*last_update` in = the time of the last table read (0: a full
/// read), out = the new table's time; std::nullopt = no change.
using JobTableReadFn = std::function<Result<std::optional<RunningJobs>>(std::time_t* last_update)>;

/// The child's result as bytes, and back. Decoding refuses (Errc::Parse) a truncated or
/// oversized result, a host id >= host_count, a job of fewer than 2 or more than host_count
/// hosts, more than max_jobs jobs.
[[nodiscard]] std::string encode_job_table_read(const Result<JobTableRead>& r);
[[nodiscard]] Result<JobTableRead> decode_job_table_read(std::string_view bytes, std::size_t host_count,
                                                         std::size_t max_jobs);

class JobReader {
public:
    struct Limits {
        std::chrono::milliseconds time{30'000};  ///< the child is killed past this
        std::size_t max_bytes = 64U << 20;       ///< the result file, at most
        std::size_t max_jobs = 1U << 20;         ///< running multi-node jobs, at most
    };

    JobReader() = default;

    explicit JobReader(Limits limits) : limits_(limits) {}

    JobReader(const JobReader&) = delete;
    JobReader& operator=(const JobReader&) = delete;
    ~JobReader();  ///< kills and reaps a child still running

    [[nodiscard]] bool busy() const { return pid_ > 0; }

    [[nodiscard]] pid_t child() const { return pid_; }

    /// Forks a child that runs `read(&since)` and writes its result; the caller goes on at
    /// once. Refused (Errc::Busy) while a child runs; an error when fork or memfd_create fail.
    [[nodiscard]] Status start(const JobTableReadFn& read, std::time_t since);

    /// Never blocks (bar reaping a killed child): std::nullopt while the child runs; else its
    /// result, decoded against `host_count`, or why there is none (the child died, was killed
    /// past Limits::time, exited without a result). After a result, busy() is false.
    [[nodiscard]] std::optional<Result<JobTableRead>> poll(std::size_t host_count);

    /// Kills and reaps a child still running (its result is dropped: e.g. a new snapshot).
    void cancel();

    /// How long the last read took, from start() to its result.
    [[nodiscard]] std::chrono::milliseconds last_duration() const { return last_duration_; }

private:
    Limits limits_{};
    pid_t pid_ = -1;
    int memfd_ = -1;
    std::chrono::steady_clock::time_point started_{};
    std::chrono::milliseconds last_duration_{0};
    void reset();
};

}  // namespace topo::spank
