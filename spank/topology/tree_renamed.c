/* SPDX-License-Identifier: GPL-2.0-or-later */
/* topology/tree's own source, compiled unchanged into topology/topoplace with the five
 * symbols topology_topoplace.c defines itself renamed (tree_*): everything else topology/tree
 * does (topology.conf, switch records, node ranking, message fan-out, scontrol show topology,
 * --switches, SLURM_TOPOLOGY_ADDR, its plugin_id and plugin_version) stays Slurm's. */
#include "config.h"
#define init tree_init
#define fini tree_fini
#define plugin_name tree_plugin_name
#define plugin_type tree_plugin_type
#define topology_p_eval_nodes tree_topology_p_eval_nodes
#define topology_p_build_config tree_topology_p_build_config
#include "src/plugins/topology/tree/topology_tree.c"
