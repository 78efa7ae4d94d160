#!/usr/bin/env bash
# The main job, on bundled real examples:
#   1. discover Selene's real 666-switch rail-optimized fabric, summarise it, draw it;
#   2. the same for a GB200 NVL72 cluster declared in a cluster file;
#   3. generate Slurm's topology.conf from a real site fabric (PSMN X5) and compare it
#      with the file that site wrote;
#   4. place a 16-node job on Selene, then replay a generated trace on Selene under the
#      cost, slurm-tree-24, slurm-tree, topo and linear policies with Llama 3's failure rate and 0.5 % degraded
#      hosts (what-if in GPU-hours and ETTR, HTML report);
#   5. start a live local Slurm 22.05 (real slurmctld + 16 slurmd), configured only from
#      topoplace's output, and run a job that Slurm packs into one leaf group;
#   6. a 64-node live Slurm with the topoplace SPANK plugin: `sbatch --topo=pack` lands on
#      the nodes `topoplace place` predicted where Slurm alone splits the job, per-task
#      NCCL_IB_HCA, bad option values refused, and the placement service of
#      topoplace-nodefeed with the sbatch overhead of each way to decide (tests/lab/t-spank.sh,
#      launch gate skipped here; the test suite runs it).
# Outputs go to $OUT (default out/demo). Needs root for apt and the lab.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-out/demo}"
mkdir -p "$OUT"
bash scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release -j"${JOBS:-2}" --target topoplace topoplace_spank topo_spank_labtool topoplace-nodefeed
TP=build/release/cli/topoplace
FX=tests/fixtures
say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

say "1. Selene (NVIDIA DGX A100 SuperPOD) compute fabric, real ibnetdiscover dump"
# Selene's nodes are DGX A100: one real DGX A100 `nvidia-smi topo -m` matrix gives every
# host its 8 GPUs and their GPU-NIC locality.
"$TP" discover --ibnetdiscover "$FX/ibnetdiscover/selene-compute.ibnetdiscover.txt.gz" \
  --nvidia-smi-topo "$FX/nvidia-smi-topo/oyanghd-dgx-a100-epyc7742-nps4.topo-m.txt" -o "$OUT/selene.json"
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
# compare the hosts under each leaf switch with the site's own topology.conf (its leaf lines)
python3 - "$TP" "$OUT/psmn.json" "$FX/slurm-topology/psmn-x5-qdr.topology.conf" <<'PY'
import json, re, subprocess, sys
tp, ours, site = sys.argv[1:4]
def expand(hl):  # Slurm hostlist: a[1-3,5],b
    out = []
    for part in re.findall(r'[^,\[]+(?:\[[^\]]*\])?', hl):
        m = re.match(r'(.*)\[(.*)\](.*)', part)
        if not m:
            out.append(part); continue
        for r in m.group(2).split(','):
            lo, _, hi = r.partition('-'); hi = hi or lo
            out += [f"{m.group(1)}{i:0{len(lo)}d}{m.group(3)}" for i in range(int(lo), int(hi) + 1)]
    return out
leaves = {frozenset(expand(m)) for m in re.findall(r'^SwitchName=\S+\s+Nodes=(\S+)', open(site).read(), re.M)}
groups = {frozenset(g) for g in json.loads(subprocess.run([tp, "show", ours, "--json"], capture_output=True,
                                                         text=True, check=True).stdout)["groups"]}
print(f"   hosts per leaf: {len(groups)} groups from the dump, {len(leaves)} leaf lines in the site's file, "
      f"{len(groups & leaves)} identical")
PY

say "4. placement and what-if on Selene (real fabric)"
"$TP" place "$OUT/selene.json" --nodes 16 --gpus-per-node 8 --explain
"$TP" whatif "$OUT/selene.json" --generate 3000 --load 0.85 --seed 1 --policies cost,slurm-tree-24,slurm-tree,topo,linear --degraded 0.005 \
  --failures "$FX/failures/llama3-405b-unexpected-interruptions.csv" --checkpoint-interval 3600 --restart-cost 600 \
  --health-gate both --report "$OUT/whatif"
echo "   report: $OUT/whatif/index.html"

say "5. live Slurm 22.05 lab configured from topoplace's output"
if [ -x tests/lab/t-tree.sh ] || [ -f tests/lab/t-tree.sh ]; then
  bash tests/lab/t-tree.sh "$TP"
else
  echo "   (lab test not available in this checkout)"
fi

say "6. live Slurm 22.05 lab (64 nodes) with the topoplace SPANK plugin"
T_SPANK_SKIP_GATE=1 bash tests/lab/t-spank.sh "$TP" build/release/spank/topoplace.so build/release/tests/topo_spank_labtool \
  build/release/spank/topoplace-nodefeed

say "done: outputs in $OUT"
