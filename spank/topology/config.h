/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The config.h Slurm's sources include. None of its macros changes a layout or a code path
 * topology/topoplace compiles (checked in 24.11.5 and 26.05.3 with
 * `grep -n '#if.*HAVE\|#ifdef' src/plugins/topology/{tree,common}/*.c` and the same over the
 * internal headers they include: only HAVE_FRONT_END, off in Debian's builds, and
 * HAVE_3D / WITH_CGROUP in read_config.h, which no code here reads). */
#ifndef TOPOPLACE_SLURM_CONFIG_H
#define TOPOPLACE_SLURM_CONFIG_H
#endif
