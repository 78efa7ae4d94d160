#!/usr/bin/env bash
# `discover --ib-live` on a machine without InfiniBand: exit 69 with a clear
# "no InfiniBand device" error, not a libibnetdisc failure on a made-up HCA
# (libibumad answers "mthca0" when /sys/class/infiniband is missing).
# The live path itself is tested against ibsim in tests/ibsim/t-ibsim-live.sh.
set -euo pipefail
TP=$1
. "$(dirname "$0")/lib.sh"

if [ -d /sys/class/infiniband ] && [ -n "$(ls -A /sys/class/infiniband)" ]; then
  echo "SKIP: this machine has InfiniBand devices ($(ls /sys/class/infiniband | tr '\n' ' '))"
  exit 0
fi
expect_rc 69 "--ib-live without an HCA" env -u LD_PRELOAD "$TP" discover --ib-live -o "$TMP/x.json"
if grep -qF "no libibnetdisc support" "$TMP/err"; then
  echo "SKIP: this build has no libibnetdisc"
  exit 0
fi
err_has "no InfiniBand device found"
err_has "/sys/class/infiniband"
check "no made-up HCA named" bash -c "! grep -q mthca0 '$TMP/err'"
check "no output file written" test ! -e "$TMP/x.json"
finish
