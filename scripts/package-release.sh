#!/usr/bin/env bash
# The Debian package for another Slurm release, built in that release's own distribution and
# installed there (issue 14 part 5):
#   scripts/package-release.sh 24.11     Debian 13 "trixie"
#   scripts/package-release.sh 26.05     Debian sid
# 1. a build chroot: the release's lab chroot (tests/lab/chroot.sh) copied once to
#    /var/tmp/topoplace-SUITE-build, plus that distribution's compiler and -dev packages;
# 2. there, the Release build of the CLI, the plugin, topoplace-nodefeed and the man pages
#    (build/pkg-RELEASE) and `cpack -G DEB`: topoplace_VERSION+slurmRELEASE_ARCH.deb, its
#    Depends computed by that distribution's dpkg-shlibdeps;
# 3. a fresh copy of the lab chroot (only Slurm in it), `apt-get install ./the.deb` there
#    (dependencies from that distribution's archive), and checks: installed, the CLI runs a
#    discover + show on a real fabric, the daemon says it is for this release, sbatch loads
#    the packaged plugin through the packaged plugstack snippet and lists --topo, the man
#    pages render, the shipped binaries are hardened (readelf).
# Takes long on 2 cores (the whole C++ tree with that distribution's g++); not part of
# scripts/test.sh. Needs root and Debian's archive. Prints "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
SRC=$(pwd)
REL="${1:?usage: package-release.sh 24.11|26.05 [--prepare]}"
# --prepare: only the build chroot (step 1; downloads, little CPU), then exit: scripts/test.sh
# does that while it compiles elsewhere
PREPARE=0; [ "${2:-}" = --prepare ] && PREPARE=1
case "$REL" in 24.11) SUITE=trixie ;; 26.05) SUITE=sid ;; *) echo "package-release.sh: 24.11 or 26.05" >&2; exit 2 ;; esac
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root"; exit 77; }
pass=0; fail=0
ok()  { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; [ -n "${2:-}" ] && printf '%s\n' "$2" | sed 's/^/     /' | head -30; fail=$((fail + 1)); }
finish() { echo "$pass passed, $fail failed"; [ "$fail" = 0 ]; exit $?; }

