#!/usr/bin/env bash
# Build topoplace's plugin and daemon for one Slurm release and run a lab test on a live
# cluster of that release.
#   release.sh RELEASE build              the plugin and topoplace-nodefeed for RELEASE
#   release.sh RELEASE test T [ARGS...]   build, then tests/lab/T on that release
#   release.sh RELEASE run CMD [ARGS...]  CMD where that release is installed
# RELEASE: 22.05 (this Debian 12 host: build/dev), 24.11 (a Debian 13 "trixie" chroot) or
# 26.05 (a Debian sid chroot). The chroots hold Slurm itself (daemons, clients, munge,
# libslurm-dev); chroot.sh makes them once with debootstrap and caches them under /var/tmp.
# The plugin and the daemon are compiled on this host against the release's own headers and
# libslurm (build/dev/slurm-RELEASE/, CMake TOPO_SLURM_RELEASES; the Slurm-free libraries are
# shared with build/dev); the plugin links libstdc++ statically and needs only libc and zlib,
# the daemon the release's libslurm, so both run natively in the chroot, where the lab loads
# and uses them. The CLI and the lab tool do not touch Slurm: in the chroot they are this
# host's binaries, run by this host's loader and libraries (read-only under /host).
# Everything runs in a private mount namespace (its bind mounts vanish with it): the host's
# /etc/slurm, services and mounts are never touched. Exit 77 (skip) where the release cannot
# be had (not root, no debootstrap or archive).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
SRC="$(cd "$HERE/../.." && pwd)"
REL="${1:?usage: release.sh 22.05|24.11|26.05 build|test|run ...}"; shift
ACTION="${1:?usage: release.sh RELEASE build|test|run ...}"; shift
BUILD="${TOPO_BUILD_DIR:-build/dev}"
suite_of() { case "$1" in 22.05) echo bookworm ;; 24.11) echo trixie ;; 26.05) echo sid ;; *) return 1 ;; esac; }
SUITE=$(suite_of "$REL") || { echo "release.sh: unknown Slurm release '$REL' (22.05, 24.11 or 26.05)" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "SKIP: release labs need root"; exit 77; }
[ -f "$SRC/$BUILD/CMakeCache.txt" ] || { echo "release.sh: configure and build $BUILD first (cmake --preset dev)" >&2; exit 1; }

if [ "$SUITE" = bookworm ]; then
  have=$(dpkg-query -W -f='${Version}' libslurm-dev 2>/dev/null || true)
  case "$have" in 22.05.*) ;; *) echo "SKIP: the host's libslurm-dev is '$have', not 22.05"; exit 77 ;; esac
  R=""; OUT="$BUILD"
  in_release() { (cd "$SRC" && "$@"); }
else
  R=$("$HERE/chroot.sh" "$SUITE") || exit $?
  OUT="$BUILD/slurm-$REL"
  in_release() {
    unshare --mount --propagation private -- bash -c '
      set -e; R=$1; SRC=$2; BUILD=$3; shift 3
      mkdir -p "$R/src" "$R/host" "$R/opt/topoplace-host"
      mount --bind "$SRC" "$R/src"
      mount --bind / "$R/host"; mount -o remount,bind,ro "$R/host"
      mount -t proc proc "$R/proc"
      # the host name must resolve in there too: slurmctld and slurmd bind to it
      touch "$R/etc/hosts"; mount --bind /etc/hosts "$R/etc/hosts"
      mount --rbind /dev "$R/dev"
      mount --rbind /sys "$R/sys"
      mount -t tmpfs tmpfs "$R/opt/topoplace-host"
      # host tools (no Slurm in them) under the host loader and libraries
      L=/host/usr/lib/x86_64-linux-gnu
      for t in cli/topoplace tests/topo_spank_labtool; do
        printf "#!/bin/sh\nexec %s/ld-linux-x86-64.so.2 --library-path %s /src/%s/%s \"\$@\"\n" "$L" "$L" "$BUILD" "$t" \
          > "$R/opt/topoplace-host/$(basename "$t")"
        chmod 755 "$R/opt/topoplace-host/$(basename "$t")"
      done
      exec chroot "$R" env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
        LANG=C.UTF-8 TERM=dumb ${T_ENV:-} bash -c "cd /src && exec \"\$@\"" bash "$@"
    ' bash "$R" "$SRC" "$BUILD" "$@"
  }
fi

