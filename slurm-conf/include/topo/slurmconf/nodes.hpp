// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file slurm.conf node lines: `NodeName=<hostlist> [Features=...] [Weight=N]`, to be
/// merged into the site's own NodeName lines (Slurm 22.05+).
///
/// Features (see generate_features in tree.hpp): lg_<group>, sp_<spine>, nvl_<domain>.
///
/// Weights that do not fight topology. Slurm's topology/tree selection (22.05
/// cons_tres _eval_nodes_topo, and the block plugin likewise) first buckets the
/// available nodes by Weight and takes *every* node of the lighter buckets before it
/// looks at switches: "Weight overrides topology". A Weight that differs inside a leaf
/// group, or between leaf groups a job could share, makes Slurm spread a job over
/// several groups to use up the lighter nodes. So:
///  - a weight class is always a union of whole leaf groups (never splits one);
///  - within one connected fabric part, classes differ only by what a job cannot mix
///    anyway: the number of GPUs per host of the group (fewer GPUs = lighter, Slurm's
///    own "lower weight for nodes with fewer resources" rule; a GPU job skips hosts
///    without the GPUs before weights matter, so it is never pulled across groups);
///  - the largest connected part of the fabric is lightest; smaller disjoint parts are
///    heavier (Slurm cannot place a multi-node job across parts anyway), and hosts on
///    no leaf switch are heaviest.
/// Weight = base + step * class index, classes ordered by (part, GPUs per host).

#include <string>
#include <vector>

#include <topo/result.hpp>
#include <topo/slurmconf/tree.hpp>
#include <topo/topology.hpp>

namespace topo::slurmconf {

struct NodeLineOptions {
    bool features = true;  ///< Features=lg_..,sp_..[,nvl_..]
    bool weights = false;  ///< Weight=N
    int weight_base = 1;   ///< Slurm's default Weight is 1
    int weight_step = 1;
};

struct NodeLines {
    /// "NodeName=<hostlist> [Features=..] [Weight=N]", one per set of hosts with equal
    /// values, in natural order of their first host.
    std::vector<std::string> lines;
    std::vector<std::string> warnings;
    std::string text;  ///< lines with a header comment
};

/// Node lines for the hosts of generate_tree_conf(t, tree) (plus, with weights, the
/// included hosts on no leaf). Errors: as generate_tree_conf; InvalidArgument when
/// neither features nor weights are asked for, or weight_base < 1 / weight_step < 1.
[[nodiscard]] Result<NodeLines> generate_node_lines(const Topology& t, const TreeOptions& tree,
                                                    const NodeLineOptions& opts);

}  // namespace topo::slurmconf
