#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Check our headers' job_record_t against an installed Slurm build's machine code
# (spank/topology/LAYOUT.md): compile src/lua/slurm_lua.c of a Slurm source tree with the
# headers topology_topoplace.c is built with, take the installed build's own copy of that
# object out of its job_submit_lua.a, and compare where each names its fields (fields.py).
#   measure.sh TREE.tar.xz|DIR PUBLIC_INCLUDE ARCHIVE HEADER_DIR...
# e.g. (26.05.5 in the sid chroot, the layout of slurm-26.05/layout-26.05.5):
#   measure.sh ../shared/slurm-src/slurm-26-05-3-1.tar.xz /var/tmp/topoplace-sid/usr/include \
#     /var/tmp/topoplace-sid/usr/lib/x86_64-linux-gnu/slurm-wlm/job_submit_lua.a \
#     spank/topology/slurm-26.05/layout-26.05.5 spank/topology/slurm-26.05
# Needs gcc, binutils, python3 and Lua headers (liblua5.4-dev). Exit 0 when every field
# compared is where our headers put it, 1 otherwise, 77 when something needed is missing.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
SRC="${1:?usage: measure.sh TREE PUBLIC_INCLUDE ARCHIVE HEADER_DIR...}"; PUB="${2:?}"; A="${3:?}"; shift 3
[ $# -ge 1 ] || { echo "measure.sh: no HEADER_DIR" >&2; exit 2; }
LUA_INC=$(pkg-config --cflags lua5.4 2>/dev/null || true)
[ -n "$LUA_INC" ] || { echo "measure.sh: no Lua 5.4 headers (liblua5.4-dev)" >&2; exit 77; }
[ -f "$A" ] || { echo "measure.sh: $A: no such archive (slurm-wlm-basic-plugins-dev)" >&2; exit 77; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
if [ -d "$SRC" ]; then T="$SRC"; else tar -xJf "$SRC" -C "$work" --wildcards '*/src/*' '*/slurm/*'; T=$(ls -d "$work"/*/ | head -1); T=${T%/}; fi
mkdir -p "$work/inc" "$work/theirs" "$work/pub"
# only slurm/ of PUBLIC_INCLUDE on the path (a chroot's /usr/include is another libc's)
ln -s "$(realpath "$PUB")/slurm" "$work/pub/slurm"
# the config.h slurm_lua.c needs: HAVE_LUA (and nothing that changes a layout, see ../config.h)
printf '#define HAVE_LUA 1\n' > "$work/inc/config.h"
incs=(); for d in "$@"; do incs+=("-I$(realpath "$d")"); done
gcc -std=gnu99 -O2 -fno-omit-frame-pointer -fno-strict-aliasing -w -I"$work/inc" -I"$work/pub" "${incs[@]}" -I"$T" \
  $LUA_INC -c "$T/src/lua/slurm_lua.c" -o "$work/ours.o"
m=$(ar t "$A" | grep 'slurm_lua\.o$' | head -1)
[ -n "$m" ] || { echo "measure.sh: $A holds no slurm_lua object" >&2; exit 77; }
(cd "$work/theirs" && ar x "$(realpath "$A")" "$m")
python3 "$HERE/fields.py" "$work/theirs/$m" "$work/ours.o"
