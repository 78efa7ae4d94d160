// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file Every difference between the Slurm releases topoplace supports (22.05, 24.11,
/// 26.05), in one place. The plugin (slurm/spank.h), topoplace-nodefeed and
/// slurm_nodes.cpp call these instead of the release's API, so no other file has an
/// `#if SLURM_VERSION_NUMBER`. The table of what changed, with sources: docs/spank.md
/// "Slurm releases". Each build of the plugin and the daemon is for exactly one release
/// (SPANK plugins must match Slurm's major.minor): TOPO_SLURM_RELEASE names it.

#include <cstdint>

extern "C" {
#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>
}

namespace topo::spank::compat {

/// "22.05", "24.11", "26.05": the release these headers belong to (from slurm_version.h).
[[nodiscard]] const char* release() noexcept;

/// slurm.conf's TopologyPlugin as the Slurm library in this process read it (libslurm's
/// `slurm_conf`, found with dlsym so that a process without it gets nullptr): "topology/tree",
/// "topology/topoplace", ...; nullptr when unknown or not loaded yet.
[[nodiscard]] const char* topology_plugin() noexcept;

/// Load libslurm's configuration (slurm_init(NULL): SLURM_CONF or the default slurm.conf)
/// in a program of our own, before its first RPC. Slurm's own processes (sbatch, slurmstepd)
/// have done it for the plugin. 22.05 read it lazily on first use; 26.05's client crashes
/// without it (seen: topoplace-nodefeed, SIGSEGV in its first slurm_load_node).
void init() noexcept;

/// The error of the last failed libslurm call: slurm_get_errno() up to 24.05 (gone in
/// 24.11.0); errno carries the same value in every release.
[[nodiscard]] int last_error() noexcept;

/// CPUs allocated on a node of slurm_load_node's answer: select_nodeinfo's
/// SELECT_NODEDATA_SUBCNT up to 24.11, node_info_t::alloc_cpus from 25.05.
[[nodiscard]] std::uint16_t alloc_cpus(const node_info_t& n) noexcept;

/// How a node's state flags that only some releases have read for placement.
enum class ExtraState : std::uint8_t {
    None,      ///< no such flag
    Blocked,   ///< NODE_STATE_BLOCKED (24.05+): healthy, blocked by another job's exclusive topology
    External,  ///< NODE_STATE_EXTERNAL (25.05+; bit 4, NODE_STATE_NET before 24.05): no slurmd
};
[[nodiscard]] ExtraState extra_state(const node_info_t& n) noexcept;

/// Drain NODE with REASON (the caller must be root or SlurmUser): 0, or the Slurm error.
/// update_node_msg_t::reason_uid is gone in 26.05 (slurmctld takes the caller's uid).
[[nodiscard]] int drain_node(const char* node, const char* reason) noexcept;

}  // namespace topo::spank::compat
