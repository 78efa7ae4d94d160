// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file Slurm topology/tree configuration (topology.conf, Slurm >= 22.05) and node
/// Features lines generated from a Topology.
///
/// Mapping (see docs in the .cpp):
///  - one Slurm leaf per host group (Topology::groups(): hosts sharing exactly the same
///    leaf switches = one scalable unit; in a rail-optimized fabric its rail leaves
///    become ONE Slurm leaf, since Slurm has no notion of rails);
///  - level k >= 1: every physical switch of tier k gives the set of level k-1 Slurm
///    switches it reaches going down; physical switches with the same set are merged
///    into one Slurm switch (all spines of a pod -> one Slurm spine);
///  - a synthetic root is added above a connected part of the fabric that has several
///    top switches none of which covers the whole part (Slurm cannot place a job over
///    switches without a common ancestor); disjoint fabrics are kept apart (warning).
/// Output is deterministic for a given Topology and options.

#include <string>
#include <vector>

#include <topo/result.hpp>
#include <topo/topology.hpp>

namespace topo::slurmconf {

/// Slurm 22.05 topology_tree.c resolves switch levels in at most ~21 passes over the
/// file ("if (depth > 20) fatal(\"Switch configuration is not a tree\")"). Our files
/// list children before parents, so one pass suffices, but a tree deeper than this is
/// beyond anything Slurm is tested with and almost surely a switch loop in the input:
/// generate_tree_conf() warns above it.
inline constexpr int kSlurmMaxTreeLevels = 20;

struct TreeOptions {
    /// Switch name template. Placeholders: {kind} (leaf, spine, core, or l<level> for
    /// middle levels of deep trees), {level} (Slurm level, 0 = leaf), {n} (1-based index
    /// within the level, zero-padded to at least 2 digits), {group} (leaf group name,
    /// e.g. g001; for upper switches the same as {n}). Empty = "{kind}{n}", except that
    /// a single top switch is named just "{kind}" (e.g. "core").
    std::string name_template;
    /// Also place Service hosts (login, storage, UFM...) in the tree. Default: only
    /// Compute and Unknown hosts, which is what slurm.conf normally lists.
    bool include_service = false;
    /// Shown in the header comment (e.g. the snapshot path). Optional.
    std::string source_label;
};

/// One SwitchName line.
struct TreeSwitch {
    std::string name;
    int level = 0;                      ///< Slurm level: 0 = leaf
    std::vector<std::string> nodes;     ///< leaf: host names (natural order)
    std::vector<std::size_t> children;  ///< upper: indexes into TreeConf::switches
    std::vector<SwitchId> physical;     ///< physical switches merged into this one
    std::string group;                  ///< leaf: its LeafGroup name
    bool synthetic = false;             ///< a root added by us, no physical switch
};

struct TreeConf {
    std::string text;                   ///< the topology.conf
    std::vector<TreeSwitch> switches;   ///< leaves first, then by level
    std::vector<std::string> warnings;  ///< also written as comments in `text`
};

/// Generate topology.conf (topology/tree). Errors: InvalidArgument for a fabric with
/// no host group (no host on any leaf switch) or a bad name template (unknown
/// placeholder, a character Slurm cannot parse in a switch name, duplicate names).
[[nodiscard]] Result<TreeConf> generate_tree_conf(const Topology& t, const TreeOptions& opts = {});

struct FeaturesConf {
    /// "NodeName=<hostlist> Features=lg_<group>,sp_<spine>[,nvl_<domain>]" lines, one
    /// per set of hosts with equal features, to be merged into slurm.conf's node lines.
    std::vector<std::string> lines;
    std::vector<std::string> warnings;
    /// lines joined, with a header comment.
    std::string text;
};

/// Node features that let a job be kept inside one leaf group with a matching-OR
/// constraint: `-C "[lg_g001|lg_g002]"` (or one spine: `[sp_spine01|sp_spine02]`).
/// sp_ names the host's Slurm level-1 switch(es) of generate_tree_conf(t, opts); nvl_
/// names the host's multi-node NVLink domain. Errors: as generate_tree_conf.
[[nodiscard]] Result<FeaturesConf> generate_features(const Topology& t, const TreeOptions& opts = {});

}  // namespace topo::slurmconf
