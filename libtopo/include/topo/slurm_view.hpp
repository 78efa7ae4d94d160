// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file Slurm's view of the fabric, built once: which hosts are Slurm nodes, and the switch
/// tree that topology.conf (topology/tree) describes. slurm-conf prints it (names, hostlists,
/// warnings); placement indexes it, so that the slurm-tree policy sees the switches a live
/// slurmctld reads from our file. tests/unit/slurmconf/test_slurm_view.cpp ties the two.
///
/// The rules (docs/slurm-conf.md):
///   - one Slurm leaf per leaf group with at least one Slurm node: in a rail-optimized
///     fabric every host of a scalable unit sits on all rail leaves of that unit, so the
///     unit is the true leaf for locality;
///   - at each tier k >= 1, the fabric switches that reach the same set of Slurm switches of
///     the level below are one Slurm switch (all spines of a pod are one Slurm spine); a
///     switch reaching none (e.g. above storage leaves only) is left out;
///   - a connected part with several tops, none of which covers all its leaves, gets one
///     synthetic root above them (Slurm needs one switch per part above every job).

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <topo/topology.hpp>

namespace topo {

/// A host that Slurm knows as a node: not a service host (unless asked for), and not an
/// adapter ibnetdiscover could only name by its GUID ("H-<16 hex>"), which is no node name.
[[nodiscard]] bool slurm_node(const Host& h, bool include_service) noexcept;

/// One warning naming the GUID-named adapters left out, and the fix; empty if none.
[[nodiscard]] std::string guid_hosts_warning(const Topology& t, bool include_service);

/// Node features (slurm.conf `Features=`), one naming for everyone who writes or asks for
/// them: `topoplace slurm-conf --features` writes them, the plugin's plan constrains a job to
/// them, job_submit.lua passes them on. A name keeps letters, digits, '_', '.', '-'; any
/// other character becomes '_'.
[[nodiscard]] std::string feature_token(std::string_view name);
/// lg_<leaf group>
[[nodiscard]] std::string group_feature(std::string_view group_name);
/// sp_<Slurm spine switch>
[[nodiscard]] std::string spine_feature(std::string_view switch_name);
/// nvl_<NVLink domain>
[[nodiscard]] std::string domain_feature(std::string_view domain_name);

struct SlurmViewSwitch {
    int level = 0;                      ///< 0 = leaf
    GroupId group;                      ///< leaf: its leaf group
    std::vector<HostId> hosts;          ///< leaf: its Slurm nodes, id (= natural name) order
    std::vector<SwitchId> physical;     ///< fabric switches it stands for (a leaf: the group's
                                        ///< leaves); empty for a synthetic root
    std::vector<std::size_t> children;  ///< indexes into SlurmView::switches, all smaller
    std::vector<std::size_t> leaves;    ///< leaf indexes below, sorted (a leaf: itself)
    std::size_t part = 0;               ///< connected part: its smallest switch index
    bool synthetic = false;             ///< a root added above a part's several tops
};

struct SlurmView {
    /// Leaves first (in leaf-group order), then levels 1.. (each level by its smallest
    /// child set), then the synthetic roots by level: the order of topology.conf.
    std::vector<SlurmViewSwitch> switches;
    std::size_t leaves = 0;  ///< switches[0, leaves) are the leaves
    std::size_t parts = 0;   ///< connected parts (Slurm places no job across two)
    int top_level = 0;       ///< highest level (0 when only leaves)
    std::size_t nodes = 0;   ///< Slurm nodes under the leaves
};

struct SlurmViewOptions {
    bool include_service = false;  ///< service hosts are nodes too (slurm-conf --include-service)
    /// Adapters named by GUID count as nodes too. topology.conf leaves them out (no node
    /// name); placement keeps them, so that a fabric dumped without node names still has
    /// hosts to place in a what-if. The tree is otherwise the same.
    bool include_guid_named = false;
};

/// Slurm's switch tree of `t` over its Slurm nodes. Empty (no switch) when no leaf group
/// holds a node.
[[nodiscard]] SlurmView slurm_view(const Topology& t, const SlurmViewOptions& opt = {});

}  // namespace topo
