/* SPDX-License-Identifier: Apache-2.0 */
/* topoplace SPANK plugin: the entry points Slurm looks up, each dispatching on the SPANK
 * context to the file of that context (shell.h). Nothing else is here.
 * Built against the Slurm headers of the release it runs in (major.minor must match). */
#include <slurm/spank.h>

#include "shell.h"

SPANK_PLUGIN(topoplace, 1);

/* Options are registered where Slurm reads them: the submitting client and slurmstepd. */
int slurm_spank_init(spank_t sp, int ac, char** av) {
    switch (spank_context()) {
        case S_CTX_ALLOCATOR:
        case S_CTX_LOCAL: return topo_spank_rc(topo_shell_init(sp, ac, av, 0));
        case S_CTX_REMOTE: return topo_spank_rc(topo_shell_init(sp, ac, av, 1));
        default: /* slurmd, the job script's prolog/epilog, an error context */ return 0;
    }
}

/* sbatch, salloc, srun: the options are known; decide the placement. */
int slurm_spank_init_post_opt(spank_t sp, int ac, char** av) {
    (void)ac;
    (void)av;
    switch (spank_context()) {
        case S_CTX_ALLOCATOR: return topo_spank_rc(topo_submit_decide(sp, 0));
        case S_CTX_LOCAL: return topo_spank_rc(topo_submit_decide(sp, 1));
        default: return 0;
    }
}

int slurm_spank_user_init(spank_t sp, int ac, char** av) {
    (void)ac;
    (void)av;
    return spank_context() == S_CTX_REMOTE ? topo_spank_rc(topo_remote_user_init(sp)) : 0;
}

int slurm_spank_task_init(spank_t sp, int ac, char** av) {
    (void)ac;
    (void)av;
    return spank_context() == S_CTX_REMOTE ? topo_spank_rc(topo_remote_task_init(sp)) : 0;
}

/* slurmd runs the job prolog (S_CTX_JOB_SCRIPT): the launch gate. */
int slurm_spank_job_prolog(spank_t sp, int ac, char** av) {
    (void)sp;
    return topo_spank_rc(topo_prolog_gate(ac, av));
}

int slurm_spank_exit(spank_t sp, int ac, char** av) {
    (void)sp;
    (void)ac;
    (void)av;
    return topo_spank_rc(topo_shell_exit());
}
