// SPDX-License-Identifier: Apache-2.0
// Private to topo_placement: the placement indexes and the per-call working set.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include <topo/perf/features.hpp>
#include <topo/placement/place.hpp>

namespace topo::placement {

/// Policy::Spread (policy_spread.cpp): round-robin over the leaf groups with free hosts.
/// Errc::Busy when fewer than nodes_min hosts are available.
[[nodiscard]] Result<Placement> place_spread(const Topology& topo, const ClusterState& st, const Request& req);

/// Built once per Topology.
///
/// The switch tree is the one Slurm sees in the topology.conf that slurm-conf/ writes:
/// level 0 = one "leaf" per leaf group (hosts sharing the same leaf switches, i.e. one
/// scalable unit of a rail-optimized fabric); level k = physical tier-k switches merged
/// by the set of level k-1 switches they reach; a synthetic root above a connected part
/// with several tops. Indexes: sw[0..leaves) are the leaves.
struct Placer::Index {
    /// Pods and sizes for the cost policy's model: made on its first use (most Placers,
    /// e.g. the plugin's per-submission one, never need it).
    mutable perf::FabricShape shape;
    mutable std::once_flag shape_once;
    perf::Params model;  ///< the cost policy's model (the published defaults unless given)

    struct Sw {
        int level = 0;
        int parent = -1;            ///< Slurm's switch_record_t.parent (last listed parent)
        std::vector<int> children;  ///< switch indexes of the level below
        std::vector<int> leaves;    ///< leaf indexes below (sorted); itself for a leaf
        std::string name;           ///< for explanations
        GroupId group;              ///< leaves: the leaf group
    };

    struct Domain {
        DomainId id;
        std::string name;
        std::vector<std::uint32_t> hosts;  ///< placeable hosts, id order
        int usable = 0;                    ///< most hosts one job may take (0 = all)
    };

    int n_hosts = 0;
    int n_leaves = 0;
    int top_level = 0;
    std::vector<Sw> sw;
    std::vector<int> dist;                               ///< sw x sw hop distance (Slurm switches_dist)
    std::vector<int> leaf_of_host;                       ///< -1 = not placeable
    std::vector<int> domain_of_host;                     ///< index into domains, -1 = none
    std::vector<std::uint8_t> all_rails;                 ///< host has a NIC on every rail
    std::vector<int> host_gpus;                          ///< GPUs the topology knows per host
    std::vector<std::vector<std::uint32_t>> leaf_hosts;  ///< placeable hosts per leaf, id order
    std::vector<std::uint8_t> leaf_contiguous;           ///< per leaf: its hosts are the ids front()..back()
    std::vector<int> leaf_switch_count;                  ///< physical leaf switches of each leaf group
    std::vector<int> component;                          ///< per leaf: connected part
    std::vector<int> by_level_order;                     ///< switch indexes sorted by (level, index)
    std::vector<std::vector<int>> above;                 ///< per leaf: the switches whose leaves
                                                         ///< include it, in by_level_order
    std::vector<Domain> domains;                         ///< multi-node NVLink domains
    bool uniform_leaf_switches = true;
    bool all_rail_complete = true;  ///< every placeable host has a NIC on every rail
    /// Slurm's switch_record_table[i].node_bitmap (bit = host id = config order), for
    /// the slurm-tree policy; words of 64 bits, n_words per switch.
    int n_words = 0;
    std::vector<std::uint64_t> sw_bits;
    /// Per switch, the words of its bitmap that can be non-zero: [sw_lo, sw_hi) (a leaf's
    /// hosts are a word or two of the cluster's); its words in a compact buffer start at
    /// sw_off[i] (sw_off[m] words in all). The slurm-tree policy works on these only.
    std::vector<std::uint32_t> sw_lo;
    std::vector<std::uint32_t> sw_hi;
    std::vector<std::size_t> sw_off;

