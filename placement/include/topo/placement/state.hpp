// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file ClusterState: the live overlay on an immutable Topology (busy, drained,
/// down, unhealthy, free GPUs). Never stored in the Topology itself.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <topo/ids.hpp>
#include <topo/result.hpp>
#include <topo/topology.hpp>

namespace topo::placement {

/// Slurm-like node state, reduced to what placement needs.
enum class NodeState : std::uint8_t { Idle, Mixed, Alloc, Drain, Down, Unknown };
[[nodiscard]] const char* node_state_name(NodeState s) noexcept;

struct HostState {
    NodeState state = NodeState::Idle;
    int free_gpus = -1;          ///< -1 = all the host's GPUs are free
    bool unhealthy = false;      ///< flagged by the health store
    std::string reason;          ///< drain/health reason, if any
    int total_gpus = -1;         ///< GPUs the host has (-1 = as many as the topology knows);
                                 ///< set from scontrol Gres= when the snapshot has no GPUs
    std::vector<int> busy_gpus;  ///< GPU indices known in use (GresUsed IDX:), sorted
};

class ClusterState {
public:
    /// Every host idle, every GPU free, bound to `topo` (by fingerprint).
    explicit ClusterState(const Topology& topo);

    [[nodiscard]] HostState& at(HostId h) { return hosts_.at(h.index()); }

    [[nodiscard]] const HostState& at(HostId h) const { return hosts_.at(h.index()); }

    [[nodiscard]] std::size_t size() const noexcept { return hosts_.size(); }

    [[nodiscard]] const std::string& fingerprint() const noexcept { return fingerprint_; }

    /// GPUs free on a host now (the host's GPU count when free_gpus == -1).
    [[nodiscard]] int free_gpus(const Topology& topo, HostId h) const;
    /// GPUs the host has (HostState::total_gpus, else the topology's count).
    [[nodiscard]] int total_gpus(const Topology& topo, HostId h) const;
    /// Can the host take work at all (not drained/down/unknown/unhealthy)? Busy
    /// (alloc/mixed) hosts are "available" here; place() decides what fits on them.
    [[nodiscard]] bool available(HostId h) const;

private:
    std::vector<HostState> hosts_;
    std::string fingerprint_;
};

/// Parse `scontrol show nodes --oneliner` text. Hosts absent from the text keep their
/// default (idle); names not in the topology are reported as warnings, not errors.
/// Parse errors name `file` and the 1-based line.
[[nodiscard]] Result<ClusterState> parse_scontrol_nodes(const Topology& topo, std::string_view text,
                                                        std::string_view file,
                                                        std::vector<std::string>* warnings = nullptr);
/// Parse {"hosts": {"NAME": {"state": "idle|alloc|mixed|drain|down", "free_gpus": N}}}.
[[nodiscard]] Result<ClusterState> parse_state_json(const Topology& topo, std::string_view text, std::string_view file,
                                                    std::vector<std::string>* warnings = nullptr);

}  // namespace topo::placement
