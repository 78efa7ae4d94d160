/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * topology/tree for topology/topoplace when we do not hold the installed release's sources
 * (Debian sid's Slurm 26.05.5; the vendored tree is 26.05.3): the installed release's own
 * topology_tree.so, loaded at init and called for everything topology/topoplace does not do
 * itself. The alternative to tree_renamed.c (topology/tree's sources compiled in), chosen by
 * CMake (TOPO_TREE_SHIM) when spank/topology/slurm-REL/layout-MICRO/ holds a measured layout
 * of the job record for the installed micro release (spank/topology/LAYOUT.md).
 *
 * Why a shim: topology/tree's code reads slurmctld's structures all over (job, details, node,
 * partition, GRES records); compiled from other sources it would read them wrong. The binary
 * Slurm installed was compiled for them. topology_topoplace.c itself reads a few fields of
 * the job record (job_id, details, the SPANK environment, tres_per_node), each measured for
 * that build, and checks the record on every job it decides.
 *
 * What slurmctld sees: the symbols of src/interfaces/topology.c's syms[] (plugin_id,
 * plugin_type, supports_exclusive_topo, topology_p_*), init, fini, plugin_name and
 * plugin_version. topology_p_eval_nodes and topology_p_build_config are topology_topoplace.c's;
 * every other topology_p_* is a jump into topology_tree.so's function of the same name, so it
 * takes whatever arguments that release's function takes, untouched (registers and stack).
 * topology_tree.so is looked up beside this plugin, then in PluginDir, dlopen'ed RTLD_LAZY as
 * Slurm's own plugin loader does (slurmd and the clients load the topology plugin too, and
 * tree calls slurmctld-only functions) and RTLD_LOCAL (its symbols do not interpose). Its
 * plugin_version must be ours (the installed slurm_version.h's), its plugin_id tree's.
 * A failure at init is logged and init fails: slurmctld then refuses to start, as it does
 * for a missing plugin, rather than run without topology/tree.
 *
 * Runs once at init: no threads, no I/O after it. Copyright (C) the topoplace authors.
 */
#include "config.h"

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* dladdr */
#endif
#include <dlfcn.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"

#include "src/common/bitstring.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/read_config.h"
#include "src/interfaces/topology.h"

/* slurmctld's globals, defined here as topology/tree's sources define them (topology_tree.c,
 * common_topo.c) for the processes that lack them (slurmd and the clients load the topology
 * plugin too): slurmctld's definitions interpose (topology_topoplace.map keeps them global). */
node_record_t **node_record_table_ptr;
int node_record_count;
int active_node_record_count;
list_t *part_list = NULL;
bitstr_t *idle_node_bitmap;

/* What the loader reads as data. plugin_version: the installed release (a mismatch with
 * slurmctld is Slurm's own refusal); plugin_id and supports_exclusive_topo: tree's, checked
 * against topology_tree.so at init. */
const uint32_t plugin_version = SLURM_VERSION_NUMBER;
const uint32_t plugin_id = TOPOLOGY_PLUGIN_TREE;
const bool supports_exclusive_topo = false;

/* The functions forwarded, in the order of tp_fwd[] (TP_FWD below). */
static const char *const tp_fwd_names[] = {
	"topology_p_add_rm_node",       "topology_p_allow_one_node",
	"topology_p_destroy_config",    "topology_p_eval_node",
	"topology_p_whole_topo",        "topology_p_get_bitmap",
	"topology_p_generate_node_ranking", "topology_p_get_node_addr",
	"topology_p_split_hostlist",    "topology_p_get",
	"topology_p_topoinfo_free",     "topology_p_topoinfo_pack",
	"topology_p_topoinfo_print",    "topology_p_topoinfo_unpack",
	"topology_p_jobinfo_free",      "topology_p_jobinfo_pack",
	"topology_p_jobinfo_unpack",    "topology_p_jobinfo_get",
	"topology_p_get_fragmentation", "topology_p_get_topology_str",
	"topology_p_get_rank",
};
#define TP_NFWD (sizeof(tp_fwd_names) / sizeof(tp_fwd_names[0]))

/* Until init has loaded topology_tree.so every entry is tp_unloaded (Slurm calls init first;
 * this only keeps a wrong caller from jumping to address 0). */
static uintptr_t tp_unloaded(void)
{
	return 0;
}
__attribute__((visibility("hidden"))) void *tp_fwd[TP_NFWD];

/* A jump to tp_fwd[I]: no frame, no register touched, so the caller's arguments (whatever
 * that release's prototype) reach topology_tree.so's function, and its return value returns. */
#define TP_FWD(NAME, I)                                                         \
	__asm__(".text\n\t.globl " #NAME "\n\t.type " #NAME ", @function\n" #NAME \
		":\n\tendbr64\n\tjmp *tp_fwd+" #I "*8(%rip)\n\t.size " #NAME ", .-" #NAME "\n");
TP_FWD(topology_p_add_rm_node, 0)
TP_FWD(topology_p_allow_one_node, 1)
TP_FWD(topology_p_destroy_config, 2)
TP_FWD(topology_p_eval_node, 3)
TP_FWD(topology_p_whole_topo, 4)
TP_FWD(topology_p_get_bitmap, 5)
TP_FWD(topology_p_generate_node_ranking, 6)
TP_FWD(topology_p_get_node_addr, 7)
TP_FWD(topology_p_split_hostlist, 8)
TP_FWD(topology_p_get, 9)
TP_FWD(topology_p_topoinfo_free, 10)
TP_FWD(topology_p_topoinfo_pack, 11)
TP_FWD(topology_p_topoinfo_print, 12)
TP_FWD(topology_p_topoinfo_unpack, 13)
TP_FWD(topology_p_jobinfo_free, 14)
TP_FWD(topology_p_jobinfo_pack, 15)
TP_FWD(topology_p_jobinfo_unpack, 16)
TP_FWD(topology_p_jobinfo_get, 17)
TP_FWD(topology_p_get_fragmentation, 18)
TP_FWD(topology_p_get_topology_str, 19)
TP_FWD(topology_p_get_rank, 20)
_Static_assert(TP_NFWD == 21, "TP_FWD list and tp_fwd_names differ");

static void *tree_so = NULL;
static int (*tree_init_fn)(void) = NULL;
static void (*tree_fini_fn)(void) = NULL;
static int (*tree_build_config_fn)(topology_ctx_t *) = NULL;
static int (*tree_eval_nodes_fn)(topology_eval_t *) = NULL;

/* dlopen DIR/topology_tree.so when it exists there. */
static void *_open_in(const char *dir, size_t len, char *path, size_t path_size)
{
	void *h;

	if ((len == 0) || (len + sizeof("/topology_tree.so") > path_size))
		return NULL;
	memcpy(path, dir, len);
	memcpy(path + len, "/topology_tree.so", sizeof("/topology_tree.so"));
	if (!(h = dlopen(path, RTLD_LAZY | RTLD_LOCAL)))
		debug("topology/topoplace: %s: %s", path, dlerror());
	return h;
}

static void *_sym(const char *name, const char *path, bool *ok)
{
	void *p = dlsym(tree_so, name);

	if (!p) {
		error("topology/topoplace: %s has no %s: not the topology/tree of Slurm %d.%02d.%d",
		      path, name, SLURM_VERSION_MAJOR(SLURM_VERSION_NUMBER),
		      SLURM_VERSION_MINOR(SLURM_VERSION_NUMBER),
		      SLURM_VERSION_MICRO(SLURM_VERSION_NUMBER));
		*ok = false;
	}
	return p;
}

static void _close(void)
{
	for (size_t i = 0; i < TP_NFWD; i++)
		tp_fwd[i] = (void *) tp_unloaded;
	tree_init_fn = NULL;
	tree_fini_fn = NULL;
	tree_build_config_fn = NULL;
	tree_eval_nodes_fn = NULL;
	if (tree_so)
		dlclose(tree_so);
	tree_so = NULL;
}

extern int tree_init(void)
{
	char path[PATH_MAX];
	Dl_info self;
	const uint32_t *version, *id;
	const bool *excl;
	bool ok = true;

	for (size_t i = 0; i < TP_NFWD; i++)
		tp_fwd[i] = (void *) tp_unloaded;
	/* beside this plugin, then each directory of PluginDir */
	if (dladdr((void *) tree_init, &self) && self.dli_fname) {
		const char *slash = strrchr(self.dli_fname, '/');

		if (slash)
			tree_so = _open_in(self.dli_fname, (size_t) (slash - self.dli_fname), path,
					   sizeof(path));
	}
	for (const char *d = slurm_conf.plugindir; !tree_so && d && *d;) {
		const char *end = strchr(d, ':');
		size_t len = end ? (size_t) (end - d) : strlen(d);

		tree_so = _open_in(d, len, path, sizeof(path));
		d = end ? end + 1 : d + len;
	}
	if (!tree_so) {
		error("topology/topoplace: no topology_tree.so beside this plugin or in PluginDir=%s (slurm-wlm-basic-plugins): topology/topoplace needs the installed topology/tree",
		      slurm_conf.plugindir ? slurm_conf.plugindir : "(unset)");
		return SLURM_ERROR;
	}
	version = _sym("plugin_version", path, &ok);
	id = _sym("plugin_id", path, &ok);
	excl = _sym("supports_exclusive_topo", path, &ok);
	tree_init_fn = (int (*)(void)) _sym("init", path, &ok);
	tree_fini_fn = (void (*)(void)) _sym("fini", path, &ok);
	tree_build_config_fn = (int (*)(topology_ctx_t *)) _sym("topology_p_build_config", path, &ok);
	tree_eval_nodes_fn = (int (*)(topology_eval_t *)) _sym("topology_p_eval_nodes", path, &ok);
	for (size_t i = 0; ok && (i < TP_NFWD); i++)
		tp_fwd[i] = _sym(tp_fwd_names[i], path, &ok);
	if (ok && (*version != plugin_version)) {
		error("topology/topoplace: %s is Slurm %d.%02d.%d's topology/tree, this plugin was built for %d.%02d.%d",
		      path, SLURM_VERSION_MAJOR(*version), SLURM_VERSION_MINOR(*version),
		      SLURM_VERSION_MICRO(*version), SLURM_VERSION_MAJOR(plugin_version),
		      SLURM_VERSION_MINOR(plugin_version), SLURM_VERSION_MICRO(plugin_version));
		ok = false;
	}
	if (ok && ((*id != plugin_id) || (*excl != supports_exclusive_topo))) {
		error("topology/topoplace: %s has plugin_id %u and supports_exclusive_topo %d, topology/tree's are %u and %d",
		      path, *id, (int) *excl, plugin_id, (int) supports_exclusive_topo);
		ok = false;
	}
	if (!ok) {
		_close();
		return SLURM_ERROR;
	}
	info("topology/topoplace: topology/tree is Slurm %d.%02d.%d's own %s", SLURM_VERSION_MAJOR(*version),
	     SLURM_VERSION_MINOR(*version), SLURM_VERSION_MICRO(*version), path);
	return tree_init_fn();
}

extern void tree_fini(void)
{
	if (tree_fini_fn)
		tree_fini_fn();
	_close();
}

extern int tree_topology_p_build_config(topology_ctx_t *tctx)
{
	return tree_build_config_fn ? tree_build_config_fn(tctx) : SLURM_ERROR;
}

extern int tree_topology_p_eval_nodes(topology_eval_t *topo_eval)
{
	return tree_eval_nodes_fn ? tree_eval_nodes_fn(topo_eval) : SLURM_ERROR;
}
