// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file From a placement on a topology to the model's inputs (PERF-MODEL 6.1).
///
/// Ranks are laid out Llama 3's way, [TP, CP, PP, DP] from innermost to outermost, on the
/// job's hosts in the order given (Slurm's node order), `gpus_per_host` ranks per host;
/// EP groups are `ep` consecutive DP replicas. For each class, the worst of its groups:
/// the highest model tier crossed (0 one NVLink domain, 1 one leaf group, 2 one pod, 3
/// several pods), the NVLink domains spanned and GPUs per domain. The tier the best
/// placement could not avoid is that of the hosts a group's rank range covers, packed
/// into the cluster's largest NVLink domain, leaf group and pod.

#include <cstdint>
#include <map>
#include <vector>

#include <topo/perf/model.hpp>
#include <topo/topology.hpp>

namespace topo::perf {

/// Pods: leaf groups joined below the top tier (lowest common tier <= 1); a fabric of
/// two tiers or fewer is one pod. Index = group index.
struct FabricShape {
    std::vector<int> pod_of_group;
    int pods = 0;
    int max_group_hosts = 0;
    int max_pod_hosts = 0;
    int max_domain_hosts = 1;  ///< usable hosts of the largest multi-node NVLink domain (1: none)
    bool nvl72 = false;
    /// per host id: its multi-node NVLink domain index (< 0: none, its own) and leaf group
    /// index (-1: none), read once here instead of through Host and Gpu per model call
    /// (empty in a hand-made shape: then features_of() reads the topology)
    std::vector<int> host_domain;
    std::vector<int> host_group;
};

[[nodiscard]] FabricShape fabric_shape(const Topology& t);

/// The model tier between two hosts.
[[nodiscard]] int model_tier(const Topology& t, const FabricShape& shape, HostId a, HostId b);

struct JobPlacement {
    std::vector<HostId> hosts;          ///< in rank order
    std::map<HostId, double> degraded;  ///< slowdown s of degraded hosts among them
};

/// Whose traffic uses the uplinks of each leaf group and pod (u_k's input, PERF-MODEL 6.2
/// row M_share): busy_group[g] when another running job spans several leaf groups and has
/// hosts in group g; busy_pod[p] likewise for jobs spanning several pods. Empty = none.
struct UplinkUse {
    std::vector<char> busy_group;  ///< by group index
    std::vector<char> busy_pod;    ///< by pod index (FabricShape::pod_of_group)
};

/// The distinct leaf groups and pods (FabricShape::pod_of_group, -1 where it has none) that
/// `hosts` span, each sorted; hosts without a leaf group are left out. The one reading of a
/// job's span for uplink_use() and placement's record_uplinks().
struct Span {
    std::vector<std::uint32_t> groups;
    std::vector<int> pods;
};

[[nodiscard]] Span span_of(const Topology& t, const FabricShape& shape, const std::vector<HostId>& hosts);

/// The uplink use of the running jobs `others` (each its hosts).
[[nodiscard]] UplinkUse uplink_use(const Topology& t, const FabricShape& shape,
                                   const std::vector<std::vector<HostId>>& others);

/// The model's inputs for `job` with layout `prof` (default_layout() applied), next to
/// running jobs whose uplink use is `use` (u_k: the share of the job's groups and pods
/// whose uplinks they use).
[[nodiscard]] Features features_of(const Topology& t, const FabricShape& shape, const JobPlacement& job,
                                   const Profile& prof, int gpus_per_host, const UplinkUse& use);

/// The same next to `others` (hosts of the other running jobs): features_of(..., uplink_use(others)).
[[nodiscard]] Features features_of(const Topology& t, const FabricShape& shape, const JobPlacement& job,
                                   const Profile& prof, int gpus_per_host,
                                   const std::vector<std::vector<HostId>>& others = {});

}  // namespace topo::perf
