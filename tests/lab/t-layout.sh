#!/usr/bin/env bash
# The job record as topology/topoplace's headers lay it out, against the machine code of the
# Slurm build a release's lab runs (Debian's, in its chroot): spank/topology/layout/measure.sh
# on that build's job_submit_lua.a. 24.11: the vendored 24.11.5 sources; 26.05: the measured
# layout of 26.05.5 over the vendored 26.05.3 (spank/topology/LAYOUT.md).
#   t-layout.sh 24.11|26.05
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"; SRC="$(cd "$HERE/../.." && pwd)"
REL="${1:?usage: t-layout.sh 24.11|26.05}"
case "$REL" in 24.11) SUITE=trixie; TREE=slurm-24-11-5-1 ;; 26.05) SUITE=sid; TREE=slurm-26-05-3-1 ;; *) exit 2 ;; esac
T="${TOPO_SHARED:-$SRC/../shared}/slurm-src/$TREE.tar.xz"
[ -f "$T" ] || { echo "SKIP: no $T (the Slurm source tree the headers were copied from)"; exit 77; }
R=$("$HERE/chroot.sh" "$SUITE") || { echo "SKIP: no $SUITE chroot"; exit 77; }
V="$SRC/spank/topology/slurm-$REL"
inst=$(awk '$2 == "SLURM_VERSION_NUMBER" {print $3}' "$R/usr/include/slurm/slurm_version.h")
inst=$(printf '%d.%02d.%d' $((inst >> 16)) $(((inst >> 8) & 255)) $((inst & 255)))
dirs=()
if [ "$(cat "$V/VERSION")" != "$inst" ]; then
  [ -d "$V/layout-$inst" ] || { echo "FAIL: Slurm $inst in the $SUITE chroot: neither the vendored sources ($(cat "$V/VERSION")) nor a measured layout ($V/layout-$inst)"; exit 1; }
  dirs+=("$V/layout-$inst")
fi
dirs+=("$V" "$SRC/spank/topology")
echo "t-layout: Slurm $inst ($SUITE), headers: ${dirs[*]#$SRC/}"
bash "$SRC/spank/topology/layout/measure.sh" "$T" "$R/usr/include" \
  "$R/usr/lib/x86_64-linux-gnu/slurm-wlm/job_submit_lua.a" "${dirs[@]}"
