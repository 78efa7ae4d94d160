/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * topology/topoplace: Slurm's topology/tree with topoplace's choice of nodes.
 *
 * slurmctld calls topology_p_eval_nodes() at every scheduling attempt of every job (main
 * scheduler and backfill) with the nodes the job could use now. This plugin asks topoplace's
 * placer (spank/core/selector.hpp, through tp_select.h) which of them the job should get,
 * narrows the offer to those nodes and lets topology/tree's own evaluation allocate cores,
 * GRES and memory inside them. When the narrowed offer cannot be allocated, or the placer
 * has no answer, topology/tree evaluates the whole offer, as it would without this plugin.
 * Everything else is topology/tree itself (tree_renamed.c).
 *
 * Inside the controller of the whole cluster: no exception crosses into Slurm (tp_select.h
 * catches everything), no I/O in eval_nodes but the health store's re-read (at most once a
 * second, bounded), a line of counters at most every stats_interval seconds and, with
 * trace=yes or DebugFlags=SelectType, one line per call (offer, choice, allocation); memory fixed
 * at build_config, every failure falls back to Slurm's own evaluation and is logged once.
 *
 * A derivative of Slurm (built against its internal headers and linked with topology/tree):
 * GPL-2.0-or-later, as Slurm. Copyright (C) the topoplace authors.
 */
#include "config.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"

#include "src/common/bitstring.h"
#include "src/common/core_array.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/read_config.h"
#include "src/common/run_in_daemon.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/interfaces/topology.h"
#include "src/slurmctld/slurmctld.h" /* idle_node_bitmap */

#include "tp_select.h"

/* slurmctld's avail_node_bitmap, defined here as topology/tree's sources define
 * idle_node_bitmap (common_topo.c) for the processes that load the plugin and lack it
 * (slurmd, the clients): slurmctld's definition interposes (topology_topoplace.map keeps the
 * symbol global). Without it slurmd refuses the plugin (undefined symbol). */
bitstr_t *avail_node_bitmap;

#if defined(TOPO_VENDORED_RELEASE) && (SLURM_VERSION_NUMBER != TOPO_VENDORED_RELEASE)
#error "slurm_version.h (the installed libslurm-dev) is not the release (micro included) of the vendored Slurm sources"
#endif
#if defined(TOPO_LAYOUT_RELEASE) && (SLURM_VERSION_NUMBER != TOPO_LAYOUT_RELEASE)
#error "slurm_version.h (the installed libslurm-dev) is not the release (micro included) of the measured layout (slurm-REL/layout-MICRO)"
#endif

#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(25, 5, 0)
#define TP_CTX_API 1 /* topology_ctx_t: build_config(tctx), void fini */
#endif
/* 26.05's job record starts with step_id (its job_id kept equal to job_id, for %pJ); 24.11's
 * has no second copy of the id, and only the magic numbers are checked. */
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(26, 5, 0)
#define TP_JOB_ID_AGREES(j) ((j)->job_id == (j)->step_id.job_id)
#define TP_LAYOUT_READ "magic %#x, job_id %u, step_id.job_id %u"
#define TP_LAYOUT_ARGS(j) (unsigned) (j)->magic, (j)->job_id, (j)->step_id.job_id
#else
#define TP_JOB_ID_AGREES(j) 1
#define TP_LAYOUT_READ "magic %#x, job_id %u"
#define TP_LAYOUT_ARGS(j) (unsigned) (j)->magic, (j)->job_id
#endif

const char plugin_name[] = "topology topoplace plugin (topology/tree with topoplace's node choice)";
const char plugin_type[] = "topology/topoplace";

extern int tree_init(void);
extern int tree_topology_p_eval_nodes(topology_eval_t *topo_eval);
#ifdef TP_CTX_API
extern void tree_fini(void);
extern int tree_topology_p_build_config(topology_ctx_t *tctx);
#else
extern int tree_fini(void);
extern int tree_topology_p_build_config(void);
#endif

static struct tps *sel = NULL; /* NULL: topology/tree decides every job */
static uint64_t *offered = NULL, *chosen = NULL, *busy = NULL, *elsewhere = NULL;
static uint32_t nbits = 0;
static bool grew_logged = false;

/* The plugin's own cost inside slurmctld, for the log (stats_interval=, and at reconfigure):
 * every eval_nodes call it takes, the part topology/tree's evaluation spent in it, and the
 * narrowed offers that could not be allocated (topology/tree then ran on the whole offer). */
