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
