#!/usr/bin/env bash
# NVLink racks as Slurm blocks, on a live Slurm 24.05+ (tests/lab/release.sh 24.11|26.05 test
# t-native.sh): a GB200 lab (4 NVL72 racks x 18 trays, 16 usable: tests/fixtures/specs/
# gb200-nvl72x4.yaml) with the block topology topoplace generates, the plugin and
# job_submit.lua (BLOCK_SEGMENTS = true).
#   t-native.sh TOPOPLACE TOPOPLACE_SO
# 1. slurm-conf --format block for this release: BlockSizes=16,32,64, one block per rack;
#    slurmctld loads exactly those blocks.
# 2. racks with 10/12/14/16 free trays: `sbatch --topo-nvl -N16` lands inside the one rack
#    that can hold it (Slurm's block plugin at schedule time; on 26.05 job_submit.lua also sets
#    segment_size=16, on 24.11 Lua cannot); a plain `sbatch -N16` lands there too (observed:
#    the block plugin keeps any job of up to the base block size inside one block).
# 3. no rack with 16 free (15 at most): the --topo-nvl job is not placed across racks (it
#    waits); the plain -N16 job waits too ("No suitable topology unit found" on 26.05).
# 4. 26.05 only: topology.yaml from topoplace (tree for the InfiniBand fabric, block for the
#    racks), partition "ib" Topology=tree and "nvl" Topology=block, loaded and used: on the
#    busy state of 3 a plain 16-node job in "ib" spans racks while the --topo-nvl job in "nvl"
#    waits for one rack.
# Prints "N passed, N failed"; exit 77 before 24.05 or without root/Slurm.
set -uo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
TOPOPLACE="${1:-topoplace}"
SO_BUILT="$(readlink -f "${2:?usage: t-native.sh TOPOPLACE TOPOPLACE_SO}")"
REL=$(slurmctld -V 2>/dev/null | awk '{split($2, v, "."); print v[1] "." v[2]}')
case "$REL" in 2[4-9].*) ;; *) echo "SKIP: Slurm '$REL' has no topology/block with BlockSizes (24.05+)"; exit 77 ;; esac
LAB_JOB_SLEEP=600
. "$HERE/lib.sh"
lab_init native /tmp/tplab-native 16987 18300 72 slurmctld slurmd munged scontrol sbatch
export LAB_NODE_PREFIX=gb LAB_TOPOLOGY=block
FIX="$HERE/../fixtures"
SNAP="$WORK/nvl.json"
check "topoplace discover --spec gb200-nvl72x4.yaml" "$TOPOPLACE" discover --spec "$FIX/specs/gb200-nvl72x4.yaml" -o "$SNAP"
check "slurm-conf --format block --slurm-version $REL" "$TOPOPLACE" slurm-conf "$SNAP" --format block --slurm-version "$REL" \
  --features "$WORK/features.conf" -o "$WORK/block.conf"
check "generated: BlockSizes=16,32,64 and 4 rack blocks" bash -c \
  "grep -qx 'BlockSizes=16,32,64' '$WORK/block.conf' && [ \$(grep -c '^BlockName=rack0[1-4] Nodes=' '$WORK/block.conf') = 4 ]"
cp "$SO_BUILT" "$WORK/topoplace.so"; chmod 755 "$WORK/topoplace.so"
echo "required $WORK/topoplace.so snapshot=$SNAP on_error=warn default=off wait=120" > "$WORK/plugstack.conf"
sed 's/^local BLOCK_SEGMENTS = false$/local BLOCK_SEGMENTS = true/' "$HERE/../../slurm-conf/lua/job_submit.lua" > "$WORK/job_submit.lua"
grep -q '^local BLOCK_SEGMENTS = true$' "$WORK/job_submit.lua" || { bad "job_submit.lua with BLOCK_SEGMENTS = true"; lab_abort; }

rack_of() { local i=${1#gb}; i=$((10#$i)); echo $(((i - 1) / 18 + 1)); }
racks_of() { local n; for n in $(expand_hostlist "$1"); do rack_of "$n"; done | sort -u | paste -sd,; }
state_after() { # jobid -> "STATE NODES REASON" after a few scheduling passes
  local j=$1 st
  for _ in $(seq 40); do st=$(squeue -h -j "$j" -o %T 2>/dev/null); [ "$st" = RUNNING ] && break; sleep 0.25; done
  squeue -h -j "$j" -o '%T|%N|%r'
}
busy_racks() { # free trays per rack, e.g. "10 12 14 16": one job per rack holds the rest
  local r=1 f busy a
  for f in "$@"; do
    busy=$((18 - f)); a=$(( (r - 1) * 18 + 1 ))
    [ "$busy" -gt 0 ] && { j=$(sub -N "$busy" -w "$(printf 'gb[%03d-%03d]' "$a" $((a + busy - 1)))" "${BUSY_ARGS[@]}"); wait_running "$j" 20 >/dev/null; }
    r=$((r + 1))
  done
}
BUSY_ARGS=()

# ---------------------------------------------------------------- 1-3: topology/block
lab_up "lab up (72 nodes, Slurm $REL, topology/block from topoplace, the plugin)" LAB_TOPOLOGY_FILE="$WORK/block.conf" \
  LAB_FEATURES_FILE="$WORK/features.conf" LAB_PLUGSTACK_FILE="$WORK/plugstack.conf" $(lab_lua "$WORK/job_submit.lua")
got=$(scontrol show topology 2>&1 | sed -n 's/^BlockName=\(rack0[1-4]\) BlockIndex=[0-9]* Nodes=\([^ ]*\) BlockSize=\([0-9]*\).*/\1 \2 \3/p' | paste -sd';')
want="rack01 gb[001-018] 16;rack02 gb[019-036] 16;rack03 gb[037-054] 16;rack04 gb[055-072] 16"
if [ "$got" = "$want" ]; then ok "slurmctld $REL loaded the 4 generated blocks (base block size 16)"
else bad "slurmctld loaded the generated blocks" "got: $got; $(scontrol show topology 2>&1 | head -8)"; fi

busy_racks 10 12 14 16
j=$(sub -N16 --topo-nvl --topo-explain 2>"$WORK/nvl.err"); IFS='|' read -r st nodes _ <<<"$(state_after "$j")"
if [ "$st" = RUNNING ] && [ "$(racks_of "$nodes")" = 4 ]; then ok "racks 10/12/14/16 free: sbatch --topo-nvl -N16 runs inside rack04 ($nodes)"
else bad "--topo-nvl -N16 inside the one rack with 16 free" "state=$st nodes=$nodes; $(cat "$WORK/nvl.err")"; fi
applied=$(grep 'lua: topoplace: uid 0 pack plan' "$LAB_DIR/log/slurmctld.log" | tail -1)
case "$REL" in
  2[6-9].*) if grep -q 'segment_size=16' <<<"$applied"; then ok "job_submit.lua on $REL set segment_size=16 ($applied)"
            else bad "job_submit.lua on $REL sets segment_size=16" "$applied"; fi ;;
  *) if grep -q 'segment_size not settable from Lua on this release' <<<"$applied"; then ok "job_submit.lua on $REL: segment_size not settable from Lua, said so ($applied)"
     else bad "job_submit.lua on $REL reports segment_size not settable" "$applied"; fi ;;
