#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copy from a Slurm source tree the files topology/topoplace is compiled with: topology/tree's
# own sources (src/plugins/topology/{tree,common}) and every internal header they and
# topology_topoplace.c include (found with the compiler, not by hand). Slurm's public headers
# (slurm/*.h) are not copied: the build takes them from the installed libslurm-dev of the
# release, so plugin_version is the installed one's.
#   vendor.sh TREE.tar.xz|DIR RELEASE       e.g. ../shared/slurm-src/slurm-24-11-5-1.tar.xz 24.11
# Writes spank/topology/slurm-RELEASE/ (replacing it). Run by a developer when a release is
# added or its tree changes; the copies are committed (a build needs no Slurm source tree).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
SRC="${1:?usage: vendor.sh TREE.tar.xz|DIR RELEASE}"; REL="${2:?release, e.g. 24.11}"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
if [ -d "$SRC" ]; then T="$SRC"; else tar -xJf "$SRC" -C "$work"; T=$(ls -d "$work"/*/ | head -1); T=${T%/}; fi
OUT="$HERE/slurm-$REL"
rm -rf "$OUT"; mkdir -p "$OUT"
# the public headers of that tree, only to find the internal ones (not copied)
mkdir -p "$work/pub/slurm"; cp "$T"/slurm/*.h "$work/pub/slurm/"
ver=$(awk '$1 == "Version:" {print $2; exit}' "$T/META")
printf '#define SLURM_VERSION_NUMBER 0\n#define SLURM_VERSION_NUM(a,b,c) (((a) << 16) + ((b) << 8) + (c))\n' > "$work/pub/slurm/slurm_version.h"
srcs=()
for f in "$T"/src/plugins/topology/tree/*.c "$T"/src/plugins/topology/common/*.c "$HERE/topology_topoplace.c"; do srcs+=("$f"); done
for f in "${srcs[@]}"; do
  gcc -std=gnu99 -M -I"$HERE" -I"$work/pub" -I"$T" "$f" | tr ' \\' '\n\n' | grep "^$T/" || true
done | sort -u > "$work/files"
for f in "$T"/src/plugins/topology/tree/* "$T"/src/plugins/topology/common/*; do echo "$f"; done | grep -E '\.[ch]$' >> "$work/files"
sort -u "$work/files" | while read -r f; do
  rel=${f#"$T"/}; mkdir -p "$OUT/$(dirname "$rel")"; cp "$f" "$OUT/$rel"
done
echo "$ver" > "$OUT/VERSION"   # the build refuses any other installed release (micro included)
cp "$T/COPYING" "$OUT/COPYING"
[ -f "$T/LICENSE.OpenSSL" ] && cp "$T/LICENSE.OpenSSL" "$OUT/"
commit=$( (cd "$T" && git rev-parse HEAD 2>/dev/null) || echo "see ../README.md")
printf 'Copied by spank/topology/vendor.sh from Slurm %s (%s), unchanged: topology/tree and its\ncommon sources, and the internal headers they and topology_topoplace.c include.\nGPL-2.0-or-later with the OpenSSL exception (COPYING).\n' "$ver" "$(basename "$SRC")" > "$OUT/SOURCE"
echo "vendor.sh: $(find "$OUT" -type f | wc -l) files in $OUT"
