// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file The running jobs' hosts through libslurm (slurm_load_jobs), for the cost policy of
/// topoplace-nodefeed's service (which jobs share which leaf groups' uplinks); and the jobs
/// queued for nodes, for the SPANK plugin's plan at submission (docs/spank.md "Queued jobs").

#include <cstddef>
#include <ctime>
#include <optional>
#include <string_view>
#include <vector>

#include <topo/result.hpp>
#include <topo/topology.hpp>

namespace topo::spank {

/// The hosts of every running job on more than one host of `topo` (hosts it does not have are
/// left out), if the job table changed since `*last_update` (0 = always load), else
/// std::nullopt; on a load `*last_update` becomes the table's time. One slurm_load_jobs RPC
/// as the calling user (root sees every job, PrivateData or not). A NodeList that does not
/// expand within kMaxHostlistNames is skipped.
[[nodiscard]] Result<std::optional<std::vector<std::vector<HostId>>>> load_running_jobs_since(const Topology& topo,
                                                                                              std::time_t* last_update);

/// How many jobs are queued for nodes now in a partition a job submitted to `partitions`
/// (sbatch -p: "a,b"; "" = the default partition, where every queued job counts) could use:
/// pending, not held (priority 0), waiting for their turn or for nodes (reason None, Priority
/// or Resources: not a begin time, a dependency or a limit). Slurm considers them before a job submitted now
/// (it starts a new job at once only when no such job ranks above it). One slurm_load_jobs
/// RPC as the calling user: under PrivateData=jobs a user sees only their own jobs.
[[nodiscard]] Result<std::size_t> count_queued_jobs(std::string_view partitions);

}  // namespace topo::spank
