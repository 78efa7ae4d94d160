/* SPDX-License-Identifier: Apache-2.0 */
/* topoplace SPANK plugin: the entry points Slurm looks up, nothing else (see bridge.cpp).
 * Built against the Slurm headers of the release it runs in (major.minor must match). */
#include <slurm/spank.h>

#include "bridge.h"

SPANK_PLUGIN(topoplace, 1);

int slurm_spank_init(spank_t sp, int ac, char** av) {
    return topo_spank_rc(topo_spank_init(sp, ac, av));
}

int slurm_spank_init_post_opt(spank_t sp, int ac, char** av) {
    return topo_spank_rc(topo_spank_init_post_opt(sp, ac, av));
}

int slurm_spank_user_init(spank_t sp, int ac, char** av) {
    return topo_spank_rc(topo_spank_user_init(sp, ac, av));
}

int slurm_spank_task_init(spank_t sp, int ac, char** av) {
    return topo_spank_rc(topo_spank_task_init(sp, ac, av));
}

int slurm_spank_job_prolog(spank_t sp, int ac, char** av) {
    return topo_spank_rc(topo_spank_job_prolog(sp, ac, av));
}

int slurm_spank_exit(spank_t sp, int ac, char** av) {
    return topo_spank_rc(topo_spank_exit(sp, ac, av));
}
