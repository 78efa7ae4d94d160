/* SPDX-License-Identifier: Apache-2.0 */
/* The C ABI between plugin.c (the SPANK entry points, which dispatch on the SPANK context)
 * and the C++ files of each context: shell.cpp (plugstack arguments, options, exit),
 * submit.cpp (sbatch/salloc/srun: the placement decision), remote.cpp (slurmstepd: the rail
 * environment of each task), prolog.cpp (slurmd's job prolog: the launch gate).
 * Every function here is noexcept: no C++ exception ever reaches Slurm. */
#ifndef TOPOPLACE_SPANK_SHELL_H
#define TOPOPLACE_SPANK_SHELL_H

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
static inline int topo_spank_rc(int rc) {
    return rc == 0 ? 0 : -1;
}

/* shell.cpp: the plugstack arguments and the --topo* options (allocator, local, remote) */
int topo_shell_init(spank_t sp, int ac, char** av, int remote) TOPO_NOEXCEPT;
/* shell.cpp: free what the job's callbacks kept */
int topo_shell_exit(void) TOPO_NOEXCEPT;
/* submit.cpp: the placement decision and its hand-off to slurmctld (allocator, local) */
int topo_submit_decide(spank_t sp, int local) TOPO_NOEXCEPT;
/* remote.cpp: the snapshot for the step's tasks, then each task's rail environment */
int topo_remote_user_init(spank_t sp) TOPO_NOEXCEPT;
int topo_remote_task_init(spank_t sp) TOPO_NOEXCEPT;
/* prolog.cpp: the launch gate (job prolog in slurmd) */
int topo_prolog_gate(int ac, char** av) TOPO_NOEXCEPT;

#ifdef __cplusplus
}
#endif
#endif
