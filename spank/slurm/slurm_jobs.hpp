// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file The running jobs' hosts through libslurm (slurm_load_jobs), for the cost policy of
/// topoplace-nodefeed's service (which jobs share which leaf groups' uplinks). Only the daemon
/// links it: the plugin never reads the job table.

#include <ctime>
#include <optional>
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

}  // namespace topo::spank
