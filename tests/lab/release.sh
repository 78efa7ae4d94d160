#!/usr/bin/env bash
# Build topoplace for one Slurm release and run a lab test on a live cluster of that release.
#   release.sh RELEASE build              build/slurm-RELEASE: CLI, plugin, topoplace-nodefeed, lab tool
#   release.sh RELEASE test T [ARGS...]   build, then tests/lab/T with that build's binaries
#   release.sh RELEASE run CMD [ARGS...]  CMD inside the release's chroot (source tree at /src)
# RELEASE: 22.05 (this Debian 12 host's Slurm), 24.11 (Debian 13 trixie chroot), 26.05
# (Debian sid chroot). The chroots are made once by chroot.sh and cached under /var/tmp;
# everything runs in a private mount namespace (the bind mounts vanish with it), so the
# host's /etc/slurm, services and mounts are never touched. Exit 77 (skip) when the release
# cannot be had here (not root, no debootstrap/archive).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
SRC="$(cd "$HERE/../.." && pwd)"
REL="${1:?usage: release.sh 22.05|24.11|26.05 build|test|run ...}"; shift
ACTION="${1:?usage: release.sh RELEASE build|test|run ...}"; shift
case "$REL" in
  22.05) SUITE=bookworm ;;
  24.11) SUITE=trixie ;;
  26.05) SUITE=sid ;;
  *) echo "release.sh: unknown Slurm release '$REL' (22.05, 24.11 or 26.05)" >&2; exit 2 ;;
esac
[ "$(id -u)" = 0 ] || { echo "SKIP: release labs need root"; exit 77; }
BUILD_REL="build/slurm-$REL"
[ "$REL" = 22.05 ] && BUILD_REL="build/dev"   # the host's own build (scripts/test.sh makes it)

if [ "$SUITE" = bookworm ]; then
  # the host itself is the 22.05 system
  have=$(dpkg-query -W -f='${Version}' libslurm-dev 2>/dev/null || true)
  case "$have" in 22.05.*) ;; *) echo "SKIP: the host's libslurm-dev is '$have', not 22.05"; exit 77 ;; esac
  R=""
  in_release() { (cd "$SRC" && "$@"); }
else
  R=$("$HERE/chroot.sh" "$SUITE") || exit $?
  in_release() {
    # private mounts: source tree at /src, /proc, /dev, /sys (read-only) for slurmd's hwloc
    unshare --mount --propagation private -- bash -c '
      set -e; R=$1; SRC=$2; shift 2
      mkdir -p "$R/src"
      mount --bind "$SRC" "$R/src"
      mount -t proc proc "$R/proc"
      mount --rbind /dev "$R/dev"
      mount --rbind /sys "$R/sys"; mount -o remount,bind,ro "$R/sys" 2>/dev/null || true
      mount -t tmpfs tmpfs "$R/dev/shm" 2>/dev/null || true
      cd "$R/src"
      exec chroot "$R" env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
        LANG=C.UTF-8 TERM=dumb ${T_ENV:-} bash -c "cd /src && exec \"\$@\"" bash "$@"
    ' bash "$R" "$SRC" "$@"
  }
fi

build() {
  if [ "$REL" = 22.05 ]; then
    [ -f "$SRC/$BUILD_REL/spank/topoplace.so" ] || { echo "release.sh: no $BUILD_REL (cmake --preset dev && cmake --build --preset dev)" >&2; return 1; }
    return 0
  fi
  local bin="$BUILD_REL" log="$SRC/$BUILD_REL.log"
  mkdir -p "$SRC/build"
  echo "release.sh: building for Slurm $REL in $BUILD_REL (log $BUILD_REL.log)" >&2
  if ! in_release bash -c "
      cmake -S . -B '$bin' -G Ninja -DCMAKE_BUILD_TYPE=Release -DTOPO_SLURM_RELEASE=$REL \
        -DTOPO_WITH_HWLOC=OFF -DTOPO_WITH_IBNETDISC=OFF -DTOPO_BUILD_BENCH=OFF -DTOPO_BUILD_TESTS=ON \
        -DCMAKE_INSTALL_PREFIX=/usr -DCPACK_PACKAGE_FILE_NAME= >/dev/null &&
      cmake --build '$bin' -j\${JOBS:-2} --target topoplace topoplace_spank topoplace-nodefeed topo_spank_labtool" \
      > "$log" 2>&1; then
    tail -30 "$log" >&2; echo "release.sh: build for Slurm $REL failed" >&2; return 1
  fi
}

case "$ACTION" in
  build) build ;;
  run) in_release "$@" ;;
  test)
    t="${1:?release.sh RELEASE test T}"; shift
    build
    b="$BUILD_REL"
    [ -n "$R" ] && b="/src/$BUILD_REL"
    case "$t" in
      t-mismatch.sh)  # the plugin built for the next release (for 26.05, 24.11's)
        case "$REL" in 22.05) other=build/slurm-24.11 ;; 24.11) other=build/slurm-26.05 ;; 26.05) other=build/slurm-24.11 ;; esac
        [ -f "$SRC/$other/spank/topoplace.so" ] || { echo "SKIP: no $other build yet"; exit 77; }
        in_release bash tests/lab/t-mismatch.sh "$other/spank/topoplace.so" "$BUILD_REL/spank/topoplace.so" ;;
      symbols) in_release bash tests/unit/spank/check-symbols.sh "$b/spank/topoplace.so" ;;
      t-spank.sh) in_release bash tests/lab/t-spank.sh "$b/cli/topoplace" "$b/spank/topoplace.so" \
                    "$b/tests/topo_spank_labtool" "$b/spank/topoplace-nodefeed" "$@" ;;
      *) in_release bash "tests/lab/$t" "$b/cli/topoplace" "$@" ;;
    esac ;;
  *) echo "release.sh: unknown action '$ACTION'" >&2; exit 2 ;;
esac
