// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file Slurm topology.yaml (25.05+): a list of named topologies. topoplace writes a
/// tree topology (generate_tree_conf) and, when the cluster has multi-node NVLink
/// domains (or when asked), a block topology (generate_block_conf); one of them is
/// `cluster_default: true`, partitions pick another with `Topology=<name>`.
/// Emitted by hand with every scalar double-quoted (names and hostlists hold only
/// [A-Za-z0-9_.,\-\[\]]), so no YAML special character can change the meaning;
/// libtopo's parse_topology_yaml() reads it back in the tests.

#include <string>
#include <vector>

#include <topo/result.hpp>
#include <topo/slurmconf/block.hpp>
#include <topo/slurmconf/tree.hpp>
#include <topo/topology.hpp>

namespace topo::slurmconf {

struct YamlOptions {
    TreeOptions tree;
    BlockOptions block;
    enum class Want : std::uint8_t { Auto, Yes, No };
    Want want_tree = Want::Auto;   ///< Auto: when the fabric has a host group
    Want want_block = Want::Auto;  ///< Auto: when there is a multi-node NVLink domain
    std::string tree_name = "tree";
    std::string block_name = "block";
    /// "tree", "block" or "" (= block when written and built from NVLink domains, else tree).
    std::string default_topology;
};

struct YamlConf {
    std::string text;
    std::vector<std::string> topologies;  ///< names, in file order
    std::string cluster_default;
    std::vector<std::string> fake_nodes;  ///< from the block topology
    std::vector<std::string> warnings;
};

/// Errors: InvalidArgument when no topology can be written, when one that is asked
/// for (Want::Yes) fails, for a bad topology name or an unknown default.
[[nodiscard]] Result<YamlConf> generate_topology_yaml(const Topology& t, const YamlOptions& opts = {});

}  // namespace topo::slurmconf
