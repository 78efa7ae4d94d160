// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file The jobs running now and what their placement costs (issue 16 item 6,
/// `topoplace status`): `scontrol show jobs` text read into RunningJob, then each job's
/// predicted slowdown on its hosts next to the other running jobs, what the best placement
/// for it now would cost, and the cluster's GPU-hours per hour lost to placement and to
/// degraded hosts. Pure functions of their inputs (no I/O, no clock).

#include <chrono>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <topo/perf/features.hpp>
#include <topo/perf/model.hpp>
#include <topo/placement/place.hpp>
#include <topo/placement/state.hpp>
#include <topo/result.hpp>
#include <topo/topology.hpp>

namespace topo::placement {

/// A job in state RUNNING, as `scontrol show jobs [--oneliner]` prints it.
struct RunningJob {
    std::string id;             ///< JobId
    std::string name;           ///< JobName
    std::string user;           ///< UserId, as printed ("alice(1001)")
    std::string nodelist;       ///< NodeList, as printed
    std::vector<HostId> hosts;  ///< NodeList's hosts that the topology has, in its order
    int unknown_hosts = 0;      ///< NodeList's hosts the topology does not have
    int gpus = 0;               ///< GPUs allocated (AllocTRES= or TRES= gres/gpu), 0 = not stated
    std::string start;          ///< StartTime, as printed
    int line = 0;               ///< 1-based line of its JobId= (text form; 0 from JSON)
};

/// Running jobs from Slurm's job table: `squeue --json` or `scontrol show jobs --json`
/// output of any supported release (a document starting with '{': parse_slurm_jobs_json),
/// else `scontrol show jobs [--oneliner]` text (a job's continuation lines indented). Other
/// states are skipped; "No jobs in the system" is an empty list. The table is user input
/// (names, comments, commands and paths are free text): a record that cannot be read is
/// skipped with a warning naming it, never the whole table. In the text form a record in
/// which a field read here appears twice (user text posing as fields) is skipped; only the
/// JSON form is free of that ambiguity. Errc::Parse only for a file that is not a job table
/// (file:line). Jobs whose hosts are all unknown to the topology are skipped with a warning.
/// Names and users come back as printable UTF-8 (printable_utf8).
[[nodiscard]] Result<std::vector<RunningJob>> parse_scontrol_jobs(const Topology& topo, std::string_view text,
                                                                  std::string_view file,
                                                                  std::vector<std::string>* warnings = nullptr);

/// `squeue --json` / `scontrol show jobs --json` (openapi/v0.0.38 on 22.05, data_parser
/// v0.0.42 on 24.11, v0.0.45 on 26.05): job_state a string or an array, counts plain or
/// {"set","infinite","number"}. Bytes that are not UTF-8 (Slurm copies a user's bytes into
/// its strings) are read as '?'. Only the fields read are kept in memory.
[[nodiscard]] Result<std::vector<RunningJob>> parse_slurm_jobs_json(const Topology& topo, std::string_view text,
                                                                    std::string_view file,
                                                                    std::vector<std::string>* warnings = nullptr);

/// One running job's cost.
struct JobCost {
    std::size_t job = 0;  ///< index into the jobs given
    int gpus = 0;         ///< GPUs it holds (stated, else its hosts' GPUs)
    int gpus_per_host = 0;
    int tier = 0;        ///< highest switch tier its hosts cross
    int groups = 0;      ///< leaf groups its hosts span
    perf::Slowdown now;  ///< on its hosts, next to the other running jobs
    /// S_job of the placement the cost policy chooses for the same request on today's state
    /// with this job's hosts given back (the best it could have now); 0 = none fits.
    double best_now = 0;
    bool best_skipped = false;  ///< best_now not searched: assess_running's deadline had passed
    double lost_gpus = 0;       ///< GPUs x (1 - 1/S_job): GPU-hours per hour lost to placement
    double degraded_gpus = 0;   ///< the part of lost_gpus due to degraded hosts: GPUs x S_net (S_deg - 1) / S_job
};

struct ClusterCost {
    std::vector<JobCost> jobs;
    int running_gpus = 0;
    double lost_gpus = 0;         ///< sum over jobs: GPU-hours per hour lost to placement (degraded included)
    double degraded_gpus = 0;     ///< ... of which due to degraded hosts
    double recoverable_gpus = 0;  ///< sum of GPUs x (1/best_now - 1/S_job) where best_now < S_job
    int best_skipped = 0;         ///< jobs whose best_now was not searched (the deadline had passed)
};

/// Record (sign +1) or take off (-1) a running job on `hosts` in the uplink counts the cost
/// policy reads (ClusterState::add_uplink_users): a job spanning several leaf groups uses
/// the uplinks of each, and is counted multi-pod when it spans several pods. One-group jobs
/// change nothing. Returns whether the job spans several leaf groups (was counted).
bool record_uplinks(const Topology& t, const perf::FabricShape& shape, ClusterState& state,
                    const std::vector<HostId>& hosts, int sign);

/// record_uplinks(+1) for the hosts of every running job (`topoplace place --jobs`, the
/// service of topoplace-nodefeed): returns how many span several leaf groups.
int record_running_uplinks(const Topology& t, const perf::FabricShape& shape, ClusterState& state,
                           const std::vector<std::vector<HostId>>& jobs);
/// The same on `placer`'s topology and fabric shape.
int record_running_uplinks(const Placer& placer, ClusterState& state, const std::vector<std::vector<HostId>>& jobs);

/// Cost of every running job on `placer`'s topology. `state` is the cluster as it is
/// (busy hosts of the jobs included; degraded hosts with their HostState::slowdown).
/// Each job's slowdown where it runs costs a walk of its hosts; its best_now costs one
/// placement search. Past `best_until` no more searches are made (JobCost::best_skipped,
/// ClusterCost::best_skipped), so the time is bounded however many jobs the table holds;
/// everything else is computed for every job.
[[nodiscard]] ClusterCost assess_running(
    const Placer& placer, const ClusterState& state, const std::vector<RunningJob>& jobs, const perf::Params& params,
    std::chrono::steady_clock::time_point best_until = std::chrono::steady_clock::time_point::max());

}  // namespace topo::placement
