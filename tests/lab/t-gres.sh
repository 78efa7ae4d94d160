#!/usr/bin/env bash
# End-to-end: topoplace-generated gres.conf (Links= from a real nvidia-smi matrix) and
# node Weight lines in a real Slurm 22.05.
#   t-gres.sh [TOPOPLACE]        (root; Debian's slurmctld, slurmd, slurm-client, munge)
# 1. topoplace discover: the lab fabric (4 leaves x 4 hosts, 1 spine) with two real
#    `nvidia-smi topo -m` matrices: DGX A100 (8 GPUs, NV12) on n001-n008, H800 x4 (NV8)
#    on n009-n016; topoplace slurm-conf --format tree --features --weights --gres.
# 2. a 16-node lab with that topology.conf and those features (up.sh), then the
#    generated gres.conf and Weight= put into the lab's own config and slurmctld
#    restarted (up.sh has no knob for gres.conf or extra node keys; slurmctld 22.05
#    does not take a new GPU count on `scontrol reconfigure`).
# 3. checks: `slurmd -G` (slurmd's own gres.conf parser) prints our Links for both
#    layouts; all nodes idle with the right GPU counts and weights, no gres error in any
#    log; a CPU job goes to the lighter 4-GPU group and stays in one leaf group (also
#    when that class is partly busy); an
#    8-GPU-per-node job goes to the 8-GPU nodes and stays in one leaf group (weights do
#    not pull it across groups); a 2-GPU step gets 2 GPUs.
# Prints "N passed, N failed"; exits non-zero on failure, 77 (skip) when it cannot run.
# Always tears the lab down (trap). Knobs: LAB_DIR, LAB_CTLD_PORT, LAB_SLURMD_PORT_BASE.
set -uo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
TOPOPLACE="${1:-topoplace}"
FIX="$HERE/../fixtures"

export LAB_GPU_TYPE=h100
. "$HERE/lib.sh"
lab_init gres /tmp/tplab-conf 16967 18100 16 slurmctld slurmd munged scontrol sbatch srun

# ---------------------------------------------------------------- 1. generate
SNAP="$WORK/lab.snapshot.json"
TOPO="$WORK/topology.conf"
FEAT="$WORK/nodes.conf"
GRES="$WORK/gres.conf"
check "topoplace discover (lab fabric + 2 real nvidia-smi matrices)" \
  "$TOPOPLACE" discover --ibnetdiscover "$FIX/lab/lab-4x4.ibnetdiscover.txt" \
  --nvidia-smi-topo "n[001-008]=$FIX/nvidia-smi-topo/oyanghd-dgx-a100-epyc7742-nps4.topo-m.txt" \
  --nvidia-smi-topo "n[009-016]=$FIX/nvidia-smi-topo/mlsys-tutorial-h800x4-17nic-ansi.topo-m.txt" -o "$SNAP"
check "topoplace slurm-conf --features --weights --gres" \
  "$TOPOPLACE" slurm-conf "$SNAP" --format tree --features "$FEAT" --weights --gres "$GRES" \
  --gpu-file "$LAB_DIR/dev/nvidia{index}" --gpu-type h100 -o "$TOPO"
check "generated gres.conf: 8 + 4 Links lines" bash -c \
  "[ \$(grep -c '^NodeName=n\[001-008\] Name=gpu Type=h100 File=.* Links=' '$GRES') = 8 ] && [ \$(grep -c '^NodeName=n\[009-016\] .* Links=' '$GRES') = 4 ]"
check "generated weights: 4-GPU groups lighter" bash -c \
  "grep -q '^NodeName=n\[009-012\] Features=lg_g003,sp_spine Weight=1$' '$FEAT' && grep -q '^NodeName=n\[001-004\] Features=lg_g001,sp_spine Weight=2$' '$FEAT'"
if [ "$fail" != 0 ]; then cat "$TOPO" "$FEAT" "$GRES" 2>/dev/null; lab_abort; fi

# ---------------------------------------------------------------- 2. lab
lab_up "lab up (16 nodes, topology and features from topoplace)" LAB_TOPOLOGY_FILE="$TOPO" LAB_FEATURES_FILE="$FEAT"

# Our gres.conf replaces up.sh's; Weight= and the GPU count of each node from our files.
E="$LAB_DIR/etc"
cp "$GRES" "$E/gres.conf"
declare -A WEIGHT=() NGPU=()
while read -r a rest; do
  w=$(grep -o 'Weight=[0-9]*' <<<"$rest" | cut -d= -f2)
  for n in $(expand_hostlist "${a#NodeName=}"); do WEIGHT[$n]=$w; done
done < <(grep '^NodeName=' "$FEAT")
while read -r a rest; do
  for n in $(expand_hostlist "${a#NodeName=}"); do NGPU[$n]=$(( ${NGPU[$n]:-0} + 1 )); done
done < <(grep '^NodeName=.* Links=' "$GRES")
while read -r line; do
  n=$(sed -n 's/^NodeName=\([^ ]*\) .*/\1/p' <<<"$line")
  if [ -n "$n" ] && [ -n "${WEIGHT[$n]:-}" ]; then
    line="${line/Gres=gpu:h100:8/Gres=gpu:h100:${NGPU[$n]}} Weight=${WEIGHT[$n]}"
  fi
  echo "$line"
done < "$E/nodes.conf" > "$E/nodes.conf.new" && mv "$E/nodes.conf.new" "$E/nodes.conf"