    int d(int a, int b) const { return dist[static_cast<std::size_t>(a) * sw.size() + static_cast<std::size_t>(b)]; }
};

/// What one unit of demand is.
enum class UnitMode : std::uint8_t {
    Nodes,     ///< one unit = one host
    Segments,  ///< one unit = `segment` hosts inside one leaf group (and NVLink domain)
    Gpus,      ///< one unit = one GPU (shared, total_gpus, no per-node count)
};

/// The request, normalised, plus per-host eligibility and unit capacity for one call.
struct Work {
    const Topology* topo = nullptr;
    const Placer::Index* ix = nullptr;
    const ClusterState* state = nullptr;
    const ClusterState::Brief* briefs = nullptr;  ///< state->briefs(): per host, packed
    const std::uint64_t* idle_bits = nullptr;     ///< state->idle_bits(): idle, healthy hosts
    Request req;
    UnitMode mode = UnitMode::Nodes;
    int nodes = 0;                        ///< hosts wanted (Nodes/Segments modes)
    int gpn = 0;                          ///< GPUs needed per host (0 = none)
    int demand = 0;                       ///< units wanted
    int seg = 1;                          ///< hosts per segment
    bool ideal = false;                   ///< evaluate on an idle, healthy cluster (Unsatisfiable test)
    std::vector<std::uint8_t> excluded;   ///< per host
    std::vector<std::uint8_t> skip_leaf;  ///< per leaf: in req.excluded_groups (empty = none)
    std::vector<int> host_units;          ///< per host: units it can give (0 = not eligible)
    std::vector<int> leaf_cap;            ///< per leaf: units available
    int restrict_domain = -1;             ///< only hosts of this domain (one_nvl_domain)
    /// Degraded hosts to leave out (the degraded rule's first try, Placer::place_degraded):
    /// like exclusions, but the group counts stay usable (their units are taken off the
    /// caps of their leaves), so the decision keeps its O(groups) path.
    const std::vector<std::uint32_t>* skip = nullptr;
    /// slurm-tree as 24.05.3+ selects (Policy::SlurmTree24; choose_slurm_tree)
    bool tree2405 = false;
};

/// A policy's answer before the common finishing (sorting, metrics, bounds).
struct Choice {
    std::vector<std::uint32_t> hosts;
    std::vector<int> gpus_per_host;  ///< parallel to hosts: GPUs to give (0 = none)
    std::string why;                 ///< policy-specific part of the explanation
    /// `hosts` in id order, when a caller already sorted them (the cost policy, for its
    /// model); empty = not known. finish() uses it instead of sorting again.
    std::vector<std::uint32_t> sorted;
    int lb_groups = -1;  ///< topo: lower bounds found while searching (-1 = not set)
    int lb_tier = -1;
};

/// Fill host_units and leaf_cap for `w` (state-aware unless w.ideal): O(hosts).
void compute_caps(Work& w);
/// Can leaf_cap come from the ClusterState's group counts (no per-host scan)?
bool caps_from_counts_ok(const Work& w);
/// Fill leaf_cap from the group counts, O(groups); host_units stays empty (hosts are
/// evaluated on demand by unit_of()).
void compute_caps_from_counts(Work& w);

/// Units a host can give in `w` (inline: the hot path of every policy); `skipping`: with
/// w.skip's degraded hosts left out.
inline int host_units(const Work& w, std::uint32_t h, bool skipping = true) {
    // Hot path (every host, every decision): read the host's packed Brief (8 bytes)
    // once, the HostState and the topology not at all.
    const auto& ix = *w.ix;
    if (ix.leaf_of_host[h] < 0 || (!w.excluded.empty() && w.excluded[h] != 0)) return 0;
    if (!w.skip_leaf.empty() && w.skip_leaf[static_cast<std::size_t>(ix.leaf_of_host[h])] != 0) return 0;
    if (skipping && w.skip != nullptr && w.briefs[h].degraded) return 0;
    if (w.req.rail_aligned && ix.all_rails[h] == 0) return 0;
    if (w.restrict_domain >= 0 && ix.domain_of_host[h] != w.restrict_domain) return 0;
    const ClusterState::Brief& hs = w.briefs[h];
    const int total = hs.total;
    if (w.gpn > total) return 0;
    if (w.ideal) return w.mode == UnitMode::Gpus ? total : 1;
    if (hs.unhealthy) return 0;
    const auto st = hs.state;
    if (st == NodeState::Idle) return w.mode == UnitMode::Gpus ? total : 1;
    if (w.req.exclusive || st != NodeState::Mixed) return 0;
    const int free = hs.free;
    if (w.gpn > free) return 0;
    return w.mode == UnitMode::Gpus ? free : 1;
}

/// w.host_units[h] when computed, else host_units(w, h).
inline int unit_of(const Work& w, std::uint32_t h) {
    return w.host_units.empty() ? host_units(w, h) : w.host_units[h];
}

/// Take `units` from leaf `leaf` (best fit inside the leaf); appends to `c`.
int take_from_leaf(const Work& w, int leaf, int units, Choice& c);

/// Policies. Return false when the request cannot be placed on `w`.
/// topo; with `low` (the cost policy), also the choice topo makes when held to the lowest
/// tier that holds the job now (Request::max_tier = out.lb_tier), from the same scan, where
/// that differs from `out` (out's tier is higher); low->hosts stays empty otherwise.
bool choose_topo(const Work& w, Choice& out, Choice* low = nullptr);
bool choose_slurm_tree(const Work& w, Choice& out);
bool choose_linear(const Work& w, Choice& out);

/// Lower bounds on w's caps: fewest leaves (groups) with enough units in one connected
/// part, and the lowest level of a switch that holds enough units (-1: none fits).
struct Bounds {
    int groups = -1;
    int tier = -1;
    int leaf_switches = -1;
};

Bounds lower_bounds(const Work& w);

/// Sort `v` (std::uint64_t or std::uint32_t). Policies append hosts leaf group by leaf
/// group, each group's hosts in ascending order: merge those ascending runs (O(n log runs))
/// instead of sorting.
template <class T>
void sort_runs(std::vector<T>& v);

/// Distinct host ids `ids` in ascending order into `out` (resized to ids.size()): read back
/// from a bitmap of `n_words` words when that is cheaper than sort_runs() (O(ids + words)),
/// else sorted. `ids` must be distinct.
void ids_ascending(const std::vector<std::uint32_t>& ids, int n_words, std::vector<std::uint32_t>& out);

/// The highest tier a placement on the leaves `used` (sorted, distinct) crosses: the level
/// of the lowest switch above them all (0 for one leaf; top_level + 1 when none is).
int tier_of_leaves(const Placer::Index& ix, const std::vector<int>& used);
/// tier_of_leaves() of the choice's leaves, which it leaves in `used` (finish()'s max_tier;
/// used.size() is its number of leaf groups).
int tier_of_choice(const Placer::Index& ix, const Choice& c, std::vector<int>& used);

/// The common finishing of every policy's choice `c` (finish.cpp): hosts in id order with
/// their GPUs, the metrics, the explanation against the bounds.
[[nodiscard]] Placement finish(const Work& w, Choice& c, Policy policy, const Bounds& b);

}  // namespace topo::placement
