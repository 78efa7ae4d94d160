// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file Live node state from slurmctld through libslurm (slurm_load_node), shared by the
/// SPANK plugin (Slurm's symbols resolve from the host process) and topoplace-nodefeed
/// (linked with -lslurm).

#include <cstdint>
#include <ctime>
#include <optional>

#include <topo/placement/state.hpp>
#include <topo/result.hpp>
#include <topo/topology.hpp>

namespace topo::spank {

/// The node table as slurmctld has it now: one slurm_load_node RPC, as the calling user.
[[nodiscard]] Result<placement::ClusterState> load_node_state(const Topology& topo);

/// The node table if it changed since `*last_update` (slurm_load_node's update_time; 0 =
/// always load), else std::nullopt (slurmctld answered "no change in data", which costs it a
/// comparison and the client no unpacking). On a load, `*last_update` becomes the table's
/// time.
[[nodiscard]] Result<std::optional<placement::ClusterState>> load_node_state_since(const Topology& topo,
                                                                                   std::time_t* last_update);

/// CLOCK_REALTIME in nanoseconds.
[[nodiscard]] std::int64_t realtime_ns();

}  // namespace topo::spank
