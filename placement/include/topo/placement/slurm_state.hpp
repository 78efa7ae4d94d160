// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file ClusterState from Slurm's text: `scontrol show nodes --oneliner` (and the Gres= /
/// GresUsed= / AllocTRES= values slurm_load_node gives too), and the small JSON state. The
/// overlay itself is state.hpp.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <topo/placement/state.hpp>
#include <topo/result.hpp>
#include <topo/topology.hpp>

namespace topo::placement {

/// The job's side of the same grammars (sbatch options, as the plugin reads them):
/// "[type:]N" (--gpus-per-node, --gpus) -> N; nullopt when not a count (0..1000000).
[[nodiscard]] std::optional<int> request_gpu_count(std::string_view v);
/// --gres: "gpu:8", "gres:gpu:h100:8", "gres/gpu:8", "gpu" (one), "gpu:h100" (one), lists
/// -> the summed gpu count, 0 when no gpu entry; nullopt for a bad count.
[[nodiscard]] std::optional<int> request_gres_gpus(std::string_view v);
/// GPUs in a Slurm Gres= / GresUsed= value ("gpu:8(S:0-1)", "gpu:h100:4(IDX:0-3),shard:2",
/// "(null)"), as `scontrol show nodes` and slurm_load_node give it: nullopt when it has no
/// gpu entry; an Errc::InvalidArgument error over kMaxHostGpus. `idx`, when given, receives
/// the IDX: indices.
[[nodiscard]] Result<std::optional<int>> gres_gpu_count(std::string_view v, std::vector<int>* idx = nullptr);

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
