#!/usr/bin/env bash
# The main job, on bundled real examples:
#   1. discover Selene's real 666-switch rail-optimized fabric, summarise it, draw it;
#   2. the same for a GB200 NVL72 cluster declared in a cluster file;
#   3. generate Slurm's topology.conf from a real site fabric (PSMN X5) and compare it
#      with the file that site wrote;
#   4. start a live local Slurm 22.05 (real slurmctld + 16 slurmd), configured only from
#      topoplace's output, and run a job that Slurm packs into one leaf group.
# Outputs go to $OUT (default out/demo). Needs root for apt and the lab.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-out/demo}"
mkdir -p "$OUT"
bash scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release -j"${JOBS:-2}" --target topoplace
TP=build/release/cli/topoplace
FX=tests/fixtures
say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

say "1. Selene (NVIDIA DGX A100 SuperPOD) compute fabric, real ibnetdiscover dump"
"$TP" discover --ibnetdiscover "$FX/ibnetdiscover/selene-compute.ibnetdiscover.txt.gz" -o "$OUT/selene.json"
"$TP" show "$OUT/selene.json" | head -12
echo "   ... ($(grep -c '^Group=' < <("$TP" show "$OUT/selene.json")) groups)"
"$TP" show "$OUT/selene.json" --json | jq -c '{hosts, compute_hosts, gpus, nics, switches, tiers, rails, nvlink_domains, groups: (.groups | length)}'
"$TP" show "$OUT/selene.json" --dot > "$OUT/selene.dot"
dot -Tsvg "$OUT/selene.dot" -o "$OUT/selene.svg" && echo "   picture: $OUT/selene.svg"

say "2. GB200 NVL72 x4 declared in a cluster file (18 trays per rack, 16 usable)"
"$TP" discover --spec "$FX/specs/gb200-nvl72x4.yaml" -o "$OUT/nvl72.json"
"$TP" show "$OUT/nvl72.json" | grep -E '^   |^NVLinkDomain'

say "3. topology.conf for PSMN X5 (real dump + GUID map) vs the site's own file"
"$TP" discover --ibnetdiscover "$FX/ibnetdiscover/psmn-x5-qdr.ibnetdiscover.txt" \
  --node-name-map "$FX/ibnetdiscover/psmn-x5-qdr.guid-hostname.map" -o "$OUT/psmn.json"
"$TP" slurm-conf "$OUT/psmn.json" --format tree -o "$OUT/psmn.topology.conf"
cat "$OUT/psmn.topology.conf"

say "4. live Slurm 22.05 lab configured from topoplace's output"
if [ -x tests/lab/t-tree.sh ] || [ -f tests/lab/t-tree.sh ]; then
  LAB_KEEP_LOG="$OUT/lab" bash tests/lab/t-tree.sh "$TP"
else
  echo "   (lab test not available in this checkout)"
fi

say "done: outputs in $OUT"
echo "   not yet in this release: the placement engine and 'topoplace whatif' (issue 6), the SPANK plugin (issue 4)"
