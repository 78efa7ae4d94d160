#!/usr/bin/env bash
# Make (once) and cache a Debian chroot holding one Slurm release (daemons, clients, munge,
# libslurm-dev), for the per-release builds and labs:
#   chroot.sh SUITE            SUITE = trixie (Slurm 24.11) | sid (Slurm 26.05)
# Prints the chroot's path. Cached at ${TOPO_CHROOT_BASE:-/var/tmp}/topoplace-SUITE; a
# chroot is complete once it holds .topoplace-ready (a half-made one is redone). Never
# touches the host's /etc/slurm or its services: postinst scripts cannot start daemons
# (policy-rc.d inside the chroot) and nothing is started here.
# Needs root and debootstrap with access to Debian's archive (TOPO_DEBIAN_MIRROR).
set -euo pipefail
SUITE="${1:?usage: chroot.sh trixie|sid}"
case "$SUITE" in trixie|sid) ;; *) echo "chroot.sh: unknown suite '$SUITE' (trixie or sid)" >&2; exit 2 ;; esac
BASE="${TOPO_CHROOT_BASE:-/var/tmp}"
R="$BASE/topoplace-$SUITE"
MIRROR="${TOPO_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
# What a lab of that release needs to run, and the release's headers and libslurm, which the
# host's build compiles the plugin and topoplace-nodefeed against (tests/lab/release.sh), and
# that build's plugin archives (slurm-wlm-basic-plugins-dev), whose machine code t-layout.sh
# checks our headers against.
PKGS=(libslurm-dev munge slurmctld slurmd slurm-client slurm-wlm-basic-plugins slurm-wlm-basic-plugins-dev
      procps util-linux hostname python3)
STAMP="$R/.topoplace-ready"
want="${PKGS[*]}"
if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$want" ]; then echo "$R"; exit 0; fi
[ "$(id -u)" = 0 ] || { echo "chroot.sh: needs root" >&2; exit 77; }
# One maker at a time (a lab and a package build may ask for the same chroot at once);
# whoever waited finds it made.
mkdir -p "$BASE"
exec 9>"$BASE/topoplace-$SUITE.lock"
flock 9
if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$want" ]; then echo "$R"; exit 0; fi
command -v debootstrap >/dev/null || { echo "chroot.sh: no debootstrap" >&2; exit 77; }
log="$BASE/topoplace-$SUITE.log"
if [ ! -x "$R/usr/bin/apt-get" ] || [ ! -f "$R/.topoplace-base" ]; then
  rm -rf "$R"
  echo "chroot.sh: debootstrap $SUITE into $R (once; log $log)" >&2
  debootstrap --variant=minbase "$SUITE" "$R" "$MIRROR" > "$log" 2>&1 \
    || { echo "chroot.sh: debootstrap $SUITE failed: $(tail -2 "$log")" >&2; exit 77; }
  touch "$R/.topoplace-base"
fi
printf '#!/bin/sh\nexit 101\n' > "$R/usr/sbin/policy-rc.d"; chmod 755 "$R/usr/sbin/policy-rc.d"
echo "deb $MIRROR $SUITE main" > "$R/etc/apt/sources.list"
# the archive this machine reaches may be a dated mirror whose sid Release has expired
echo 'Acquire::Check-Valid-Until "false";' > "$R/etc/apt/apt.conf.d/99topoplace"
mounted=0
if ! mountpoint -q "$R/proc"; then mount -t proc proc "$R/proc"; mounted=1; fi
trap '[ "$mounted" = 1 ] && umount "$R/proc"' EXIT
echo "chroot.sh: installing the $SUITE packages (log $log)" >&2
chroot "$R" apt-get update -q >> "$log" 2>&1
DEBIAN_FRONTEND=noninteractive chroot "$R" apt-get install -y -q --no-install-recommends "${PKGS[@]}" >> "$log" 2>&1 \
  || { echo "chroot.sh: apt-get install in $SUITE failed: $(tail -3 "$log")" >&2; exit 1; }
chroot "$R" apt-get clean
echo "$want" > "$STAMP"
echo "$R"
