#!/usr/bin/env bash
# Install every Debian 12 package topoplace needs to build, test and run its local
# Slurm lab. Idempotent; runs apt only when something is missing. Needs root (or sudo).
set -euo pipefail

PKGS=(
  # toolchain
  g++ clang clang-format clang-tidy libclang-rt-14-dev cmake ninja-build pkg-config make
  # libraries
  libboost-dev libboost-graph-dev libhwloc-dev hwloc-nox
  libibnetdisc-dev libibmad-dev libibumad-dev
  nlohmann-json3-dev libcli11-dev libspdlog-dev libfmt-dev libyaml-cpp-dev zlib1g-dev
  libgtest-dev libgmock-dev googletest libbenchmark-dev
  # Slurm 22.05 lab (integration tests) and the SPANK headers
  munge libmunge-dev slurmctld slurmd slurm-client libslurm-dev
  # the Debian package (cpack -G DEB, dpkg-shlibdeps) and its test (man pages)
  dpkg-dev binutils man-db groff-base bsdextrautils
  # job_submit.lua run outside slurmctld (Slurm 22.05 embeds Lua 5.1)
  lua5.1
  # the job-record layout check against a release's build (tests/lab/t-layout.sh)
  liblua5.4-dev
  # lab helpers
  iproute2 util-linux procps graphviz jq
  # the CLI tests' JSON checks, the lab's attacker (attack.py) and the what-if evaluation scripts
  python3
  # simulated InfiniBand fabric for live libibnetdisc tests (ibsim + umad2sim preload)
  ibsim-utils libumad2sim0 infiniband-diags
  # the what-if HTML report is checked in headless Chromium
  chromium
  # stretch test: topology/block on a live Slurm 24.11 in a Debian 13 chroot
  debootstrap
)

missing=()
for p in "${PKGS[@]}"; do
  grep -q 'install ok installed' <<<"$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PKGS[@]} packages present"
  exit 0
fi
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
echo "setup: installing ${missing[*]}"
# Keep package postinst scripts from starting the distro's own munged/slurmd.
made_policy=0
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d >/dev/null
  $SUDO chmod 755 /usr/sbin/policy-rc.d
  made_policy=1
fi
$SUDO apt-get update -q >/dev/null
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
[ "$made_policy" = 1 ] && $SUDO rm -f /usr/sbin/policy-rc.d
echo "setup: done"
