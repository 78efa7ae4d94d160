// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file gres.conf lines for GPUs (Slurm 22.05+), with Links= from the NVLink matrix.
///
/// Slurm's Links= (gres.conf(5)): per GPU, a comma list with one number per GPU of the
/// node in index order: -1 for the GPU itself, the number of links to that peer, 0 for
/// none; a line with Links= must name a single device (one File). Slurm prefers
/// better-linked GPUs when it picks GPUs inside a node. Hosts whose GPU layout (count,
/// type, files, links) is identical share one line per GPU with a compressed hostlist.
/// Hosts without any NVLink information get one `File=/dev/nvidia[0-N]` line and no
/// Links. Cores= is not written: the model knows a GPU's NUMA node but not which core
/// ids belong to it (AutoDetect=nvml fills Cores on real nodes).

#include <string>
#include <vector>

#include <topo/result.hpp>
#include <topo/topology.hpp>

namespace topo::slurmconf {

struct GresOptions {
    /// Device file of GPU index i: "{index}" is replaced by the index.
    std::string file_template = "/dev/nvidia{index}";
    /// Type= value: "" = derived from the GPU model ("NVIDIA H100 80GB HBM3" -> h100),
    /// "-" = no Type=.
    std::string type;
    /// Write Links= when the NVLink matrix is known.
    bool links = true;
    /// Also Service hosts.
    bool include_service = false;
    /// Prepend "AutoDetect=off" (the NVLink matrix comes from us, not NVML).
    bool autodetect_off = true;
};

struct GresConf {
    std::string text;
    std::vector<std::string> lines;  ///< config lines only
    std::vector<std::string> warnings;
};

/// "NVIDIA H100 80GB HBM3" -> "h100", "Tesla V100-SXM2-32GB" -> "v100", "" -> "".
[[nodiscard]] std::string gpu_type_from_model(const std::string& model);

/// Errors: InvalidArgument when no host has a GPU, or for a file template without
/// {index} / a Type with characters Slurm cannot take.
[[nodiscard]] Result<GresConf> generate_gres_conf(const Topology& t, const GresOptions& opts = {});

}  // namespace topo::slurmconf