# slurmd's own parser on the generated gres.conf (prints one "Gres ..." line per GPU)
for n in n001 n016; do
  want=$(grep "^NodeName=n\[$( [ $n = n001 ] && echo 001-008 || echo 009-016)\]" "$GRES" | sed 's/.*File=\([^ ]*\) Links=\(.*\)/File=\1 Links=\2/')
  got=$(slurmd -f "$SLURM_CONF" -N "$n" -G 2>&1 | grep 'Gres Name=gpu' | sed 's/.*\(File=[^ ]*\) \(Links=[^ ]*\).*/\1 \2/')
  if [ -n "$want" ] && [ "$want" = "$got" ]; then ok "slurmd -G -N $n parses our Links= ($(wc -l <<<"$got") GPUs)"
  else bad "slurmd -G -N $n parses our Links=" "$(diff <(echo "$want") <(echo "$got"); slurmd -f "$SLURM_CONF" -N "$n" -G 2>&1 | tail -5)"; fi
done

# Restart slurmctld (every one carrying the lab's marker; the new one with it too, so down.sh finds it) with a
# clean state, so it reads the new GPU counts; the running slurmd re-register.
lab_ctld_stop || bad "slurmctld stopped before its restart" "still running: $(lab_marked_pids 'slurmctld*' | paste -sd' ')"
: > "$LAB_DIR/log/slurmctld.log"
env "$LAB_TAG" slurmctld -c -f "$SLURM_CONF"
for _ in $(seq 100); do grep -q 'is UP' <<<"$(scontrol ping 2>/dev/null)" && break; sleep 0.1; done
cat "$LAB_DIR/run/slurmctld.pid" > "$PIDS/slurmctld"
# slurmd re-read gres.conf on reconfigure (22.05 _reconfigure); then wait for all idle
scontrol reconfigure
idle=0
for _ in $(seq 150); do
  idle=$(sinfo -h -N -t idle -o %N 2>/dev/null | sort -u | wc -l); [ "$idle" -ge 16 ] && break; sleep 0.2
done
if [ "$idle" -ge 16 ]; then ok "16 nodes idle after slurmctld restart with our gres.conf and weights"
else bad "16 nodes idle after restart" "$(sinfo -N -o '%N %T %E %G')"; fi

LAB_NOISE+='|MPI: Cannot create context'
ctld_log_clean "slurmctld log clean (no error/fatal besides PMIx noise)" "slurmctld log clean"
errs=$(grep -hi 'gres' "$LAB_DIR"/log/slurmd-n*.log | grep -Ei 'error|fatal|invalid' || true)
if [ -z "$errs" ]; then ok "slurmd logs: no gres error"; else bad "slurmd logs: no gres error" "$errs"; fi
check "n001: gpu:h100:8 Weight=2, n016: gpu:h100:4 Weight=1" bash -c \
  "[ \"\$(sinfo -h -N -n n001 -o '%G %w')\" = 'gpu:h100:8 2' ] && [ \"\$(sinfo -h -N -n n016 -o '%G %w')\" = 'gpu:h100:4 1' ]"

leaf_groups "$FEAT"

# (a) CPU job, 4 nodes: the lighter class is the 4-GPU groups g003+g004 (8 nodes);
#     inside it topology/tree keeps the job in one leaf group.
IFS='|' read -r st nodes _ <<<"$(wait_running "$(sub -N4)")"
g=$(groups_of "$nodes")
if [ "$st" = RUNNING ] && { [ "$g" = lg_g003 ] || [ "$g" = lg_g004 ]; }; then ok "-N4 CPU job on the lighter 4-GPU nodes, one leaf group ($nodes)"
else bad "-N4 CPU job on the lighter nodes, one leaf group" "state=$st nodes=$nodes groups=$g"; fi
# (a2) same job with 2 nodes of g003 busy: the light class still has 6 free nodes, and
#      topology/tree puts the job on g004 alone rather than mixing groups.
scancel "$(squeue -h -o %A | head -1)" 2>/dev/null
for _ in $(seq 50); do [ -z "$(squeue -h 2>/dev/null)" ] && break; sleep 0.2; done
busy n009 n010
IFS='|' read -r st nodes _ <<<"$(wait_running "$(sub -N4)")"
g=$(groups_of "$nodes")
if [ "$st" = RUNNING ] && [ "$g" = lg_g004 ]; then ok "-N4 with n009,n010 busy: lighter class, one leaf group g004 ($nodes)"
else bad "-N4 with n009,n010 busy: one leaf group g004" "state=$st nodes=$nodes groups=$g"; fi
# (b) 8 GPUs per node, 3 nodes: only n001-n008 have them (weight 2); must stay in one group.
IFS='|' read -r st nodes _ <<<"$(wait_running "$(sub -N3 --gres=gpu:h100:8)")"
g=$(groups_of "$nodes")
if [ "$st" = RUNNING ] && { [ "$g" = lg_g001 ] || [ "$g" = lg_g002 ]; }; then ok "-N3 --gres=gpu:8 on the 8-GPU nodes, one leaf group ($nodes)"
else bad "-N3 --gres=gpu:8 on the 8-GPU nodes, one leaf group" "state=$st nodes=$nodes groups=$g"; fi
# (c) a 2-GPU step on a free 4-GPU node gets 2 of our devices
out=$(timeout 60 srun -N1 -w n012 --gres=gpu:h100:2 -t 1 bash -c 'echo "$CUDA_VISIBLE_DEVICES"' 2>&1)
if [ "$(tr ',' '\n' <<<"$out" | grep -c '^[0-3]$')" = 2 ]; then ok "srun --gres=gpu:2 on n012 (4-GPU node): CUDA_VISIBLE_DEVICES=$out"
else bad "srun --gres=gpu:2 on n012" "$out"; fi

ctld_log_clean "slurmctld log still clean after the jobs"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