static uint64_t eval_calls = 0, eval_ns = 0, tree_ns = 0, not_allocatable = 0;
/* Jobs whose record did not read as the release's this plugin was compiled for (the layout
 * check in _eval_nodes): left to topology/tree, the first one logged. */
static uint64_t layout_mismatch = 0;
static bool layout_logged = false;
static uint64_t stats_logged_ns = 0;

static uint64_t _now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000000000ULL + (uint64_t) ts.tv_nsec;
}

static void _log_stats(void)
{
	char msg[512];

	tps_summary(sel, msg, sizeof(msg));
	info("topology/topoplace: %s; eval_nodes %" PRIu64 " calls, %" PRIu64 " us in all, of which topology/tree's evaluation %" PRIu64 " us; %" PRIu64 " narrowed offers not allocatable; %" PRIu64 " job records failed the layout check",
	     msg, eval_calls, eval_ns / 1000, tree_ns / 1000, not_allocatable, layout_mismatch);
}

/* The evaluation of topology/tree, timed. */
static int _tree_eval(topology_eval_t *topo_eval)
{
	uint64_t t0 = _now_ns();
	int rc = tree_topology_p_eval_nodes(topo_eval);

	tree_ns += _now_ns() - t0;
	return rc;
}

static void _unload(void)
{
	if (sel)
		_log_stats();
	tps_close(sel);
	sel = NULL;
	xfree(offered);
	xfree(chosen);
	xfree(busy);
	xfree(elsewhere);
	nbits = 0;
	eval_calls = eval_ns = tree_ns = not_allocatable = layout_mismatch = 0;
}

/* (Re)load the snapshot and map slurm.conf's nodes onto it: slurmctld only, at start and
 * at every reconfigure (build_config). Any failure leaves topology/tree deciding. */
static void _load(void)
{
	char msg[1024];
	char *conf, *dir, *slash;
	const char **names;

	if (!running_in_slurmctld())
		return;
	_unload();
	conf = get_extra_conf_path("topoplace-topology.conf");
	dir = xstrdup(conf);
	if ((slash = strrchr(dir, '/')))
		*slash = '\0';
	sel = tps_open(conf, dir, msg, sizeof(msg));
	if (!sel)
		error("topology/topoplace: %s (from %s): topology/tree decides every job", msg, conf);
	xfree(conf);
	xfree(dir);
	if (!sel)
		return;

	names = xcalloc(node_record_count > 0 ? node_record_count : 1, sizeof(char *));
	for (int i = 0; i < node_record_count; i++)
		names[i] = node_record_table_ptr[i] ? node_record_table_ptr[i]->name : NULL;
	if (tps_set_nodes(sel, names, node_record_count, msg, sizeof(msg))) {
		error("topology/topoplace: %s: topology/tree decides every job", msg);
		xfree(names);
		tps_close(sel);
		sel = NULL;
		return;
	}
	xfree(names);
	if (msg[0])
		info("topology/topoplace: %s", msg);
	nbits = node_record_count;
	offered = xcalloc((nbits + 63) / 64 + 1, sizeof(uint64_t));
	chosen = xcalloc((nbits + 63) / 64 + 1, sizeof(uint64_t));
	busy = xcalloc((nbits + 63) / 64 + 1, sizeof(uint64_t));
	elsewhere = xcalloc((nbits + 63) / 64 + 1, sizeof(uint64_t));
	grew_logged = false;
	tps_summary(sel, msg, sizeof(msg));
	info("topology/topoplace: %s", msg);
}

extern int init(void)
{
	return tree_init();
}

#ifdef TP_CTX_API
extern void fini(void)
{
	_unload();
	tree_fini();
}

extern int topology_p_build_config(topology_ctx_t *tctx)
{
	int rc = tree_topology_p_build_config(tctx);

	_load();
	return rc;
}
#else
extern int fini(void)
{
	_unload();
	return tree_fini();
}

extern int topology_p_build_config(void)
{
	int rc = tree_topology_p_build_config();

	_load();
	return rc;
}
#endif

static int _eval_nodes(topology_eval_t *topo_eval);