esac
scancel "$j"; sleep 1
j=$(sub -N16); IFS='|' read -r st nodes _ <<<"$(state_after "$j")"
echo "     plain sbatch -N16 on the same state: $st $nodes (racks $(racks_of "$nodes"))"
if [ "$st" = RUNNING ] && [ "$(racks_of "$nodes")" = 4 ]; then ok "plain -N16 also kept inside one rack by Slurm $REL's block plugin (observed)"
else bad "plain -N16 under topology/block" "state=$st nodes=$nodes"; fi
scancel "$j"; clear_jobs 150

busy_racks 10 12 14 15
j=$(sub -N16 --topo-nvl 2>"$WORK/nvl2.err"); IFS='|' read -r st nodes reason <<<"$(state_after "$j")"
if [ "$st" = PENDING ]; then ok "racks 10/12/14/15 free: --topo-nvl -N16 waits for a rack, never spans ($reason)"
else bad "--topo-nvl -N16 with no rack of 16 free must wait" "state=$st nodes=$nodes racks=$(racks_of "$nodes")"; fi
j2=$(sub -N16); IFS='|' read -r st2 nodes2 reason2 <<<"$(state_after "$j2")"
echo "     plain sbatch -N16 on the same state: $st2 $nodes2 ($reason2)"
clear_jobs 150
ctld_log_clean "slurmctld log clean (topology/block)"

# ---------------------------------------------------------------- 4: topology.yaml (25.05+)
case "$REL" in
  2[5-9].*|[3-9]*)
    "$LIB_SRC/down.sh" >/dev/null 2>&1
    check "slurm-conf --format yaml (tree + block)" "$TOPOPLACE" slurm-conf "$SNAP" --format yaml --slurm-version "$REL" -o "$WORK/topology.yaml"
    lab_up "lab up with topology.yaml: partition ib (tree), nvl (block)" LAB_TOPOLOGY_FILE="$WORK/block.conf" \
      LAB_TOPOLOGY_YAML="$WORK/topology.yaml" LAB_FEATURES_FILE="$WORK/features.conf" LAB_PLUGSTACK_FILE="$WORK/plugstack.conf" \
      LAB_PARTITIONS="PartitionName=ib Nodes=ALL Default=YES MaxTime=INFINITE State=UP Topology=tree
PartitionName=nvl Nodes=ALL MaxTime=INFINITE State=UP Topology=block" $(lab_lua "$WORK/job_submit.lua")
    tc=$(scontrol show topoconf 2>&1 | head -40)
    if grep -q 'topology: tree' <<<"$tc" && grep -q 'topology: block' <<<"$tc"; then ok "scontrol show topoconf: both topologies of the generated yaml"
    else bad "scontrol show topoconf shows tree and block" "$tc"; fi
    BUSY_ARGS=(-p ib); busy_racks 10 12 14 15
    j=$(sub -p ib -N16); IFS='|' read -r st nodes _ <<<"$(state_after "$j")"
    if [ "$st" = RUNNING ] && [ "$(racks_of "$nodes" | tr ',' '\n' | wc -l)" -ge 2 ]; then ok "partition ib (tree): a plain 16-node job spans racks $(racks_of "$nodes") ($nodes)"
    else bad "partition ib: a plain 16-node job spans racks" "state=$st nodes=$nodes"; fi
    scancel "$j"; sleep 1
    j=$(sub -p nvl -N16 --topo-nvl 2>"$WORK/nvl3.err"); IFS='|' read -r st nodes reason <<<"$(state_after "$j")"
    if [ "$st" = PENDING ]; then ok "partition nvl (block): the --topo-nvl job waits for one rack on the same state ($reason)"
    else bad "partition nvl: --topo-nvl job waits" "state=$st nodes=$nodes racks=$(racks_of "$nodes"); $(cat "$WORK/nvl3.err")"; fi
    clear_jobs 150
    ctld_log_clean "slurmctld log clean (topology.yaml)" ;;
  *) echo "     topology.yaml: Slurm $REL reads none (25.05+)" ;;
esac
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
