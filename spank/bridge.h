/* SPDX-License-Identifier: Apache-2.0 */
/* C ABI between plugin.c (the SPANK entry points) and bridge.cpp (everything else).
 * Every function here is noexcept: no C++ exception ever reaches Slurm. */
#ifndef TOPOPLACE_SPANK_BRIDGE_H
#define TOPOPLACE_SPANK_BRIDGE_H

#include <slurm/spank.h>

#ifdef __cplusplus
#define TOPO_NOEXCEPT noexcept
extern "C" {
#else
#define TOPO_NOEXCEPT
#endif

/* A SPANK callback's result as every release reads it: exactly 0 or -1. Up to 24.11 only a
 * negative rc fails; from 25.05 any non-zero one does (a stray ESPANK_* would fail a job on
 * one release and pass on another). plugin.c passes every result through it. */
static inline int topo_spank_rc(int rc) { return rc == 0 ? 0 : -1; }

int topo_spank_init(spank_t sp, int ac, char** av) TOPO_NOEXCEPT;
int topo_spank_init_post_opt(spank_t sp, int ac, char** av) TOPO_NOEXCEPT;
int topo_spank_user_init(spank_t sp, int ac, char** av) TOPO_NOEXCEPT;
int topo_spank_task_init(spank_t sp, int ac, char** av) TOPO_NOEXCEPT;
int topo_spank_job_prolog(spank_t sp, int ac, char** av) TOPO_NOEXCEPT;
int topo_spank_exit(spank_t sp, int ac, char** av) TOPO_NOEXCEPT;

#ifdef __cplusplus
}
#endif
#endif
