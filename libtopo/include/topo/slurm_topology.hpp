// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file Reading Slurm's topology.conf (tree and block plugins) and topology.yaml
/// (25.05+), and importing a tree or block topology into a TopologyBuilder.
///
/// Parsing follows Slurm (topology_tree.c, block_record.c, topology.yaml.5): keys are
/// case-insensitive, values are hostlists, '#' starts a comment. What Slurm rejects
/// (a switch with both Nodes and Switches or neither, an undefined child switch,
/// duplicate names, a cycle) is an error; what Slurm only logs (a node under two leaf
/// switches) is a warning. We also warn about node names whose prefix looks like a
/// typo of the others' (circe's "n[019-020]" next to "circe-n[...]").

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <topo/result.hpp>

namespace topo {

class TopologyBuilder;

enum class SlurmTopologyKind : std::uint8_t { Tree, Block, Flat, Ring, Torus3d };

[[nodiscard]] const char* slurm_topology_kind_name(SlurmTopologyKind k) noexcept;

/// One `SwitchName=` line (or one `switch:` entry of topology.yaml).
struct SlurmSwitch {
    std::string name;
    std::vector<std::string> children;  ///< child switch names, expanded, as written
    std::vector<std::string> nodes;     ///< node names, expanded, as written
    std::string link_speed;             ///< LinkSpeed= as written (Slurm ignores it)
    int line = 0;                       ///< 1-based line of the definition

    [[nodiscard]] bool is_leaf() const noexcept { return !nodes.empty(); }
};

/// One `BlockName=` line (block), or one ring / torus of topology.yaml.
struct SlurmBlock {
    std::string name;
    std::vector<std::string> nodes;  ///< expanded, as written
    int line = 0;
};

/// One topology: the whole of a topology.conf, or one list entry of topology.yaml.
struct SlurmTopology {
    std::string name;    ///< topology.yaml `topology:`; empty for topology.conf
    std::string source;  ///< file name (or label) used in messages
    SlurmTopologyKind kind = SlurmTopologyKind::Tree;
    bool cluster_default = false;       ///< topology.yaml `cluster_default` (true for .conf)
    std::vector<SlurmSwitch> switches;  ///< tree, in file order
    std::vector<SlurmBlock> blocks;     ///< block: blocks; ring: rings; torus3d: toruses
    std::vector<int> block_sizes;       ///< BlockSizes= / block_sizes (empty if absent)
    /// Non-fatal findings, "file:line: message", in file order.
    std::vector<std::string> warnings;

    /// Leaf switches (those with nodes), in file order.
    [[nodiscard]] std::vector<const SlurmSwitch*> leaves() const;
    /// Distinct node names of all switches or blocks, in natural order.
    [[nodiscard]] std::vector<std::string> node_names() const;
    /// Switches that are nobody's child, in file order.
    [[nodiscard]] std::vector<const SlurmSwitch*> roots() const;
    /// Slurm's switch level: 0 for leaves, 1 + max(child levels) above. Empty for
    /// non-tree topologies; same order as `switches`.
    [[nodiscard]] std::vector<int> levels() const;
};

/// Parsing options.
struct SlurmParseOptions {
    /// true (default): a cycle among switches is an error, as in Slurm ("Switch
    /// configuration is not a tree"). false: a warning, and the switch graph is kept
    /// as written. Real generated files have such cycles (psmn-x5-qdr links spines to
    /// each other); the builder handles any switch graph.
    bool reject_cycles = true;
};

/// Parse topology.conf text (tree or block; both in one file is an error).
/// `source` names the input in messages. Complexity: linear in the expanded size.
/// Errors: Parse with file and line (unknown key, a line with no SwitchName/BlockName,
/// bad hostlist, bad number, duplicate name, Nodes and Switches on one switch or
/// neither, undefined child switch, a cycle, binary or empty input).
[[nodiscard]] Result<SlurmTopology> parse_topology_conf(std::string_view text, const std::string& source,
                                                        const SlurmParseOptions& opts = {});

/// Parse topology.yaml text: a list of named topologies (tree, block, flat, ring,
/// torus3d). Errors: Parse with file and line (YAML syntax, unknown keys, bad values,
/// and the tree checks of parse_topology_conf), including for an empty list.
[[nodiscard]] Result<std::vector<SlurmTopology>> parse_topology_yaml(std::string_view text, const std::string& source,
                                                                     const SlurmParseOptions& opts = {});

/// Read a file (gzip allowed) and parse it: topology.yaml when the name ends in .yaml or
/// .yml or the text starts like a YAML list, topology.conf otherwise. A .conf file
/// gives one topology. Errors: Io, Parse.
[[nodiscard]] Result<std::vector<SlurmTopology>> load_slurm_topology(const std::string& path,
                                                                     const SlurmParseOptions& opts = {});

/// The topology a cluster uses by default: the one with cluster_default, else the
/// first. nullptr for an empty list.
[[nodiscard]] const SlurmTopology* default_slurm_topology(const std::vector<SlurmTopology>& all);

/// Add a tree or block topology to `b`. Tree: every switch (guid = name = the switch
/// name, Provenance::Declared, tier -1), one Declared link per parent/child pair, and
/// for each node a Compute host with one declared NIC per leaf it is listed under
/// (name "", guid "slurm:<host>:<leaf>"). Block: a Compute host per node, no switch,
/// and one multi-node NVLink domain per block. Flat adds nothing. The topology's
/// warnings are passed to b.warn(). Errors: Unsupported for ring and torus3d.
[[nodiscard]] Status import_slurm_topology(const SlurmTopology& topo, TopologyBuilder& b);

}  // namespace topo
