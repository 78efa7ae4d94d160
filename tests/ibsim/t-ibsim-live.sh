#!/usr/bin/env bash
# Live InfiniBand discovery through libibnetdisc, on a simulated fabric.
#   t-ibsim-live.sh TOPOPLACE FIXTURES
# ibsim (Debian ibsim-utils) simulates the subnet of tests/fixtures/ibsim/rail-2su.net;
# libumad2sim.so (LD_PRELOAD) makes libibumad talk to it, so the real rdma-core stack
# (umad_get_cas_names, ibnd_discover_fabric, ibnd_cache_fabric/ibnd_load_fabric) runs
# unchanged. Checks: `discover --ib-live`, `discover --ibnd-cache` of a cache written
# by the real `ibnetdiscover --cache`, and `discover --ibnetdiscover` of the real tool's
# text dump all give the same model (same fingerprint) with the expected figures.
# Exit 77 (skipped) when ibsim, umad2sim or ibnetdiscover is not installed.
set -euo pipefail
TOPOPLACE=$1
FIX=$2
. "$(dirname "$0")/lib.sh"
for x in ibsim ibnetdiscover; do
  command -v "$x" >/dev/null || { echo "SKIP: $x not installed (apt install ibsim-utils infiniband-diags)"; exit 77; }
done
[ -e "$SIM_SO" ] || { echo "SKIP: $SIM_SO missing (apt install libumad2sim0)"; exit 77; }

ibsim_start ibsim "$FIX/ibsim/rail-2su.net"

sim "$TOPOPLACE" discover --ib-live -o "$W/live.json" 2> "$W/live.err" || { cat "$W/live.err" "$W/ibsim.log"; bad "discover --ib-live"; }
sim ibnetdiscover --cache "$W/fabric.cache" > "$W/fabric.txt" 2> "$W/ibnd.err" || { cat "$W/ibnd.err"; bad "ibnetdiscover"; }
"$TOPOPLACE" discover --ibnd-cache "$W/fabric.cache" -o "$W/cache.json" 2> "$W/cache.err" || { cat "$W/cache.err"; bad "discover --ibnd-cache"; }
"$TOPOPLACE" discover --ibnetdiscover "$W/fabric.txt" -o "$W/text.json" 2> "$W/text.err" || { cat "$W/text.err"; bad "discover --ibnetdiscover"; }

for s in live cache text; do
  [ -s "$W/$s.json" ] || { bad "$s snapshot missing"; continue; }
  got=$("$TOPOPLACE" show "$W/$s.json" --json | jq -c '[.hosts,.nics,.switches,.tiers,.rails,.groups]')
  want='[4,8,6,2,2,[["dgx01","dgx02"],["dgx03","dgx04"]]]'
  if [ "$got" = "$want" ]; then ok "$s: $got"; else bad "$s: got $got want $want"; fi
done
fp() { jq -r .fingerprint "$W/$1.json" 2>/dev/null; }
if [ -n "$(fp live)" ] && [ "$(fp live)" = "$(fp cache)" ] && [ "$(fp live)" = "$(fp text)" ]; then
  ok "live, cache and text dump give one model ($(fp live))"
else
  bad "fingerprints differ: live=$(fp live) cache=$(fp cache) text=$(fp text)"
fi
# rails come from the links: mlx5_0 of every host is on one rail, mlx5_1 on the other
rails=$(jq -c '[.nics.rows[] | select(.[1]=="mlx5_0") | .[9]] | unique' "$W/live.json")
[ "$rails" = "[0]" ] && ok "every mlx5_0 on rail 0" || bad "mlx5_0 rails $rails"
# a corrupt cache is a clear error naming the file, exit 65
printf 'garbage' > "$W/bad.cache"
set +e
"$TOPOPLACE" discover --ibnd-cache "$W/bad.cache" -o "$W/bad.json" 2> "$W/bad.err"; rc=$?
set -e
if [ $rc -eq 65 ] && grep -q "bad.cache" "$W/bad.err"; then ok "corrupt cache: exit 65, $(cat "$W/bad.err")"; else bad "corrupt cache rc=$rc $(cat "$W/bad.err")"; fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
