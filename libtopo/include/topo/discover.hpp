// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file The discover pipeline: real inputs merged into one cluster model, in a fixed order
/// (fabrics, Slurm topology files, cluster specs; then node descriptions), as `topoplace
/// discover` runs it (docs/discover.md). The hwloc and libibnetdisc inputs are optional parts:
/// the core does not link them; a caller that has them passes their readers in
/// `DiscoverReaders` (the CLI does when built with them), and an input without its reader is
/// an Errc::Unsupported error naming the option.

#include <functional>
#include <string>
#include <vector>

#include <topo/ib_fabric.hpp>
#include <topo/node_description.hpp>
#include <topo/result.hpp>
#include <topo/topology.hpp>

namespace topo {

/// The inputs, by kind. Node-description arguments are "[HOSTLIST=]FILE": without HOSTLIST a
/// description applies to every compute host the fabric or spec named (one node type for the
/// whole cluster), else to a new host named by the file's own host name or its stem.
struct DiscoverInputs {
    std::vector<std::string> ibnetdiscover;   ///< ibnetdiscover dumps (.gz ok)
    std::string node_name_map;                ///< ibnetdiscover --node-name-map file
    std::string hca_regex;                    ///< compute HCA names; empty = detect
    std::string ibnd_cache;                   ///< libibnetdisc cache file (needs readers.ibnd_cache)
    bool ib_live = false;                     ///< the fabric through libibnetdisc (readers.ibnd_live)
    std::vector<std::string> slurm_topology;  ///< topology.conf / topology.yaml
    std::vector<std::string> spec;            ///< cluster specs (YAML or JSON)
    std::vector<std::string> hwloc;           ///< [HOSTLIST=]lstopo XML (readers.hwloc_file)
    bool hwloc_live = false;                  ///< this host through hwloc (readers.hwloc_live)
    std::vector<std::string> nccl;            ///< [HOSTLIST=]NCCL topology XML
    std::vector<std::string> nvsmi;           ///< [HOSTLIST=]`nvidia-smi topo -m` output
};

/// Readers of the optional inputs (empty = this program was built without them).
struct DiscoverReaders {
    std::function<Result<NodeDescription>(const std::string& file)> hwloc_file;
    std::function<Result<NodeDescription>()> hwloc_live;
    std::function<Result<IbFabric>(const std::string& cache)> ibnd_cache;
    std::function<Result<IbFabric>()> ibnd_live;
};

/// Merge the inputs into one model. The model's warnings are in Topology::warnings(). An
/// empty set of inputs is Errc::InvalidArgument naming the options.
[[nodiscard]] Result<TopologyPtr> discover(const DiscoverInputs& in, const DiscoverReaders& readers = {});

}  // namespace topo