extern int topology_p_eval_nodes(topology_eval_t *topo_eval)
{
	uint64_t t0, t1;
	int rc, every;

	if (!sel)
		return tree_topology_p_eval_nodes(topo_eval);
	t0 = _now_ns();
	rc = _eval_nodes(topo_eval);
	t1 = _now_ns();
	eval_calls++;
	eval_ns += t1 - t0;
	every = tps_stats_interval(sel);
	if (!stats_logged_ns)
		stats_logged_ns = t1;
	else if ((every > 0) && (t1 - stats_logged_ns >= (uint64_t) every * 1000000000ULL)) {
		stats_logged_ns = t1;
		_log_stats();
	}
	return rc;
}

static int _eval_nodes(topology_eval_t *topo_eval)
{
	job_record_t *job_ptr = topo_eval->job_ptr;
	tps_job_t job;
	char problem[1024];
	bitstr_t *orig_map;
	bitstr_t **orig_core;
	uint32_t min_nodes, req_nodes, max_nodes;
	uint16_t avail_cpus;
	int n, rc;
	bitoff_t size;
	bool trace;
	char *offer_str = NULL, *chose_str = NULL;

	if (!job_ptr || !topo_eval->node_map)
		return _tree_eval(topo_eval);
	/*
	 * The job record as this plugin's headers lay it out: slurmctld keeps step_id.job_id (the
	 * first member, where every release has it) equal to job_id (far into the struct), and
	 * job_details_t starts with its magic. A record that does not read so (a release or a
	 * build other than the one compiled for) is topology/tree's, and the first one is logged.
	 * The job_id read is inside the record whatever its layout; details is read only after.
	 */
	if ((job_ptr->magic != JOB_MAGIC) || !TP_JOB_ID_AGREES(job_ptr) ||
	    (job_ptr->details && (job_ptr->details->magic != DETAILS_MAGIC))) {
		layout_mismatch++;
		if (!layout_logged)
			error("topology/topoplace: %pJ does not read as a job record of Slurm %d.%02d.%d (" TP_LAYOUT_READ "): topology/tree decides such jobs (counted in the summary line)",
			      job_ptr, SLURM_VERSION_MAJOR(SLURM_VERSION_NUMBER),
			      SLURM_VERSION_MINOR(SLURM_VERSION_NUMBER),
			      SLURM_VERSION_MICRO(SLURM_VERSION_NUMBER), TP_LAYOUT_ARGS(job_ptr));
		layout_logged = true;
		return _tree_eval(topo_eval);
	}
	if (!job_ptr->details)
		return _tree_eval(topo_eval);
	size = bit_size(topo_eval->node_map);
	n = ((size < 0) || (size > (bitoff_t) nbits)) ? -1 : (int) size;
	if (n < 0) {
		if (!grew_logged)
			error("topology/topoplace: the node table has %ld nodes, the map was made for %u: topology/tree decides until the next reconfigure",
			      (long) size, nbits);
		grew_logged = true;
		return _tree_eval(topo_eval);
	}

	/* busy: offered nodes running a job now (backfill's look-ahead offers the nodes that
	 * free up before the job can start; Slurm's own eval_nodes takes such nodes first) */
	memset(offered, 0, ((nbits + 63) / 64) * sizeof(uint64_t));
	memset(busy, 0, ((nbits + 63) / 64) * sizeof(uint64_t));
	for (int i = 0; next_node_bitmap(topo_eval->node_map, &i); i++) {
		if (topo_eval->avail_res_array && (!topo_eval->avail_res_array[i] ||
						   (topo_eval->avail_res_array[i]->avail_cpus < 1)))
			continue; /* topology/tree would clear it: do not choose it */
		offered[i / 64] |= 1ULL << (i % 64);
		if (idle_node_bitmap && (i < bit_size(idle_node_bitmap)) &&
		    !bit_test(idle_node_bitmap, i))
			busy[i / 64] |= 1ULL << (i % 64);
	}

	memset(&job, 0, sizeof(job));
	job.job_id = job_ptr->job_id;
	job.min_nodes = topo_eval->min_nodes;
	job.req_nodes = topo_eval->req_nodes;
	job.max_nodes = topo_eval->max_nodes;
	job.required_nodes = job_ptr->details->req_node_bitmap != NULL;
	job.tres_per_node = job_ptr->tres_per_node;
	job.env = job_ptr->spank_job_env;
	job.env_size = job_ptr->spank_job_env_size;
	job.busy = busy;
	job.partition = job_ptr->partition;
	job.time_limit_min = job_ptr->time_limit;
	/* elsewhere: idle, available nodes not offered (held by backfill for other jobs, or not
	 * this job's): gathered only while a hold can use them (tps_wants_idle) */
	if (tps_wants_idle(sel) && idle_node_bitmap && avail_node_bitmap) {
		bitoff_t ni = bit_size(idle_node_bitmap), na = bit_size(avail_node_bitmap);

		memset(elsewhere, 0, ((nbits + 63) / 64) * sizeof(uint64_t));
		for (bitoff_t i = 0; (i < n) && (i < ni) && (i < na); i++) {
			i = bit_ffs_from_bit(idle_node_bitmap, i);
			if ((i < 0) || (i >= n) || (i >= na))
				break;
			if (bit_test(avail_node_bitmap, i) &&
			    !(offered[i / 64] & (1ULL << (i % 64))))
				elsewhere[i / 64] |= 1ULL << (i % 64);
		}
		job.idle_elsewhere = elsewhere;
	}

	rc = tps_select(sel, &job, offered, n, chosen, problem, sizeof(problem));
	if (problem[0])
		error("topology/topoplace: %s", problem);
	/* trace=yes (or DebugFlags=SelectType): the offer and the choice, one line per call */
	trace = tps_trace(sel) || (slurm_conf.debug_flags & DEBUG_FLAG_SELECT_TYPE);
	if (trace)
		offer_str = bitmap2node_name(topo_eval->node_map);
	if ((rc == TPS_HOLD) || (rc == TPS_HOLD_WITHHELD)) {
		/* the best on this offer takes a degraded host while healthy idle nodes of the
		 * partition are free, or idle nodes withheld from it would do better: not now (as
		 * when Slurm lacks nodes; backfill looks later) */
		if (trace)
			info("topology/topoplace: trace %pJ offer=%s chose=- (held: %s)", job_ptr, offer_str,
			     (rc == TPS_HOLD) ? "degraded host while healthy ones are free" :
						"withheld idle nodes would use fewer leaf groups or spines");
		xfree(offer_str);
		return SLURM_ERROR;
	}
	if (rc != TPS_NARROW) {
		if (trace)
			info("topology/topoplace: trace %pJ offer=%s chose=- (left to topology/tree)",
			     job_ptr, offer_str);
		xfree(offer_str);
		return _tree_eval(topo_eval);
	}

	/* Narrow the offer to the choice; keep what topology/tree needs to start over. */
	orig_map = bit_copy(topo_eval->node_map);
	orig_core = copy_core_array(topo_eval->avail_core);
	min_nodes = topo_eval->min_nodes;
	req_nodes = topo_eval->req_nodes;
	max_nodes = topo_eval->max_nodes;
	avail_cpus = topo_eval->avail_cpus;
	for (int i = 0; next_node_bitmap(topo_eval->node_map, &i); i++) {
		if (!(chosen[i / 64] & (1ULL << (i % 64))))
			bit_clear(topo_eval->node_map, i);
	}
	if (trace)
		chose_str = bitmap2node_name(topo_eval->node_map);
	rc = _tree_eval(topo_eval);
	if (rc == SLURM_SUCCESS) {
		if (trace) {
			char *got = bitmap2node_name(topo_eval->node_map);

			info("topology/topoplace: trace %pJ offer=%s chose=%s allocated=%s",
			     job_ptr, offer_str, chose_str, got);
			xfree(got);
		}
		xfree(offer_str);
		xfree(chose_str);
		FREE_NULL_BITMAP(orig_map);
		free_core_array(&orig_core);
		return rc;
	}

	/* The choice could not be allocated (cores, memory, GRES): Slurm's own evaluation on
	 * everything offered, as topology/tree's own retry does. */
	bit_or(topo_eval->node_map, orig_map);
	core_array_or(topo_eval->avail_core, orig_core);
	topo_eval->min_nodes = min_nodes;
	topo_eval->req_nodes = req_nodes;
	topo_eval->max_nodes = max_nodes;
	topo_eval->avail_cpus = avail_cpus;
	FREE_NULL_BITMAP(orig_map);
	free_core_array(&orig_core);
	not_allocatable++;
	if (trace)
		info("topology/topoplace: trace %pJ offer=%s chose=%s allocated=- (not allocatable: topology/tree on the whole offer)",
		     job_ptr, offer_str, chose_str);
	xfree(offer_str);
	xfree(chose_str);
	return _tree_eval(topo_eval);
}
