/* SPDX-License-Identifier: Apache-2.0 */
/* The C face of spank/core/selector.hpp for topology_topoplace.c (which is C, built against
 * Slurm's internal headers). Every function catches everything: nothing is thrown across
 * this boundary, and a failure is a return value with a message. Not thread-safe: slurmctld
 * calls eval_nodes and build_config under its own locks, one at a time. */
#ifndef TOPOPLACE_TP_SELECT_H
#define TOPOPLACE_TP_SELECT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct tps;

typedef struct tps_job {
    uint32_t job_id;
    uint32_t min_nodes, req_nodes, max_nodes;
    int required_nodes;        /* the job named nodes (-w) */
    const char* tres_per_node; /* "gres/gpu:8" or NULL */
    char** env;                /* spank_job_env: NAME=value */
    uint32_t env_size;
    /* Of the offered nodes, those running a job now (slurmctld's idle_node_bitmap clear), in
     * OFFERED's layout; NULL = none. Backfill's look-ahead offers nodes that free up before
     * the job can start: among placements as good, the busy ones are taken. */
    const uint64_t* busy;
    /* The job's partition name (job_ptr->partition; NULL: none) and the nodes idle and
     * available now that were not offered (in OFFERED's layout; NULL: not gathered, see
     * tps_wants_idle). A multi-node job whose choice takes a degraded host is held (TPS_HOLD)
     * while enough healthy idle nodes of its partition are free, and one about to start whose
     * choice those idle nodes would beat on leaf groups or spines is held (withheld_wait=). */
    const char* partition;
    const uint64_t* idle_elsewhere;
    /* job_ptr->time_limit: minutes; 0, NO_VAL or INFINITE: none (bounds a hold) */
    uint32_t time_limit_min;
} tps_job_t;

/* TPS_HOLD: start nothing on this offer now (eval_nodes fails, as when nodes are lacking): the
 * choice takes a degraded host; TPS_HOLD_WITHHELD: the same, idle nodes Slurm withheld beat it. */
enum { TPS_PASS = 0, TPS_NARROW = 1, TPS_HOLD = 2, TPS_HOLD_WITHHELD = 3, TPS_ERROR = -1 };

/* Read CONF (topoplace-topology.conf; a missing file means the defaults) and load the
 * snapshot it names. NULL with a message in MSG when anything fails. */
struct tps* tps_open(const char* conf, const char* confdir, char* msg, size_t msglen);
/* Map Slurm's node table onto the snapshot (NAMES[i] may be NULL: no node at index i).
 * Returns 0 when the map is usable; -1 when it is not (MSG says why: a snapshot naming hosts
 * slurm.conf does not define is another cluster's). Slurm nodes the snapshot lacks are
 * said in MSG (when MSG is non-empty on success, log it once) and stay with Slurm. */
int tps_set_nodes(struct tps* s, const char* const* names, uint32_t n, char* msg, size_t msglen);
/* Decide for JOB on OFFERED (one bit per Slurm node index, NBITS of them): TPS_NARROW with
 * CHOSEN holding the nodes to narrow to, TPS_PASS to leave the offer to Slurm, TPS_ERROR on
 * an internal error. PROBLEM gets a line to log only the first time a problem of its kind
 * occurs (otherwise it is left empty). */
int tps_select(struct tps* s, const tps_job_t* job, const uint64_t* offered, uint32_t nbits, uint64_t* chosen,
               char* problem, size_t problemlen);
/* 1 when tps_job_t.idle_elsewhere can change a decision now (degraded hosts known, holds
 * configured): gather it only then. */
int tps_wants_idle(const struct tps* s);
/* Counters and a summary line ("snapshot ..., N calls, ...") for the log. */
void tps_summary(struct tps* s, char* msg, size_t msglen);
/* stats_interval= of the configuration: log the summary at most this often (0: at reconfigure only). */
int tps_stats_interval(const struct tps* s);
/* trace= of the configuration: 1 when each eval_nodes call is to be logged (job, offer, choice). */
int tps_trace(const struct tps* s);
void tps_close(struct tps* s);

#ifdef __cplusplus
}
#endif
#endif
