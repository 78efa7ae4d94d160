// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file What one host looks like inside: GPUs, NICs, NUMA and their locality.
/// Produced by the hwloc XML reader and the nvidia-smi topo reader; merged into a
/// host with TopologyBuilder::apply_node_description().

#include <string>
#include <vector>

#include <topo/topology.hpp>

namespace topo {

struct NodeDescription {
    struct GpuDesc {
        int index = 0;     ///< 0-based, CUDA/nvidia-smi order
        std::string name;  ///< as the source names it: "GPU0", "nvml0", "cuda0"
        std::string model;
        std::string pci_bus;  ///< "0000:07:00.0" when known
        std::string uuid;
        int numa = -1;
    };

    struct NicDesc {
        std::string name;  ///< "mlx5_0", "ib0", "hsi0", "rdmap197s0"
        std::string pci_bus;
        std::string guid;  ///< port or node GUID when known
        int numa = -1;
        double gbps = 0;
    };

    struct NvPair {
        int a = 0;  ///< GpuDesc index (position in `gpus`)
        int b = 0;
        int links = 0;    ///< NV# count, 0 if unknown
        double gbps = 0;  ///< bandwidth if known
    };

    /// An NVSwitch of the host (DGX-2, HGX A100/H100 baseboards) and the GPUs cabled
    /// to it with their NVLink bandwidth.
    struct NvSwitchDesc {
        std::string pci_bus;                       ///< "0000:b7:00.0"
        std::vector<std::pair<int, double>> gpus;  ///< (GpuDesc position, GB/s)
    };

    std::string source;    ///< file it came from, for messages
    std::string hostname;  ///< host name found in the file, may be empty
    int numa_nodes = 0;
    std::vector<GpuDesc> gpus;
    std::vector<NicDesc> nics;
    /// gpu_nic[i][j]: PathClass from gpus[i] to nics[j]; empty if unknown.
    std::vector<std::vector<PathClass>> gpu_nic;
    /// NVLink connections between GPUs (each unordered pair once, a < b).
    std::vector<NvPair> nvlinks;
    /// NVSwitches, in PCI bus order.
    std::vector<NvSwitchDesc> nvswitches;
    std::vector<std::string> warnings;
};

}  // namespace topo
