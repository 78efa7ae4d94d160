#!/usr/bin/env bash
# End-to-end: topoplace-generated topology.conf and node Features in a real Slurm 22.05.
#   t-tree.sh [TOPOPLACE]        (root; Debian's slurmctld, slurmd, slurm-client, munge)
# 1. topoplace discover (hand-made fabric: 4 leaves x 4 hosts n001..n016, 2 HCAs each,
#    1 spine) + topoplace slurm-conf --format tree --features
# 2. a 16-node lab (8 fake GPUs each) with that topology.conf and those features
# 3. checks: slurmctld starts clean; `scontrol show topology` = the generated file; a
#    4-node job with busy nodes stays inside one leaf group; `-C "[lg_a|lg_b]"` keeps a
#    job inside one group.
# Prints "N passed, N failed"; exits non-zero on failure, 77 (skip) when it cannot run.
# Always tears the lab down (trap). Knobs: LAB_DIR, LAB_CTLD_PORT, LAB_SLURMD_PORT_BASE.
set -uo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
TOPOPLACE="${1:-topoplace}"
FIXTURE="$HERE/../fixtures/lab/lab-4x4.ibnetdiscover.txt"

. "$HERE/lib.sh"
lab_init tree /tmp/topoplace-lab-tree 16927 17300 16 slurmctld slurmd munged scontrol sbatch

# ---------------------------------------------------------------- 1. generate
SNAP="$WORK/lab.snapshot.json"
TOPO="$WORK/topology.conf"
FEAT="$WORK/features.conf"
check "topoplace discover" "$TOPOPLACE" discover --ibnetdiscover "$FIXTURE" -o "$SNAP"
check "topoplace slurm-conf --format tree --features" \
  "$TOPOPLACE" slurm-conf "$SNAP" --format tree --features "$FEAT" -o "$TOPO"
check "generated: 4 leaves + 1 spine" bash -c "[ \$(grep -c '^SwitchName=' '$TOPO') = 5 ] && grep -q '^SwitchName=spine Switches=leaf\[01-04\]' '$TOPO'"
check "generated: features for 16 nodes" bash -c "[ \$(grep -c '^NodeName=' '$FEAT') = 4 ]"
if [ "$fail" != 0 ]; then cat "$TOPO" "$FEAT" 2>/dev/null; lab_abort; fi

# ---------------------------------------------------------------- 2. lab
lab_up "lab up (16 nodes, topology from topoplace)" LAB_TOPOLOGY_FILE="$TOPO" LAB_FEATURES_FILE="$FEAT"

# ---------------------------------------------------------------- 3. checks
ctld_log_clean "slurmctld log clean (no error/fatal besides PMIx noise)" "slurmctld log clean"
check "TopologyPlugin is topology/tree" bash -c "scontrol show config | grep -Eq '^TopologyPlugin +=  *topology/tree'"