LAB=$(tests/lab/chroot.sh "$SUITE") || exit $?
# A copy of the lab chroot without what a lab running in it at the same time keeps there
# (its /tmp, /run, the mount points of the source and the host).
copy_chroot() {
  mkdir -p "$2"
  tar -C "$1" --exclude=./tmp/* --exclude=./run/* --exclude=./src/* --exclude=./host/* --exclude=./proc/* \
      --exclude=./sys/* --exclude=./dev/* --exclude=./opt/topoplace-host/* -cf - . | tar -C "$2" -xf -
  cp -a "$1/dev/null" "$2/dev/" 2>/dev/null || true
}
BASE="${TOPO_CHROOT_BASE:-/var/tmp}"
B="$BASE/topoplace-$SUITE-build"
DEPS=(g++ cmake ninja-build pkg-config make libboost-dev libboost-graph-dev libhwloc-dev
      libibnetdisc-dev libibmad-dev libibumad-dev nlohmann-json3-dev libcli11-dev
      libyaml-cpp-dev zlib1g-dev dpkg-dev file gzip)
log="$BASE/topoplace-$SUITE-package.log"
# one maker of the build chroot at a time (a --prepare may still be at it)
exec 8>"$BASE/topoplace-$SUITE-build.lock"
flock 8
if [ ! -f "$B/.topoplace-build-ready" ] || [ "$(cat "$B/.topoplace-build-ready")" != "${DEPS[*]}" ]; then
  echo "package-release.sh: build chroot $B (once; log $log)" >&2
  rm -rf "$B"; copy_chroot "$LAB" "$B"
  mount -t proc proc "$B/proc"
  chroot "$B" apt-get update -q > "$log" 2>&1
  DEBIAN_FRONTEND=noninteractive chroot "$B" apt-get install -y -q --no-install-recommends "${DEPS[@]}" >> "$log" 2>&1
  st=$?; chroot "$B" apt-get clean; umount "$B/proc"
  [ $st = 0 ] || { bad "build dependencies in $SUITE" "$(tail -5 "$log")"; finish; }
  echo "${DEPS[*]}" > "$B/.topoplace-build-ready"
fi
flock -u 8
if [ "$PREPARE" = 1 ]; then echo "package-release.sh: build chroot $B ready"; exit 0; fi

# in_root ROOT CMD...: CMD in ROOT (a private mount namespace: the source at /src, /proc, /dev)
in_root() {
  local root=$1; shift
  unshare --mount --propagation private -- bash -c '
    set -e; R=$1; SRC=$2; shift 2
    mkdir -p "$R/src"; mount --bind "$SRC" "$R/src"
    mount -t proc proc "$R/proc"; mount --rbind /dev "$R/dev"
    touch "$R/etc/hosts"; mount --bind /etc/hosts "$R/etc/hosts"
    exec chroot "$R" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 TERM=dumb \
      bash -c "cd /src && exec \"\$@\"" bash "$@"
  ' bash "$root" "$SRC" "$@"
}

OUT="build/pkg-$REL"
t0=$(date +%s)
echo "package-release.sh: building in $SUITE ($OUT; log $log)" >&2
if in_root "$B" bash -c "cmake -S /src -B /src/$OUT -G Ninja -DCMAKE_BUILD_TYPE=Release -DTOPO_BUILD_TESTS=OFF \
      -DTOPO_BUILD_BENCH=OFF -DTOPO_SLURM_RELEASE=$REL >/dev/null \
    && cmake --build /src/$OUT -j${JOBS:-2} --target topoplace topoplace_spank topoplace-nodefeed topology_topoplace topo_man \
    && cd /src/$OUT && rm -f topoplace_*.deb topoplace-topology_*.deb && cpack -G DEB" >> "$log" 2>&1; then
  deb=$(ls "$OUT"/topoplace_*+slurm"$REL"_*.deb 2>/dev/null | head -1)
  [ -n "$deb" ] && ok "built in $SUITE with its g++ ($(in_root "$B" g++ -dumpfullversion)) in $(( $(date +%s) - t0 )) s: $(basename "$deb")" \
    || { bad "cpack in $SUITE wrote no topoplace_*+slurm${REL}_*.deb" "$(tail -20 "$log")"; finish; }
else
  bad "the Release build in $SUITE" "$(tail -30 "$log")"; finish
fi
# topology/topoplace (24.11+, when the vendored sources or a measured layout are this release's,
# spank/topology/LAYOUT.md): its own package, pinned to the exact Slurm release it was compiled for
tdeb=""; tver=""
if [ -f "spank/topology/slurm-$REL/VERSION" ] && [ ! -f "$OUT/spank/topology_topoplace.NOT-BUILT" ]; then
  tver=$(awk '$2 == "SLURM_VERSION_NUMBER" {print $3}' "$B/usr/include/slurm/slurm_version.h")
  tver=$(printf '%d.%02d.%d' $((tver >> 16)) $(((tver >> 8) & 255)) $((tver & 255)))
  tdeb=$(ls "$OUT"/topoplace-topology_*+slurm"$tver"_*.deb 2>/dev/null | head -1)
  tdep=$(dpkg-deb -f "$tdeb" Depends 2>/dev/null)
  nxt="${tver%.*}.$(( ${tver##*.} + 1 ))~"
  if [ -n "$tdeb" ] && grep -qF "slurmctld (>= $tver), slurmctld (<< $nxt)" <<<"$tdep" \
     && dpkg --compare-versions "$tver-1" ge "$tver" && dpkg --compare-versions "$tver-99" lt "$nxt" \
     && ! dpkg --compare-versions "${nxt%\~}-1" lt "$nxt" \
     && grep -q '/slurm-wlm/topology_topoplace.so$' <<<"$(dpkg-deb -c "$tdeb")" \
     && ! grep -q topology_topoplace <<<"$(dpkg-deb -c "$deb")"; then
    ok "$(basename "$tdeb"): topology/topoplace alone, Depends: $tdep (Slurm $tver, any Debian revision, not ${nxt%\~})"
  else bad "the topoplace-topology package" "deb=$tdeb Depends: $tdep"$'\n'"$(dpkg-deb -c "$tdeb" 2>&1 | tail -5)"; fi
elif [ -f "$OUT/spank/topology_topoplace.NOT-BUILT" ]; then
  echo "note: no topoplace-topology package: $(cat "$OUT/spank/topology_topoplace.NOT-BUILT")"
fi

dep=$(dpkg-deb -f "$deb" Depends); brk=$(dpkg-deb -f "$deb" Breaks)
if grep -q 'libslurm' <<<"$dep" && grep -q "slurmd (<< $REL)" <<<"$brk"; then ok "Depends from $SUITE's dpkg-shlibdeps: $dep; Breaks other releases"
else bad "Depends/Breaks" "Depends: $dep"$'\n'"Breaks: $brk"; fi

# a fresh copy of the lab chroot: only Slurm in it; the package brings its own dependencies
I="$BASE/topoplace-$SUITE-install"
rm -rf "$I"; copy_chroot "$LAB" "$I"
cp "$deb" "$I/tmp/"; debs="/tmp/$(basename "$deb")"
[ -n "$tdeb" ] && { cp "$tdeb" "$I/tmp/"; debs+=" /tmp/$(basename "$tdeb")"; }
if in_root "$I" bash -c "apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $debs man-db" >> "$log" 2>&1 \
   && [ "$(in_root "$I" dpkg-query -W -f='${Status}' topoplace)" = "install ok installed" ] \
   && { [ -z "$tdeb" ] || [ "$(in_root "$I" dpkg-query -W -f='${Status}' topoplace-topology)" = "install ok installed" ]; }; then
  ok "apt-get install ${debs//\/tmp\//./} in a fresh $SUITE chroot (dependencies from $SUITE's archive)"
else bad "install in a fresh $SUITE chroot" "$(tail -20 "$log")"; finish; fi
if [ -n "$tdeb" ]; then
  if [ -f "$I/usr/lib/x86_64-linux-gnu/slurm-wlm/topology_topoplace.so" ] && [ -f "$I/usr/share/doc/topoplace-topology/COPYING.slurm" ] \
     && grep -q 'TopologyPlugin=topology/topoplace' "$I/usr/share/doc/topoplace-topology/topology-plugin.md" \
     && grep -q 'TopologyPlugin=topology/topoplace in slurm.conf' <<<"$(dpkg-deb -f "$tdeb" Description)"; then
    ok "installed: topology_topoplace.so next to Slurm's plugins, its GPL licence (COPYING.slurm) and the slurm.conf line (description, topology-plugin.md)"
  else bad "topoplace-topology installed with its licence and docs" "$(ls "$I/usr/share/doc/topoplace-topology" 2>&1)"; fi
fi
v=$(in_root "$I" topoplace --version 2>&1); nv=$(in_root "$I" topoplace-nodefeed --version 2>&1)
if grep -q '^topoplace [0-9]' <<<"$v" && grep -q "for Slurm $REL" <<<"$nv"; then ok "installed CLI and daemon run: $v; $nv"
else bad "installed binaries run" "$v"$'\n'"$nv"; fi
cp tests/fixtures/ibnetdiscover/ufm-lab-small.ibnetdiscover.txt "$I/tmp/fabric.txt"
# (the warnings name the input's path: the same relative path on both sides)
s=$(in_root "$I" bash -c 'cd /tmp && topoplace discover --ibnetdiscover fabric.txt -o /tmp/lab.json 2>/dev/null && topoplace show /tmp/lab.json' 2>&1)
# This host's build: the test command's (build/dev) or the one scripts/demo.sh makes
# (build/release); with neither (a clean clone), the CLI is built here first (issue 28 item 6).
HOSTTP=""
for d in dev release; do [ -x "$SRC/build/$d/cli/topoplace" ] && { HOSTTP="$SRC/build/$d/cli/topoplace"; break; }; done
if [ -z "$HOSTTP" ]; then
  echo "package-release.sh: building this host's CLI (build/release) to compare with the package" >&2
  cmake --preset release > /dev/null && cmake --build --preset release -j"${JOBS:-2}" --target topoplace > /dev/null \
    && HOSTTP="$SRC/build/release/cli/topoplace"
fi
hs=$(t=$(mktemp -d) && cp tests/fixtures/ibnetdiscover/ufm-lab-small.ibnetdiscover.txt "$t/fabric.txt" \
       && (cd "$t" && "$HOSTTP" discover --ibnetdiscover fabric.txt -o "$t/lab.json" 2>/dev/null) \
       && "$HOSTTP" show "$t/lab.json"; rm -rf "$t")
if [ -n "$s" ] && [ "$s" = "$hs" ]; then
  ok "installed CLI: discover + show on a real fabric, the same output as this host's build (${HOSTTP#"$SRC"/})"
else bad "installed CLI discover + show, the same as this host's build (${HOSTTP:-none built})" "$(head -5 <<<"$s")"; fi
# sbatch loads the packaged plugin through the packaged snippet (a minimal slurm.conf: the
# 24.11+ clients read it even for --help)
printf 'ClusterName=pkg\nSlurmctldHost=localhost\nNodeName=n1 CPUs=1\nPartitionName=p Nodes=n1 Default=YES\n' > "$I/etc/slurm/slurm.conf"
grep -q 'plugstack.conf.d' "$I/etc/slurm/plugstack.conf" 2>/dev/null || echo 'include /etc/slurm/plugstack.conf.d/*.conf' >> "$I/etc/slurm/plugstack.conf"
h=$(in_root "$I" sbatch --help 2>&1)
if grep -q -- '--topo=' <<<"$h" && grep -q -- '--topo-segment' <<<"$h"; then ok "sbatch --help in $SUITE lists --topo and --topo-segment (the packaged plugin, loaded by Slurm $REL)"
else bad "sbatch loads the packaged plugin" "$(grep -i -e topo -e error <<<"$h" | head -10)"; fi
for p in man1/topoplace.1.gz man8/topoplace-spank.8.gz man8/topoplace-nodefeed.8.gz; do
  txt=$(in_root "$I" bash -c "MANWIDTH=100 man --warnings -l /usr/share/man/$p 2>/tmp/man.err | head -3; cat /tmp/man.err")
  if grep -q NAME <<<"$txt" && ! grep -qi warn <<<"$txt"; then ok "man -l $p renders in $SUITE"; else bad "man $p in $SUITE" "$txt"; fi
done
[ -d "$I/var/lib/topoplace/health" ] && ok "the health store directory exists after installation" || bad "health store directory"
for b in usr/bin/topoplace usr/sbin/topoplace-nodefeed; do
  f="$I/$b"; miss=()
  ph=$(readelf -lW "$f"); dyn=$(readelf -dW "$f"); syms=$(readelf --dyn-syms -W "$f"); hdr=$(readelf -hW "$f")
  grep -q GNU_RELRO <<<"$ph" && grep -qE 'BIND_NOW|FLAGS.*NOW' <<<"$dyn" || miss+=("full RELRO")
  grep -q __stack_chk_fail <<<"$syms" || miss+=("stack protector")
  grep -q 'Type: *DYN' <<<"$hdr" || miss+=("PIE")
  grep -qE '__[a-z_]+_chk@' <<<"$(grep -v __stack_chk <<<"$syms")" || miss+=("FORTIFY")
  [ ${#miss[@]} = 0 ] && ok "hardening $b: full RELRO, stack protector, PIE, FORTIFY" || bad "hardening $b: missing ${miss[*]}"
done
finish