build() {
  if [ -z "$R" ]; then
    [ -f "$SRC/$OUT/spank/topoplace.so" ] || { echo "release.sh: no $OUT/spank/topoplace.so (cmake --build --preset dev)" >&2; return 1; }
    return 0
  fi
  # every release whose chroot is ready, so that building one keeps the others' targets
  local specs="" r s
  for r in 24.11 26.05; do
    s=$(suite_of "$r"); [ -f "${TOPO_CHROOT_BASE:-/var/tmp}/topoplace-$s/.topoplace-ready" ] || continue
    specs+="${specs:+;}$r=${TOPO_CHROOT_BASE:-/var/tmp}/topoplace-$s/usr"
  done
  local mm=${REL/./_}
  echo "release.sh: building the plugin and topoplace-nodefeed for Slurm $REL in $OUT" >&2
  (cd "$SRC" && cmake -S . -B "$BUILD" -DTOPO_SLURM_RELEASES="$specs" >/dev/null &&
     cmake --build "$BUILD" -j"${JOBS:-2}" --target "topoplace_spank_$mm" "topoplace-nodefeed_$mm" "topology_topoplace_$mm" topoplace topo_spank_labtool >/dev/null) \
    || { echo "release.sh: build for Slurm $REL failed" >&2; return 1; }
}

# paths as the test sees them
if [ -n "$R" ]; then
  TOOLS=/opt/topoplace-host; P="/src/$OUT"
  CLI="$TOOLS/topoplace"; LABTOOL="$TOOLS/topo_spank_labtool"; SO="$P/topoplace.so"; FEED="$P/topoplace-nodefeed"
else
  CLI="$OUT/cli/topoplace"; LABTOOL="$OUT/tests/topo_spank_labtool"; SO="$OUT/spank/topoplace.so"; FEED="$OUT/spank/topoplace-nodefeed"
fi

case "$ACTION" in
  build) build ;;
  run) in_release "$@" ;;
  test)
    t="${1:?release.sh RELEASE test T}"; shift
    build
    case "$t" in
      symbols) bash "$SRC/tests/unit/spank/check-symbols.sh" "$SRC/${SO#/src/}" ;;
      t-mismatch.sh)  # another release's build of the plugin (for 22.05 and 26.05: 24.11's)
        case "$REL" in 24.11) other=26.05 ;; *) other=24.11 ;; esac
        of="$BUILD/slurm-$other/topoplace.so"
        [ -f "$SRC/$of" ] || { echo "SKIP: no Slurm $other build of the plugin yet ($of)"; exit 77; }
        [ -n "$R" ] && of="/src/$of"
        in_release bash tests/lab/t-mismatch.sh "$of" "$SO" ;;
      t-native.sh) in_release bash tests/lab/t-native.sh "$CLI" "$SO" "$@" ;;
      t-place.sh) in_release bash tests/lab/t-place.sh "$CLI" "$SO" "$@" ;;
      t-topology.sh)  # topology/topoplace: 24.11+ only (no build for 22.05)
        [ -n "$R" ] || { echo "SKIP: Slurm $REL has no topology_p_eval_nodes"; exit 77; }
        if [ -f "$SRC/$OUT/topology_topoplace.NOT-BUILT" ]; then echo "SKIP: $(cat "$SRC/$OUT/topology_topoplace.NOT-BUILT")"; exit 77; fi
        in_release bash tests/lab/t-topology.sh "$CLI" "$P/topology_topoplace.so" "$SO" "$@" ;;
      t-doctor.sh)  # the README's quick start + topoplace doctor; the topology plugin where built, and
        # another release's plugin as "the topology plugin of another release"
        tso=-; [ -n "$R" ] && [ ! -f "$SRC/$OUT/topology_topoplace.NOT-BUILT" ] && tso="$P/topology_topoplace.so"
        case "$REL" in 24.11) other=26.05 ;; *) other=24.11 ;; esac
        of="$BUILD/slurm-$other/topoplace.so"; [ -f "$SRC/$of" ] || of=-
        [ -n "$R" ] && [ "$of" != - ] && of="/src/$of"
        in_release bash tests/lab/t-doctor.sh "$CLI" "$SO" "$FEED" "$tso" "$of" ;;
      t-spank.sh) in_release bash tests/lab/t-spank.sh "$CLI" "$SO" "$LABTOOL" "$FEED" "$@" ;;
      t-replay.sh)  # the topology plugin where this release has one built, else '-'
        tso=-; [ -n "$R" ] && [ ! -f "$SRC/$OUT/topology_topoplace.NOT-BUILT" ] && tso="$P/topology_topoplace.so"
        in_release bash tests/lab/t-replay.sh "$CLI" "$SO" "$tso" "$@" ;;
      *) in_release bash "tests/lab/$t" "$CLI" "$@" ;;
    esac ;;
  *) echo "release.sh: unknown action '$ACTION'" >&2; exit 2 ;;
esac