# Normalise a topology description to "name|L|<sorted nodes>" (leaves) and
# "name|S|<sorted child switches>" (others).
norm_conf() { # topology.conf
  grep '^SwitchName=' "$1" | while read -r a b; do
    name=${a#SwitchName=}
    case "$b" in
      Nodes=*)    echo "$name|L|$(expand_hostlist "${b#Nodes=}" | sort | paste -sd,)" ;;
      Switches=*) echo "$name|S|$(expand_hostlist "${b#Switches=}" | sort | paste -sd,)" ;;
    esac
  done | sort
}
norm_scontrol() {
  scontrol show topology | while read -r line; do
    name=$(sed -n 's/.*SwitchName=\([^ ]*\).*/\1/p' <<<"$line")
    level=$(sed -n 's/.*Level=\([0-9]*\).*/\1/p' <<<"$line")
    nodes=$(sed -n 's/.*Nodes=\([^ ]*\).*/\1/p' <<<"$line")
    sws=$(sed -n 's/.*Switches=\([^ ]*\).*/\1/p' <<<"$line")
    [ -z "$name" ] && continue
    if [ "$level" = 0 ]; then echo "$name|L|$(expand_hostlist "$nodes" | sort | paste -sd,)"
    else echo "$name|S|$(expand_hostlist "$sws" | sort | paste -sd,)"; fi
  done | sort
}
want=$(norm_conf "$TOPO"); got=$(norm_scontrol)
if [ -n "$want" ] && [ "$want" = "$got" ]; then ok "scontrol show topology = generated topology.conf ($(wc -l <<<"$got") switches)"
else bad "scontrol show topology = generated topology.conf" "$(diff <(echo "$want") <(echo "$got"); scontrol show topology)"; fi
check "node features from topoplace in slurmctld" bash -c \
  "[ \"\$(sinfo -h -N -n n001 -o %f)\" = lg_g001,sp_spine ] && [ \"\$(sinfo -h -N -n n016 -o %f)\" = lg_g004,sp_spine ]"
check "16 nodes idle with gpu:h100:8" bash -c "[ \$(sinfo -h -N -t idle -o %N | sort -u | wc -l) = 16 ] && sinfo -h -N -n n009 -o %G | grep -q gpu:h100:8"

leaf_groups "$FEAT"

# (a) 4-node job, free: leaf01 1 (n004), leaf02 3, leaf03 2, leaf04 4 -> only leaf04 fits.
#     Without topology (LAB_TOPOLOGY=none, checked by hand) Slurm took n[011-014]: two leaves.
clear_jobs
busy n001 n002 n003 n005 n009 n010
IFS='|' read -r st nodes _ <<<"$(wait_running "$(sub -N4)")"
g=$(groups_of "$nodes")
if [ "$st" = RUNNING ] && [ "$g" = lg_g004 ]; then ok "4-node job with busy nodes placed inside one leaf group ($nodes, $g)"
else bad "4-node job with busy nodes placed inside one leaf group" "state=$st nodes=$nodes groups=$g"; fi

# (b) 2-node job on top of that: free leaf01 1, leaf02 3, leaf03 2 -> inside one leaf
IFS='|' read -r st nodes _ <<<"$(wait_running "$(sub -N2)")"
g=$(groups_of "$nodes")
if [ "$st" = RUNNING ] && [ "${g//,/}" = "$g" ]; then ok "2-node job inside one leaf group ($nodes, $g)"
else bad "2-node job inside one leaf group" "state=$st nodes=$nodes groups=$g"; fi

# (c) matching OR constraint: n001, n005 busy; groups g001 and g002 each have 3 free.
clear_jobs
busy n001 n005
j3=$(sub -N3 -C "[lg_g001|lg_g002]")
IFS='|' read -r st nodes _ <<<"$(wait_running "$j3")"
g=$(groups_of "$nodes")
if [ "$st" = RUNNING ] && { [ "$g" = lg_g001 ] || [ "$g" = lg_g002 ]; }; then
  ok "-N3 -C \"[lg_g001|lg_g002]\" runs inside one group ($nodes, $g)"
else bad "-N3 -C \"[lg_g001|lg_g002]\" runs inside one group" "state=$st nodes=$nodes groups=$g"; fi
# 4 nodes: the other of the two groups has only 3 free -> must not start across groups
j4=$(sub -N4 -C "[lg_g001|lg_g002]")
IFS='|' read -r st nodes reason <<<"$(wait_running "$j4" 5)"
if [ "$st" = PENDING ]; then ok "-N4 -C \"[lg_g001|lg_g002]\" waits rather than span groups (reason $reason)"
else bad "-N4 -C \"[lg_g001|lg_g002]\" waits rather than span groups" "state=$st nodes=$nodes groups=$(groups_of "$nodes")"; fi
# control: a plain OR constraint may span both groups (shows the brackets matter)
scancel "$j3" "$j4" 2>/dev/null
for _ in $(seq 50); do grep -q . <<<"$(squeue -h -j "$j3,$j4" -t R,PD,CG 2>/dev/null)" || break; sleep 0.2; done
j5=$(sub -N4 -C "lg_g001|lg_g002")
IFS='|' read -r st nodes _ <<<"$(wait_running "$j5")"
g=$(groups_of "$nodes")
if [ "$st" = RUNNING ] && [ "$g" = lg_g001,lg_g002 ]; then ok "control: -N4 -C \"lg_g001|lg_g002\" (no brackets) spans both groups ($nodes)"
else bad "control: -N4 -C \"lg_g001|lg_g002\" spans both groups" "state=$st nodes=$nodes groups=$g"; fi
clear_jobs

ctld_log_clean "slurmctld log still clean after the jobs"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
