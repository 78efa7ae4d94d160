#!/usr/bin/env bash
# The what-if evaluation of docs/results/placement-cost.md (issue 16): replays of generated
# traces at 0.85 offered load on Selene (the real compute fabric), a 2-tier and a 3-tier
# rail-optimised fabric and GB200 NVL72, one JSON per (fabric, seed), then paired
# differences against the first policy (scripts/whatif_paired.py).
#   scripts/whatif-eval.sh OUT SEEDS POLICIES [whatif options...]
#   e.g. scripts/whatif-eval.sh /tmp/ev 200 cost,topo,slurm-tree,linear
#        scripts/whatif-eval.sh /tmp/ev-deg 200 cost,topo --degraded 0.005 --degraded-rule off
# Needs a build (TP=path/to/topoplace, default build/release/cli/topoplace). FABRICS
# (default "selene fat2 fat3 gb200"; also fat3-16k, bench_whatif's 16,384-host fabric) and
# JOBS (default 5000) may be set; JOBS_PARALLEL=N runs N replays at once. The byte-identity
# check of a change that must not alter decisions (issue 29): the 20 default replays
# (SEEDS=5, cost,topo,slurm-tree,linear) plus FABRICS=fat3-16k, cmp'd before and after.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TP=${TP:-$ROOT/build/release/cli/topoplace}
FX=$ROOT/tests/fixtures
OUT=$1; SEEDS=$2; POLICIES=$3; shift 3
FABRICS=${FABRICS:-selene fat2 fat3 gb200}
JOBS=${JOBS:-5000}
mkdir -p "$OUT"
snap() {  # fabric -> snapshot path, made once
  local f=$1 s=$OUT/$1.snapshot.json
  [ -s "$s" ] && { echo "$s"; return; }
  case $f in
    selene) "$TP" discover --ibnetdiscover "$FX/ibnetdiscover/selene-compute.ibnetdiscover.txt.gz" \
              --nvidia-smi-topo "$FX/nvidia-smi-topo/oyanghd-dgx-a100-epyc7742-nps4.topo-m.txt" -o "$s" 2>/dev/null ;;
    fat2) printf '%s\n' 'version: 1' 'name: fat2-512' 'nodes:' '  - names: dgx[001-512]' \
            '    gpus: {count: 8, model: NVIDIA H100 80GB HBM3}' \
            'fabric: {hosts_per_leaf: 32, rails: 8, spines_per_rail: 4, gbps: 400, rate: 4xNDR}' > "$OUT/fat2.yaml"
          "$TP" discover --spec "$OUT/fat2.yaml" -o "$s" 2>/dev/null ;;
    fat3) printf '%s\n' 'version: 1' 'name: fat3-1024' 'nodes:' '  - names: dgx[0001-1024]' \
            '    gpus: {count: 8, model: NVIDIA H100 80GB HBM3}' \
            'fabric: {hosts_per_leaf: 32, rails: 8, spines_per_rail: 2, sus_per_pod: 4, cores_per_rail: 2, gbps: 400, rate: 4xNDR}' > "$OUT/fat3.yaml"
          "$TP" discover --spec "$OUT/fat3.yaml" -o "$s" 2>/dev/null ;;
    gb200) "$TP" discover --spec "$FX/specs/gb200-nvl72x4.yaml" -o "$s" 2>/dev/null ;;
    fat3-16k) printf '%s\n' 'version: 1' 'name: bench-16384' 'nodes:' '  - names: gpu[00001-16384]' \
            '    gpus: {count: 8, model: NVIDIA H100 80GB HBM3}' \
            'fabric: {hosts_per_leaf: 32, rails: 8, spines_per_rail: 2, sus_per_pod: 8, cores_per_rail: 2, gbps: 400, rate: 4xNDR}' > "$OUT/fat3-16k.yaml"
          "$TP" discover --spec "$OUT/fat3-16k.yaml" -o "$s" 2>/dev/null ;;
    *) echo "unknown fabric $f" >&2; return 1 ;;
  esac
  echo "$s"
}
tasks=()
for f in $FABRICS; do
  s=$(snap "$f")
  extra=(); [ "$f" = gb200 ] && extra=(--max-nodes 16)
  for seed in $(seq 1 "$SEEDS"); do
    tasks+=("$TP whatif $s --generate $JOBS --load 0.85 --seed $seed --policies $POLICIES ${extra[*]} $* --json > $OUT/$f.s$seed.json 2>/dev/null")
  done
done
t0=$(date +%s)
printf '%s\n' "${tasks[@]}" | xargs -P "${JOBS_PARALLEL:-1}" -I{} sh -c '{}'
echo "$(( ${#tasks[@]} )) replays in $(( $(date +%s) - t0 )) s -> $OUT" >&2
