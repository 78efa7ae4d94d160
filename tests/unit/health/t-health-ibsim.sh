#!/usr/bin/env bash
# health check's libibumad path on a simulated fabric: ibsim (Debian ibsim-utils) simulates
# tests/fixtures/ibsim/rail-2su.net, libumad2sim.so (LD_PRELOAD) makes the real libibumad
# (dlopen'ed by the ib probe: umad_get_cas_names, umad_get_ca) see its port. Checks that the
# probe reads state/physical state/rate through libibumad, and compares the rate it read
# with the snapshot's expectation.
#   t-health-ibsim.sh TOPOPLACE FIXTURES        exit 77 (skipped) without ibsim/umad2sim
set -euo pipefail
T=$1
FIX=$2
. "$(dirname "$0")/../../ibsim/lib.sh"
command -v ibsim >/dev/null || { echo "SKIP: ibsim not installed (apt install ibsim-utils)"; exit 77; }
[ -e "$SIM_SO" ] || { echo "SKIP: $SIM_SO missing (apt install libumad2sim0)"; exit 77; }
[ -e /usr/lib/x86_64-linux-gnu/libibumad.so.3 ] || { echo "SKIP: libibumad3 missing"; exit 77; }

ibsim_start health-ibsim "$FIX/ibsim/rail-2su.net"

set +e
out=$(sim "$T" health check --no-store --node dgx01 2>&1); rc=$?
set -e
if [ $rc -eq 0 ] && grep -q 'ok   ib *1 HCAs, 1 ports ACTIVE/LinkUp (libibumad)' <<<"$out"; then
  ok "no snapshot: the simulated port is ACTIVE/LinkUp through libibumad"
else bad "libibumad healthy (rc=$rc): $out $(cat "$W/ibsim.log")"; fi

"$T" discover --spec "$FIX/specs/dgx-h100-3tier.yaml" -o "$W/dgx.json" 2>/dev/null
set +e
out=$(sim "$T" health check --no-store --node dgx001 --snapshot "$W/dgx.json" --json 2>&1); rc=$?
set -e
# ibsim's port reports 4X SDR (rate 10); the snapshot wants 8 NDR HCAs named mlx5_*.
want='"reason": "1 HCAs present, 8 expected, ibsim0 port 0 rate 10 Gb/sec below expected 400 Gb/sec; snapshot names (mlx5_0...) not in sysfs: counted"'
if [ $rc -eq 1 ] && grep -qF "$want" <<<"$out"; then
  ok "snapshot expectations checked against libibumad's view (count, rate 10 < 400)"
else bad "libibumad vs snapshot (rc=$rc): $out"; fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
