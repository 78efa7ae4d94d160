#!/usr/bin/env bash
# End-to-end: the topoplace SPANK plugin + job_submit.lua + launch gate in a real Slurm (22.05 on
# this host; 24.11 and 26.05 in Debian chroots through tests/lab/release.sh).
#   t-spank.sh TOPOPLACE TOPOPLACE_SO LABTOOL     (root; Debian's slurmctld, slurmd, slurm-client, munge)
# 1. snapshot of a 3-level lab fabric (tests/fixtures/lab/lab-3tier.spec.yaml: 16 leaf groups
#    x 4 hosts, 4 spines, 1 core, 2 rails; 8 GPUs, GPU0-3 next to mlx5_0, GPU4-7 next to
#    mlx5_1) -> topology.conf + features -> a 64-node lab with the plugin in plugstack.conf,
#    job_submit.lua, PrologFlags=Alloc, nohold_on_prolog_fail
# 2. --topo options in sbatch/srun/salloc --help; 50+ malformed option values and plugstack
#    arguments refused client-side; missing/corrupt snapshot under on_error=warn|fail
# 3. busy state where Slurm alone splits a 6-node job over 3 leaves and 2 spines: with
#    --topo=pack it lands exactly on the nodes place() predicted; a stale plan (a predicted
#    node taken, another freed) lands inside the predicted groups
# 4. rail environment per srun task; a user's own NCCL_IB_HCA is kept
# 5. a job that fits but has a job queued ahead gets no plan (queued_plan=yes: it does);
#    burst of 200 jobs with the plugin: all complete, no plugin error in any log; a Lua error
#    inside job_submit.lua's bridge never rejects a job (pcall), and outside it 26.05 does
# 6. launch gate: node flagged unhealthy after submission -> prolog fails there, node
#    drained "topoplace: ...", batch job requeued (not held) and completes elsewhere with its
#    output; srun job and --no-requeue job on a flagged node: what Slurm does
# 7. compiled snapshot (discover --compiled) used by the plugin; a stale, group-writable,
#    foreign-owned, corrupt or truncated one ignored for the JSON (same plan); state_cache=;
#    state_feed= with a live topoplace-nodefeed (same plan as an RPC, sees a job start within
#    its interval, a dead feed ages out to the RPC). Figures
#    (printed, not asserted): sbatch time without plugin / plugin with --topo off / --topo=pack
#    compiled / --topo=pack JSON, interleaved; gate time per launch
# Prints "N passed, N failed"; exit 77 (skip) without root/Slurm. Knobs: LAB_DIR, LAB_CTLD_PORT,
# LAB_SLURMD_PORT_BASE, T_SPANK_SKIP_GATE=1 (skip the requeue part),
# T_SPANK_BENCH_ROUNDS (3) x T_SPANK_BENCH_N (20) benchmark submissions per variant.
set -uo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
abs() { if [ -e "$1" ]; then readlink -f "$1"; else command -v "$1" || echo "$1"; fi; }   # the test cds away
TOPOPLACE="$(abs "${1:-topoplace}")"
SO_BUILT="$(abs "${2:-}")"
LABTOOL="$(abs "${3:-}")"
NODEFEED="${4:-}"; [ -n "$NODEFEED" ] && NODEFEED="$(abs "$NODEFEED")"   # optional: topoplace-nodefeed
FIX="$HERE/../fixtures/lab"

export LAB_DIR="${LAB_DIR:-/tmp/tplab-spank}"
export LAB_CTLD_PORT="${LAB_CTLD_PORT:-16957}"
export LAB_SLURMD_PORT_BASE="${LAB_SLURMD_PORT_BASE:-17900}"
export LAB_MODE=multi LAB_NODES=64 LAB_GPUS=8 LAB_NODE_PREFIX=n LAB_NODE_WIDTH=3 LAB_TOPOLOGY=tree LAB_PROLOG_FLAGS=Alloc
. "$HERE/common.sh"

if [ "$(id -u)" != 0 ]; then echo "SKIP: the Slurm lab needs root"; exit 77; fi
for b in slurmctld slurmd munged scontrol sbatch srun salloc; do
  command -v "$b" >/dev/null 2>&1 || { echo "SKIP: $b not installed"; exit 77; }
done
[ -f /usr/lib/x86_64-linux-gnu/slurm-wlm/job_submit_lua.so ] || { echo "SKIP: job_submit_lua.so not installed"; exit 77; }
for f in "$TOPOPLACE" "$SO_BUILT" "$LABTOOL"; do
  [ -x "$f" ] || [ -f "$f" ] || { echo "FAIL: missing '$f' (usage: t-spank.sh TOPOPLACE TOPOPLACE_SO LABTOOL)"; exit 1; }
done

pass=0; fail=0
ok()   { pass=$((pass + 1)); echo "ok   $1"; }
bad()  { fail=$((fail + 1)); echo "FAIL $1"; [ $# -gt 1 ] && printf '%s\n' "$2" | sed 's/^/     /' | head -40; }
check() { local name=$1; shift; local out; if out=$("$@" 2>&1); then ok "$name"; else bad "$name" "$out"; fi; }

WORK="$(mktemp -d /tmp/topoplace-t-spank.XXXXXX)"
chmod 755 "$WORK"
cleanup() {
  [ -n "${FEEDPID:-}" ] && kill "$FEEDPID" 2>/dev/null
  "$HERE/down.sh" >/dev/null 2>&1 || "$HERE/down.sh"
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---------------------------------------------------------------- 1. generate + lab
SO="$WORK/topoplace.so"; cp "$SO_BUILT" "$SO"; chmod 755 "$SO"   # a rebuild cannot touch the running lab
SNAP="$WORK/snapshot.json"
HEALTH="$WORK/health"; mkdir -m 755 "$HEALTH"
check "topoplace discover --compiled (3-level spec + GPU/NIC locality; snapshot.json + snapshot.json.bin)" "$TOPOPLACE" discover \
  --spec "$FIX/lab-3tier.spec.yaml" --nvidia-smi-topo "$FIX/lab-8gpu-2nic.topo-m.txt" --compiled -o "$SNAP"
check "the compiled snapshot is current and trusted (root-owned, 0644)" "$TOPOPLACE" compile --check "$SNAP"
# the same snapshot without its compiled form: the JSON-only path, for comparison (section 7)
cp -p "$SNAP" "$WORK/snapshot-json.json"
check "topoplace slurm-conf --format tree --features" \
  "$TOPOPLACE" slurm-conf "$SNAP" --format tree --features "$WORK/features.conf" -o "$WORK/topology.conf"
PLUGARGS="snapshot=$SNAP health=$HEALTH on_error=warn default=off wait=120"
echo "required $SO $PLUGARGS" > "$WORK/plugstack.conf"
: > "$WORK/plugstack-none.conf"
if [ "$fail" != 0 ]; then echo "$pass passed, $fail failed"; exit 1; fi

# AuthInfo=cred_expire=10: the requeued job of the launch gate part may start again 11 s
# after its requeue instead of Slurm's default 121 s (the delay is Slurm's, not ours).
if ! LAB_TOPOLOGY_FILE="$WORK/topology.conf" LAB_FEATURES_FILE="$WORK/features.conf" \
     LAB_CRED_EXPIRE="${LAB_CRED_EXPIRE:-10}" LAB_SCHED_PARAMS="${LAB_SCHED_PARAMS:+$LAB_SCHED_PARAMS,}nohold_on_prolog_fail,bf_interval=5" \
     LAB_PLUGSTACK_FILE="$WORK/plugstack.conf" \
     LAB_ETC_FILES="$(readlink -f "$HERE/../../slurm-conf/lua/job_submit.lua")" LAB_EXTRA_CONF="JobSubmitPlugins=lua" \
     "$HERE/up.sh" > "$WORK/up.log" 2>&1; then
  bad "lab up (64 nodes, plugin in plugstack)" "$(tail -20 "$WORK/up.log"; tail -20 "$LAB_DIR/log/slurmctld.log" 2>/dev/null)"
  echo "$pass passed, $fail failed"; exit 1
fi
ok "lab up (64 nodes, 3-level topology, plugin in plugstack.conf): $(grep -o 'total [0-9.]*s' "$WORK/up.log")"
cd /tmp || exit 1
# job_submit.lua next to slurm.conf from the start (lib.sh lab_lua says why not by a
# reconfigure). (SchedulerParameters: bf_interval only makes the lab's backfill react faster.)
check "slurm.conf: JobSubmitPlugins=lua, nohold_on_prolog_fail, PrologFlags=Alloc" bash -c \
  "scontrol show config | grep -Eq '^JobSubmitPlugins += lua' && scontrol show config | grep -Eq '^SchedulerParameters += .*nohold_on_prolog_fail' && scontrol show config | grep -Eq '^PrologFlags += Alloc'"
# Clients without the plugin: the same cluster through a slurm.conf whose plugstack is empty.
sed -e "s|^PlugStackConfig=.*|PlugStackConfig=$WORK/plugstack-none.conf|" "$LAB_DIR/etc/slurm.conf" > "$LAB_DIR/etc/slurm-noplugin.conf"
NOPLUG="$LAB_DIR/etc/slurm-noplugin.conf"
# A client with other plugstack arguments: slurm.conf copy pointing at another plugstack file.
with_plugstack() { # file-suffix, args... -> prints the slurm.conf path
  echo "required $SO ${*:2}" > "$WORK/plugstack-$1.conf"
  sed -e "s|^PlugStackConfig=.*|PlugStackConfig=$WORK/plugstack-$1.conf|" "$LAB_DIR/etc/slurm.conf" > "$LAB_DIR/etc/slurm-$1.conf"
  echo "$LAB_DIR/etc/slurm-$1.conf"
}
# Every daemon of the lab alive. A restarted daemon (reconfigure) rewrites its PidFile, so a
# dead PID is read again for up to 3 s before it counts; on failure, name the dead daemons, how
# Slurm sees their nodes, and the end of their logs.
daemons_alive() {
  local f dead n
  for _ in $(seq 15); do
    lab_refresh_pids; dead=""
    for f in "$LAB_DIR"/pids/slurm*; do pid_alive "$(cat "$f")" || dead+="$(basename "$f") "; done
    [ -z "$dead" ] && return 0; sleep 0.2
  done
  echo "dead: $dead"
  for n in $dead; do
    echo "--- $n (pid $(cat "$LAB_DIR/pids/$n"), pid file $(cat "$LAB_DIR/run/$n.pid" 2>/dev/null))"
    [ "$n" != slurmctld ] && sinfo -h -n "${n#slurmd-}" -o '%N %T %E' 2>/dev/null
    tail -8 "$LAB_DIR/log/$n.log" 2>/dev/null
  done
  return 1
}

# leaf group / spine of every node (from the generated features)
declare -A LG=() SP=()
while read -r a b; do
  for n in $(expand_hostlist "${a#NodeName=}"); do
    LG[$n]=$(tr ',' '\n' <<<"${b#Features=}" | grep '^lg_'); SP[$n]=$(tr ',' '\n' <<<"${b#Features=}" | grep '^sp_')
  done
done < <(grep '^NodeName=' "$WORK/features.conf")
groups_of() { for n in $(expand_hostlist "$1"); do echo "${LG[$n]:-none}"; done | sort -u | paste -sd, ; }
spines_of() { for n in $(expand_hostlist "$1"); do echo "${SP[$n]:-none}"; done | sort -u | paste -sd, ; }
count() { [ -z "$1" ] && { echo 0; return; }; tr ',' '\n' <<<"$1" | wc -l; }

clear_jobs() {
  local j; j=$(squeue -h -o %A 2>/dev/null | sort -u)
  [ -n "$j" ] && scancel $j 2>/dev/null
  for _ in $(seq 150); do [ -z "$(squeue -h 2>/dev/null)" ] && return 0; sleep 0.2; done
}
wait_state() { # jobid state [seconds] -> prints state|nodes|reason
  local j=$1 want=$2 s=${3:-20} st
  for _ in $(seq $((s * 5))); do
    st=$(squeue -h -j "$j" -o %T 2>/dev/null); [ "$st" = "$want" ] && break
    [ -z "$st" ] && break; sleep 0.2
  done
  squeue -h -j "$j" -o '%T|%N|%r' 2>/dev/null
}
final_state() { # jobid -> final JobState from jobcomp (empty while not finished; a requeue
  # writes a record too, with JobState=PENDING/REQUEUED, which is not final)
  grep -o "JobId=$1 .*" "$LAB_DIR/log/jobcomp.txt" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | cut -d= -f2 |
    grep -Ev '^(PENDING|REQUEUED|RUNNING)$' | tail -1
}

# ---------------------------------------------------------------- 2. options
for c in sbatch srun salloc; do
  h=$($c --help 2>&1)
  miss=""; for o in --topo=MODE --topo-max-tier=N --topo-nvl --topo-segment=S --topo-explain; do grep -q -- "$o" <<<"$h" || miss+=" $o"; done
  if [ -z "$miss" ]; then ok "$c --help lists --topo, --topo-max-tier, --topo-nvl, --topo-segment, --topo-explain"
  else bad "$c --help lists the --topo options" "missing:$miss"; fi
done

# malformed option values: refused by the client, nothing reaches slurmctld
jobs_before=$(grep -c '_slurm_rpc_submit_batch_job' "$LAB_DIR/log/slurmctld.log")
nbad=0; badout=""
BADOPTS=(--topo= --topo=Pack --topo=PACK --topo=packs --topo=' pack' --topo='pack ' --topo=on --topo=1 --topo=-1
  --topo=pack,spread --topo=spread=1 --topo=none --topo=tight --topo=é --topo=$'\x01' --topo="$(printf 'x%.0s' {1..300})"
  --topo-max-tier= --topo-max-tier=-1 --topo-max-tier=16 --topo-max-tier=1.5 --topo-max-tier=0x1 --topo-max-tier=+1
  --topo-max-tier=' 1' --topo-max-tier=one --topo-max-tier=1a --topo-max-tier=99999999999999999999 --topo-max-tier=2e1
  --topo-segment= --topo-segment=0 --topo-segment=-4 --topo-segment=65537 --topo-segment=4k --topo-segment=1e2
  --topo-segment=four --topo-segment=' 2' --topo-segment=18446744073709551617 --topo-segment=2,4 --topo-segment=0x10
  --topo-nvl=yes --topo-explain=1 --topo-nvl=0)
for o in "${BADOPTS[@]}"; do
  out=$(sbatch -N1 -o /dev/null "$o" --wrap true 2>&1); rc=$?
  if [ $rc = 0 ] || ! grep -qE 'topoplace: --topo|topo-(nvl|explain).*(argument|allow)' <<<"$out"; then
    badout+="$o -> rc=$rc: $out"$'\n'; else nbad=$((nbad + 1)); fi
done
for c in srun salloc; do
  for o in --topo=bogus --topo-max-tier=x --topo-segment=0; do
    out=$(timeout 20 $c -N1 "$o" true 2>&1); rc=$?
    if [ $rc = 0 ] || ! grep -q 'topoplace: --topo' <<<"$out"; then badout+="$c $o -> rc=$rc: $out"$'\n'; else nbad=$((nbad + 1)); fi
  done
done
jobs_after=$(grep -c '_slurm_rpc_submit_batch_job' "$LAB_DIR/log/slurmctld.log")
if [ -z "$badout" ] && [ "$jobs_before" = "$jobs_after" ]; then
  ok "$nbad malformed --topo* values refused by sbatch/srun/salloc with a topoplace: message, none submitted"
else bad "malformed --topo* values refused" "$badout submitted: $jobs_before -> $jobs_after"; fi
echo "     e.g.: $(sbatch -N1 --topo-max-tier=16 --wrap true 2>&1 | head -1)"

# malformed plugstack arguments: the client refuses with the argument named
BADARGS=("snapshot" "=x" "snapshot=" "snapshot=rel/snap.json" "health=relative" "on_error=maybe" "on_error=WARN"
  "default=packed" "default=" "wait=-1" "wait=86401" "wait=1e3" "env=maybe" "drain=2" "bogus=1" "Snapshot=/x"
  "topo=pack" "wait=5 wait=6" "on_error=warn on_error=fail" "default=pack colour=red" "state_cache=61"
  "state_cache=-1" "state_cache=2s" "state_feed=run/nodes.bin" "state_feed_age=0" "state_feed_age=61")
nps=0; psout=""
for i in "${!BADARGS[@]}"; do
  conf=$(with_plugstack "bad$i" ${BADARGS[$i]})
  out=$(SLURM_CONF="$conf" sbatch -N1 -o /dev/null --wrap true 2>&1); rc=$?
  if [ $rc = 0 ] || ! grep -q 'topoplace: plugstack.conf: plugstack argument' <<<"$out"; then
    psout+="'${BADARGS[$i]}' -> rc=$rc: $out"$'\n'; else nps=$((nps + 1)); fi
done
jobs_after=$(grep -c '_slurm_rpc_submit_batch_job' "$LAB_DIR/log/slurmctld.log")
if [ -z "$psout" ] && [ "$jobs_before" = "$jobs_after" ]; then ok "$nps malformed plugstack arguments refused, argument named, none submitted"
else bad "malformed plugstack arguments refused" "$psout"; fi
echo "     e.g.: $(SLURM_CONF=$(with_plugstack eg on_error=maybe) sbatch -N1 --wrap true 2>&1 | head -1)"
if out=$(daemons_alive 2>&1); then ok "all 65 daemons alive after $((nbad + nps)) malformed inputs"; else bad "daemons alive after malformed inputs" "$out"; fi

# missing / corrupt snapshot under on_error=warn and on_error=fail
printf '{"schema": "topoplace.snapshot", "version": 1, "hosts": [' > "$WORK/corrupt.json"
for snapcase in missing corrupt; do
  sp="$WORK/nonexistent.json"; [ $snapcase = corrupt ] && sp="$WORK/corrupt.json"
  conf=$(with_plugstack "warn-$snapcase" "snapshot=$sp on_error=warn")
  out=$(SLURM_CONF="$conf" sbatch --parsable --topo=pack -N1 -o /dev/null --wrap true 2>&1); rc=$?
  j=$(tail -1 <<<"$out")
  if [ $rc = 0 ] && grep -q 'on_error=warn: job submitted without topology placement' <<<"$out" \
     && [[ "$j" =~ ^[0-9]+$ ]] && ! grep -q 'Prefer=[^(]' <<<"$(scontrol show job "$j")"; then
    ok "$snapcase snapshot, on_error=warn: job $j submitted untouched (no plan), warning printed"
  else bad "$snapcase snapshot, on_error=warn: job submitted untouched" "rc=$rc $out"; fi
  conf=$(with_plugstack "fail-$snapcase" "snapshot=$sp on_error=fail")
  n0=$(grep -c '_slurm_rpc_submit_batch_job' "$LAB_DIR/log/slurmctld.log")
  out=$(SLURM_CONF="$conf" sbatch --topo=pack -N1 -o /dev/null --wrap true 2>&1); rc=$?
  n1=$(grep -c '_slurm_rpc_submit_batch_job' "$LAB_DIR/log/slurmctld.log")
  if [ $rc != 0 ] && grep -q 'cannot load snapshot.*on_error=fail: job refused' <<<"$out" && [ "$n0" = "$n1" ]; then
    ok "$snapcase snapshot, on_error=fail: refused ($(grep -o 'cannot load snapshot[^(]*' <<<"$out" | head -1 | cut -c1-90))"
  else bad "$snapcase snapshot, on_error=fail: refused" "rc=$rc $out"; fi
done
clear_jobs

# ---------------------------------------------------------------- 3. placement
# Free nodes per leaf [3 3 2 3|0 0 0 0|2 1 2 1|4 2 3 3] (SLURM-NOTES' 3-level case); busy =
# the first nodes of each leaf, one exclusive job per leaf.
FREE=(3 3 2 3 0 0 0 0 2 1 2 1 4 2 3 3)
declare -A BUSYJOB=()
for L in $(seq 0 15); do
  b=$((4 - FREE[L])); [ $b = 0 ] && continue
  a=$((4 * L + 1)); list=$(for i in $(seq $a $((a + b - 1))); do printf 'n%03d,' "$i"; done)
  BUSYJOB[$L]=$(SLURM_CONF=$NOPLUG sbatch --parsable --exclusive -N$b -w "${list%,}" -o /dev/null --wrap 'sleep 1200')
done
for _ in $(seq 100); do [ "$(squeue -h -t R | wc -l)" = ${#BUSYJOB[@]} ] && break; sleep 0.2; done
check "busy state: 35 nodes allocated, 29 idle" bash -c "[ \$(sinfo -h -N -t idle -o %N | sort -u | wc -l) = 29 ]"

scontrol show nodes --oneliner > "$WORK/nodes.txt"
read -r LPRED PREDC < <("$LABTOOL" place "$SNAP" 6 < "$WORK/nodes.txt")
PRED=$("$TOPOPLACE" place "$SNAP" -N 6 --state "$WORK/nodes.txt" 2>"$WORK/place.err" | sed -n 's/^Policy=cost NodeList=\([^ ]*\) .*/\1/p')  # the default policy
if [ -n "$PRED" ] && [ "$PRED" = "$LPRED" ]; then ok "topoplace place predicts $PRED (groups $(groups_of "$PRED"), spines $(spines_of "$PRED")); place() in the library agrees; plan constraint $PREDC"
else bad "topoplace place predicts the same hosts as the library" "cli='$PRED' ($(cat "$WORK/place.err")) library='$LPRED'"; PRED=$LPRED; fi
SPRED=$("$TOPOPLACE" place "$SNAP" -N 6 --state "$WORK/nodes.txt" --policy slurm-tree 2>/dev/null | sed -n 's/^Policy=slurm-tree NodeList=\([^ ]*\) .*/\1/p')

# Slurm alone (no plugin in the client, same cluster)
j=$(SLURM_CONF=$NOPLUG sbatch --parsable --exclusive -N6 -o /dev/null --wrap 'sleep 1200')
IFS='|' read -r st nodes _ <<<"$(wait_state "$j" RUNNING 30)"
g0=$(groups_of "$nodes"); s0=$(spines_of "$nodes")
if [ "$st" = RUNNING ] && [ "$(count "$g0")" -gt "$(count "$(groups_of "$PRED")")" ] && [ "$nodes" != "$PRED" ]; then
  ok "without the plugin Slurm splits the 6-node job: $nodes ($(count "$g0") leaf groups, $(count "$s0") spines; topoplace place --policy slurm-tree predicted $SPRED)"
else bad "without the plugin Slurm splits the 6-node job" "state=$st nodes=$nodes groups=$g0 spines=$s0 predicted=$PRED"; fi
scancel "$j"; for _ in $(seq 100); do [ -z "$(squeue -h -j "$j" -t R,CG 2>/dev/null)" ] && break; sleep 0.2; done

# same job with --topo=pack
out=$(sbatch --parsable --exclusive --topo=pack --topo-explain -N6 -o /dev/null --wrap 'sleep 1200' 2>&1)
j=$(tail -1 <<<"$out")
IFS='|' read -r st nodes _ <<<"$(wait_state "$j" RUNNING 30)"
if [ "$st" = RUNNING ] && [ "$nodes" = "$PRED" ]; then
  ok "--topo=pack lands on the predicted nodes $nodes ($(count "$(groups_of "$nodes")") leaf groups, $(count "$(spines_of "$nodes")") spine)"
else bad "--topo=pack lands on the predicted nodes" "state=$st nodes=$nodes predicted=$PRED; $out"; fi
echo "     --topo-explain: $(grep 'topoplace:' <<<"$out" | head -1 | cut -c1-160)"
if grep -q 'snapshot [0-9.]* (compiled)' <<<"$out"; then ok "the plugin loaded the compiled snapshot ($(grep -o 'snapshot [0-9.]* (compiled)' <<<"$out"))"
else bad "the plugin loaded the compiled snapshot" "$out"; fi
check "job_submit.lua logged the plan it applied" grep -qF "lua: topoplace: uid 0 pack plan (predicted $PRED): prefer=$PREDC switches=" "$LAB_DIR/log/slurmctld.log"
scancel "$j"; for _ in $(seq 100); do [ -z "$(squeue -h -j "$j" -t R,CG 2>/dev/null)" ] && break; sleep 0.2; done

# stale plan: computed now (held job), then a predicted node is taken and another node of a
# predicted group frees up; the job must still land inside the predicted groups.
j=$(sbatch --parsable --exclusive --topo=pack --hold -N6 -o /dev/null --wrap 'sleep 1200')
first=$(expand_hostlist "$PRED" | head -1)
taker=$(SLURM_CONF=$NOPLUG sbatch --parsable --exclusive -w "$first" -o /dev/null --wrap 'sleep 1200')
wait_state "$taker" RUNNING 20 >/dev/null
L1=$(( (10#${first#n} - 1) / 4 ))   # leaf index of the taken node
[ -n "${BUSYJOB[$L1]:-}" ] && scancel "${BUSYJOB[$L1]}"
sleep 2
scontrol release "$j"
IFS='|' read -r st nodes _ <<<"$(wait_state "$j" RUNNING 40)"
if [ "$st" = RUNNING ] && [ "$(groups_of "$nodes")" = "$(groups_of "$PRED")" ] && ! grep -qx "$first" <<<"$(expand_hostlist "$nodes")"; then
  ok "stale plan ($first taken, a node of its group freed): lands inside the predicted groups $(groups_of "$nodes") on $nodes"
else bad "stale plan lands inside the predicted groups" "state=$st nodes=$nodes groups=$(groups_of "$nodes") predicted=$PRED"; fi
clear_jobs

# spread: one host per leaf group in turn (groups in name order), on an idle cluster
out=$(sbatch --parsable --exclusive --topo=spread --topo-explain -N4 -o /dev/null --wrap 'sleep 1200' 2>&1); j=$(tail -1 <<<"$out")
IFS='|' read -r st nodes _ <<<"$(wait_state "$j" RUNNING 30)"
if [ "$st" = RUNNING ] && [ "$nodes" = "n[001,005,009,013]" ]; then ok "--topo=spread -N4: one node in each of 4 leaf groups ($nodes, $(groups_of "$nodes"))"
else bad "--topo=spread -N4 spreads over leaf groups" "state=$st nodes=$nodes; $out"; fi
clear_jobs
# cost, the default policy (issue 16): free nodes per leaf [2 2 2 0|4 0 0 0|0 ...], 6 nodes:
# topo takes 2 leaf groups under 2 spines; cost stays under one spine with 3 groups (the
# performance model: a pipeline across pods costs more than a third group in one pod).
FREEC=(2 2 2 0 4 0 0 0 0 0 0 0 0 0 0 0)
for L in $(seq 0 15); do
  b=$((4 - FREEC[L])); [ $b = 0 ] && continue
  a=$((4 * L + 1)); list=$(for i in $(seq $a $((a + b - 1))); do printf 'n%03d,' "$i"; done)
  SLURM_CONF=$NOPLUG sbatch --parsable --exclusive -N$b -w "${list%,}" -o /dev/null --wrap 'sleep 1200' > /dev/null
done
for _ in $(seq 150); do [ "$(sinfo -h -N -t idle -o %N | sort -u | wc -l)" = 10 ] && break; sleep 0.2; done
scontrol show nodes --oneliner > "$WORK/nodes-cost.txt"
CPRED=$("$TOPOPLACE" place "$SNAP" -N 6 --state "$WORK/nodes-cost.txt" --policy cost 2>/dev/null | sed -n 's/^Policy=cost NodeList=\([^ ]*\) .*/\1/p')
TPRED=$("$TOPOPLACE" place "$SNAP" -N 6 --state "$WORK/nodes-cost.txt" --policy topo 2>/dev/null | sed -n 's/^Policy=topo NodeList=\([^ ]*\) .*/\1/p')
# The plugin's default (no policy= in plugstack) is cost; policy=topo keeps the old placer.
out=$(sbatch --parsable --exclusive --topo=pack --topo-explain -N6 -o /dev/null --wrap 'sleep 1200' 2>&1); j=$(tail -1 <<<"$out")
IFS='|' read -r st nodes _ <<<"$(wait_state "$j" RUNNING 30)"
if [ "$st" = RUNNING ] && [ -n "$CPRED" ] && [ "$CPRED" != "$TPRED" ] && [ "$nodes" = "$CPRED" ] \
   && [ "$(count "$(spines_of "$nodes")")" = 1 ] && [ "$(count "$(spines_of "$TPRED")")" = 2 ] && grep -q 'cost: ' <<<"$out"; then
  ok "default policy (cost): --topo=pack -N6 lands on $nodes ($(count "$(groups_of "$nodes")") leaf groups, 1 spine) where topo predicts $TPRED (2 spines)"
else bad "default policy (cost): --topo=pack lands on the cost policy's choice" "state=$st nodes=$nodes cost=$CPRED topo=$TPRED; $out"; fi
scancel "$j"; for _ in $(seq 100); do [ -z "$(squeue -h -j "$j" -t R,CG 2>/dev/null)" ] && break; sleep 0.2; done
conf=$(with_plugstack topo "$PLUGARGS policy=topo")
out=$(SLURM_CONF="$conf" sbatch --parsable --exclusive --topo=pack --topo-explain -N6 -o /dev/null --wrap 'sleep 1200' 2>&1); j=$(tail -1 <<<"$out")
IFS='|' read -r st nodes _ <<<"$(wait_state "$j" RUNNING 30)"
if [ "$st" = RUNNING ] && [ -n "$TPRED" ] && [ "$nodes" = "$TPRED" ] && ! grep -q 'cost: ' <<<"$out"; then
  ok "policy=topo: --topo=pack -N6 lands on topo's choice $nodes (2 spines)"
else bad "policy=topo: --topo=pack lands on topo's choice" "state=$st nodes=$nodes topo=$TPRED; $out"; fi
clear_jobs
# requests that can never fit are refused before submission, with the engine's reason
for args in "--topo-max-tier=0 -N5" "--topo-nvl -N2"; do
  n0=$(grep -c '_slurm_rpc_submit_batch_job' "$LAB_DIR/log/slurmctld.log")
  out=$(sbatch --exclusive $args -o /dev/null --wrap true 2>&1); rc=$?
  n1=$(grep -c '_slurm_rpc_submit_batch_job' "$LAB_DIR/log/slurmctld.log")
  if [ $rc != 0 ] && [ "$n0" = "$n1" ] && grep -q 'topoplace: the request can never be placed' <<<"$out"; then
    ok "sbatch $args refused: $(grep -o 'can never fit:.*' <<<"$out" | head -1 | cut -c1-100)"
  else bad "sbatch $args refused as unsatisfiable" "rc=$rc $out"; fi
done

# ---------------------------------------------------------------- 4. rail environment
out=$(timeout 60 srun --topo=pack -N1 -n2 --exclusive --gpus-per-task=4 bash -c \
  'echo "T$SLURM_PROCID|$CUDA_VISIBLE_DEVICES|$NCCL_IB_HCA|$UCX_NET_DEVICES|$TOPOPLACE_RAILS|$TOPOPLACE_LEAVES|$TOPOPLACE_TIER"' 2>&1 | sort)
if grep -qx 'T0|0,1,2,3|=mlx5_0|mlx5_0:1|0|2|0' <<<"$out" && grep -qx 'T1|4,5,6,7|=mlx5_1|mlx5_1:1|1|2|0' <<<"$out"; then
  ok "srun task env: GPUs 0-3 -> NCCL_IB_HCA==mlx5_0 (rail 0), GPUs 4-7 -> =mlx5_1 (rail 1), TOPOPLACE_LEAVES=2 (one leaf per rail), TIER=0"
else bad "srun task env: NICs nearest to each task's GPUs" "$out"; fi
nplans() { grep -c 'lua: topoplace: uid 0 pack plan' "$LAB_DIR/log/slurmctld.log"; }
p0=$(nplans)
out=$(NCCL_IB_HCA=mine timeout 60 srun --topo=pack -N2 --exclusive --gres=gpu:h100:8 bash -c \
  'echo "$NCCL_IB_HCA|$UCX_NET_DEVICES|$TOPOPLACE_GROUPS|$TOPOPLACE_TIER"' 2>&1 | sort -u)
if [ "$out" = 'mine|mlx5_0:1,mlx5_1:1|1|0' ]; then ok "user's NCCL_IB_HCA kept; 8 GPUs -> UCX_NET_DEVICES=mlx5_0:1,mlx5_1:1; 2 nodes in 1 group, tier 0"
else bad "user's NCCL_IB_HCA kept, others set" "$out"; fi
p1=$(nplans)
timeout 60 salloc --topo=pack -N2 --exclusive true >/dev/null 2>&1
p2=$(nplans)
if [ "$p1" = $((p0 + 1)) ] && [ "$p2" = $((p1 + 1)) ]; then ok "srun and salloc allocations carry the plan to job_submit.lua too"
else bad "srun and salloc allocations carry the plan" "lua plan lines: $p0 -> $p1 (srun) -> $p2 (salloc)"; fi
out=$(timeout 60 srun -N1 --gres=gpu:h100:2 bash -c 'echo "${NCCL_IB_HCA:-unset}"' 2>&1)
if [ "$out" = unset ]; then ok "default=off and no --topo: no rail environment"; else bad "default=off: no rail environment" "$out"; fi
bj=$(sbatch --parsable --topo=pack -N1 -n2 --gres=gpu:h100:8 -o "$WORK/batch-env.out" \
  --wrap 'echo "B|$NCCL_IB_HCA"; srun -n2 --gpus-per-task=4 bash -c "echo S\$SLURM_PROCID\|\$NCCL_IB_HCA"')
for _ in $(seq 150); do [ -n "$(final_state "$bj")" ] && break; sleep 0.2; done
out=$(sort "$WORK/batch-env.out" 2>&1)
if grep -qx 'B|=mlx5_0,mlx5_1' <<<"$out" && grep -qx 'S0|=mlx5_0' <<<"$out" && grep -qx 'S1|=mlx5_1' <<<"$out"; then
  ok "batch step gets both NICs; its srun tasks get their own (inherited value is not taken as the user's)"
else bad "batch step / srun step rail env" "$out"; fi

# ---------------------------------------------------------------- 5a. queued ahead: no plan
# A job that fits now but has a job queued for nodes ahead of it gets no plan (Slurm will not
# start it at once; docs/spank.md "Queued jobs"): 60 nodes taken, a 10-node job pending
# (Resources), then a 2-node --topo=pack job that fits on the 4 free nodes
clear_jobs
marker=$(wc -l < "$LAB_DIR/log/slurmctld.log")
qa=$(sbatch --parsable --topo=off --exclusive -N60 -o /dev/null --wrap 'sleep 300')
for _ in $(seq 100); do [ "$(squeue -h -j "$qa" -o %T 2>/dev/null)" = RUNNING ] && break; sleep 0.2; done
qb=$(sbatch --parsable --topo=off --exclusive -N10 -o /dev/null --wrap 'sleep 300')
for _ in $(seq 50); do [ "$(squeue -h -j "$qb" -o %r 2>/dev/null)" = Resources ] && break; sleep 0.2; done
qout=$(sbatch --topo=pack --topo-explain --exclusive -N2 -o /dev/null --wrap 'sleep 300' 2>&1)
qc=$(grep -oE '[0-9]+$' <<<"$qout" | tail -1)
qplans=$(tail -n +"$marker" "$LAB_DIR/log/slurmctld.log" | grep -c 'lua: topoplace: uid 0 pack plan')
if [ "$(squeue -h -j "$qa" -o %T)" = RUNNING ] && [ "$(squeue -h -j "$qb" -o %r)" = Resources ] \
   && grep -q '1 job is queued for nodes ahead of it: a plan made now would be stale' <<<"$qout" && [ -n "$qc" ] && [ "$qplans" = 0 ]; then
  ok "queued ahead: with job $qb pending (Resources), a 2-node job that fits now gets no plan, said so, none applied"
else bad "queued ahead: no plan" "A=$qa $(squeue -h -j "$qa" -o %T) B=$qb $(squeue -h -j "$qb" -o %r) plans=$qplans: $qout"; fi
qq=$(SLURM_CONF="$(with_plugstack queued "$PLUGARGS queued_plan=yes")" sbatch --topo=pack --topo-explain --exclusive -N2 -o /dev/null --wrap 'sleep 300' 2>&1)
if grep -q 'pack: .* -> constraint' <<<"$qq" && ! grep -q 'queued for nodes ahead' <<<"$qq"; then
  ok "queued ahead, queued_plan=yes: the same job is planned on the state now"
else bad "queued_plan=yes plans a queued job" "$qq"; fi

# ---------------------------------------------------------------- 5. burst
# (queued_plan=yes: every burst job gets its plan, however many are pending at once)
clear_jobs
BURST=$(with_plugstack burst "$PLUGARGS queued_plan=yes")
marker=$(wc -l < "$LAB_DIR/log/slurmctld.log")
ids=()
for i in $(seq 200); do ids+=("$(SLURM_CONF="$BURST" sbatch --parsable --topo=pack -N1 -o /dev/null --wrap true 2>>"$WORK/burst.err")"); done
nsub=0; for j in "${ids[@]}"; do [[ "$j" =~ ^[0-9]+$ ]] && nsub=$((nsub + 1)); done
for _ in $(seq 900); do [ -z "$(squeue -h 2>/dev/null)" ] && break; sleep 0.2; done
ncomp=0; for j in "${ids[@]}"; do [ "$(final_state "$j")" = COMPLETED ] && ncomp=$((ncomp + 1)); done
errs=$( (tail -n +"$marker" "$LAB_DIR/log/slurmctld.log"; cat "$LAB_DIR"/log/slurmd-*.log; cat "$WORK/burst.err") | grep -i 'topoplace' | grep -Ei 'error|fatal|failed' || true)
if [ "$nsub" = 200 ] && [ "$ncomp" = 200 ] && [ -z "$errs" ]; then ok "burst: 200 --topo=pack jobs submitted, 200 COMPLETED, no plugin error in slurmctld/slurmd logs"
else bad "burst of 200 jobs" "submitted=$nsub completed=$ncomp errors: $errs"; fi
check "lua applied a plan to every burst job" bash -c "[ \$(tail -n +$marker '$LAB_DIR/log/slurmctld.log' | grep -c 'lua: topoplace: uid 0 pack plan') -ge 200 ]"

# ---------------------------------------------------------------- 5b. a bug in job_submit.lua
# 26.05 rejects a job whose job_submit.lua raises a Lua error (22.05-25.11 accept it as
# submitted). The bridge runs under pcall: a bug in it costs the plan, never the job. Slurm
# reloads the script when its mtime changes (no reconfigure). Control: the same error outside
# the pcall, which each release treats its own way.
LUA_SRC="$HERE/../../slurm-conf/lua/job_submit.lua"
put_lua() { cp "$1" "$LAB_DIR/etc/job_submit.lua.new" && touch -d "+${2:-1} seconds" "$LAB_DIR/etc/job_submit.lua.new" && mv "$LAB_DIR/etc/job_submit.lua.new" "$LAB_DIR/etc/job_submit.lua"; }
REL=$(slurmctld -V | awk '{split($2, v, "."); print v[1] "." v[2]}')
sed 's/^local function apply_plan(job_desc, part_list, submit_uid)$/&\n    error("injected by t-spank")/' "$LUA_SRC" > "$WORK/lua-bug.lua"
sed 's/^    local ok, rc = pcall(apply_plan, job_desc, part_list, submit_uid)$/    error("injected outside pcall")\n&/' "$LUA_SRC" > "$WORK/lua-nopcall.lua"
if grep -q 'injected by t-spank' "$WORK/lua-bug.lua" && grep -q 'injected outside pcall' "$WORK/lua-nopcall.lua"; then
  put_lua "$WORK/lua-bug.lua" 2
  out=$(sbatch --parsable --topo=pack -N1 -o /dev/null --wrap true 2>&1); rc=$?; j=$(tail -1 <<<"$out")
  if [ $rc = 0 ] && [[ "$j" =~ ^[0-9]+$ ]] && grep -q 'topoplace: job_submit.lua: .*injected by t-spank' "$LAB_DIR/log/slurmctld.log"; then
    ok "Slurm $REL: a Lua error inside the bridge is logged and the job $j is accepted (pcall)"
  else bad "Slurm $REL: a Lua error inside the bridge must not reject the job" "rc=$rc: $out; $(grep -i 'lua' "$LAB_DIR/log/slurmctld.log" | tail -3)"; fi
  put_lua "$WORK/lua-nopcall.lua" 3
  out=$(sbatch --parsable --topo=pack -N1 -o /dev/null --wrap true 2>&1); rc=$?
  case "$REL" in 2[6-9].*) want=rejected ;; *) want=accepted ;; esac
  got=accepted; [ $rc != 0 ] && got=rejected
  if [ "$got" = "$want" ]; then ok "control: the same error outside pcall: Slurm $REL $got the job (as R.2.2 says)"
  else bad "control: an error outside pcall on Slurm $REL: $got, expected $want" "rc=$rc: $out"; fi
  put_lua "$LUA_SRC" 4
else bad "lua variants made (the bridge's pcall line moved?)"; fi

# ---------------------------------------------------------------- 7. figures
# A compiled snapshot that is stale or not trusted is ignored: the plugin reads the JSON
# (same plan); a corrupt one too.
stale_case() { # name setup-command...
  local name=$1; shift
  cp -p "$SNAP" "$WORK/snap-$name.json"; "$TOPOPLACE" compile "$WORK/snap-$name.json" 2>/dev/null
  "$@" "$WORK/snap-$name.json" "$WORK/snap-$name.json.bin"
  local conf out; conf=$(with_plugstack "bin-$name" "snapshot=$WORK/snap-$name.json on_error=fail")
  out=$(SLURM_CONF="$conf" sbatch --topo=pack --topo-explain --hold -N1 -o /dev/null --wrap true 2>&1); local rc=$?
  if [ $rc = 0 ] && grep -q 'snapshot [0-9.]* (json)' <<<"$out"; then ok "compiled snapshot $name: ignored, the JSON is used ($(grep -o 'pack: [^ ]*' <<<"$out"))"
  else bad "compiled snapshot $name: ignored, the JSON is used" "rc=$rc $out"; fi
}
touch_json() { touch -d '1 minute ago' "$1"; }
gw_bin() { chmod g+w "$2"; }
foreign_bin() { chown 65534 "$2"; }
corrupt_bin() { printf 'XXXXXXXX' | dd of="$2" bs=1 seek=500 conv=notrunc 2>/dev/null; }
trunc_bin() { truncate -s 1000 "$2"; }
for c in touch_json gw_bin foreign_bin corrupt_bin trunc_bin; do stale_case "$c" "$c"; done
clear_jobs

# state_cache=S: a user's next submission within S seconds reuses the node state read by the
# previous one (no slurm_load_node RPC), with the previous decision's hosts marked taken.
# Held jobs never allocate, so without the cache both plans would name the same hosts.
CACHED=$(with_plugstack cached "snapshot=$SNAP health=$HEALTH on_error=warn default=off wait=120 state_cache=30")
rm -rf "/tmp/topoplace-$(id -u)"
o1=$(SLURM_CONF="$CACHED" sbatch --topo=pack --topo-explain --hold -N4 -o /dev/null --wrap true 2>&1)
o2=$(SLURM_CONF="$CACHED" sbatch --topo=pack --topo-explain --hold -N4 -o /dev/null --wrap true 2>&1)
h1=$(grep -o 'pack: [^ ]*' <<<"$o1" | cut -d' ' -f2); h2=$(grep -o 'pack: [^ ]*' <<<"$o2" | cut -d' ' -f2)
both=$(comm -12 <(expand_hostlist "$h1" | sort) <(expand_hostlist "$h2" | sort) | tr '\n' ' ')
cf=$(ls "/tmp/topoplace-$(id -u)"/state-*.bin 2>/dev/null | head -1)
if grep -q 'nodes [0-9.]* (rpc)' <<<"$o1" && grep -q 'nodes [0-9.]* (cached' <<<"$o2" && [ -n "$h1" ] && [ -n "$h2" ] \
   && [ -z "$both" ] && [ "$(stat -c %a "$cf" 2>/dev/null)" = 600 ]; then
  ok "state_cache=30: the 2nd submission reuses the state ($(grep -o 'nodes [0-9.]* ([^)]*)' <<<"$o2")) and avoids the 1st one's hosts ($h1 then $h2); cache file mode 600"
else bad "state_cache=30: 2nd submission from the cache, other hosts" "$o1"$'\n'"$o2"$'\n'"common: $both file: $cf"; fi
o3=$(SLURM_CONF="$SLURM_CONF" sbatch --topo=pack --topo-explain --hold -N4 -o /dev/null --wrap true 2>&1)
h3=$(grep -o 'pack: [^ ]*' <<<"$o3" | cut -d' ' -f2)
if grep -q 'nodes [0-9.]* (rpc)' <<<"$o3" && [ -n "$h3" ] && [ "$h3" = "$h1" ]; then
  ok "without state_cache= every submission asks slurmctld, and a 3rd held job is planned onto the 1st one's hosts again ($h3)"
else bad "without state_cache= every submission asks slurmctld (same hosts as the 1st held job)" "$o3 (1st: $h1)"; fi
chmod 644 "$cf"
o4=$(SLURM_CONF="$CACHED" sbatch --topo=pack --topo-explain --hold -N4 -o /dev/null --wrap true 2>&1)
if grep -q 'nodes [0-9.]* (rpc)' <<<"$o4"; then ok "a cache file others can read is not used (the RPC is made)"
else bad "a cache file others can read is not used" "$o4"; fi
clear_jobs

# state_feed=: topoplace-nodefeed (root, as a site runs it on a login node) keeps a node-state
# file fresh from slurm_load_node; submissions plan from it without an RPC of their own.
FEEDF=""; FEEDPID=""
if [ -n "$NODEFEED" ]; then
  mkdir -m 755 "$WORK/feed"; FEEDF="$WORK/feed/nodes.bin"
  SOCK="$WORK/feed/service.sock"
  "$NODEFEED" --snapshot "$SNAP" -o "$FEEDF" --interval 0.5 --socket "$SOCK" --health "$HEALTH" --metrics "$WORK/feed/nodefeed.prom" \
    --jobs-every 1 2>"$WORK/feed.log" & FEEDPID=$!
  for _ in $(seq 100); do [ -s "$FEEDF" ] && break; sleep 0.1; done
  if [ "$(stat -c '%U %a' "$FEEDF" 2>/dev/null)" = "root 644" ] && grep -q "writing $FEEDF" "$WORK/feed.log"; then
    ok "topoplace-nodefeed writes $(basename "$FEEDF") (root, mode 644)"
  else bad "topoplace-nodefeed writes the feed file" "$(cat "$WORK/feed.log"; ls -l "$WORK/feed")"; fi
  FEED=$(with_plugstack feed "snapshot=$SNAP health=$HEALTH on_error=warn default=off wait=120 state_feed=$FEEDF state_feed_age=3")
  f1=$(SLURM_CONF="$FEED" sbatch --topo=pack --topo-explain --hold -N4 -o /dev/null --wrap true 2>&1)
  r1=$(SLURM_CONF="$SLURM_CONF" sbatch --topo=pack --topo-explain --hold -N4 -o /dev/null --wrap true 2>&1)
  hf=$(grep -o 'pack: [^ ]*' <<<"$f1" | cut -d' ' -f2); hr=$(grep -o 'pack: [^ ]*' <<<"$r1" | cut -d' ' -f2)
  if grep -q 'nodes [0-9.]* (feed [0-9.]* s)' <<<"$f1" && [ -n "$hf" ] && [ "$hf" = "$hr" ]; then
    ok "state_feed=: planned from the feed ($(grep -o 'nodes [0-9.]* ([^)]*)' <<<"$f1")), the same hosts as from an RPC ($hf)"
  else bad "state_feed=: planned from the feed, same hosts as from an RPC" "$f1"$'\n'"$r1"; fi
  clear_jobs
  # a job starts on exactly those hosts: within the feed's interval the next plan avoids them
  jb=$(SLURM_CONF="$NOPLUG" sbatch --parsable --exclusive -w "$hf" -N4 -o /dev/null --wrap 'sleep 600')
  for _ in $(seq 100); do [ "$(squeue -h -j "$jb" -o %T 2>/dev/null)" = RUNNING ] && break; sleep 0.1; done
  sleep 1.5
  f2=$(SLURM_CONF="$FEED" sbatch --topo=pack --topo-explain --hold -N4 -o /dev/null --wrap true 2>&1)
  h2=$(grep -o 'pack: [^ ]*' <<<"$f2" | cut -d' ' -f2)
  both=$(comm -12 <(expand_hostlist "$hf" | sort) <(expand_hostlist "$h2" | sort) | tr '\n' ' ')
  if [ "$(squeue -h -j "$jb" -o %T)" = RUNNING ] && grep -q '(feed ' <<<"$f2" && [ -n "$h2" ] && [ -z "$both" ]; then
    ok "the feed sees a job start: 1.5 s after job $jb took $hf, the next plan from the feed takes $h2"
  else bad "the feed sees a job start" "job $jb $(squeue -h -j "$jb" -o %T) on $hf; $f2; common: $both"; fi
  clear_jobs
  # service=: the same daemon answers placement requests from the model and state it holds
  SVC=$(with_plugstack svc "snapshot=$SNAP health=$HEALTH on_error=warn default=off wait=120 service=$SOCK")
  # the job above has ended: every node idle again, and the feed (every 0.5 s) has seen it
  for _ in $(seq 100); do [ "$(sinfo -h -N -t idle -o %N | sort -u | wc -l)" = 64 ] && break; sleep 0.2; done; sleep 1.2
  s1=$(SLURM_CONF="$SVC" sbatch --topo=pack --topo-explain --hold -N6 -o /dev/null --wrap true 2>&1)
  r1=$(SLURM_CONF="$SLURM_CONF" sbatch --topo=pack --topo-explain --hold -N6 -o /dev/null --wrap true 2>&1)
  hs=$(grep -o 'pack: [^ ]*' <<<"$s1" | cut -d' ' -f2); hr=$(grep -o 'pack: [^ ]*' <<<"$r1" | cut -d' ' -f2)
  cs=$(grep -o 'constraint [^ ]*' <<<"$s1"); cr=$(grep -o 'constraint [^ ]*' <<<"$r1")
  if grep -q '\[ms: service [0-9.]*[],]' <<<"$s1" && [ -n "$hs" ] && [ "$hs" = "$hr" ] && [ "$cs" = "$cr" ]; then
    ok "service=: the plan comes from topoplace-nodefeed ($(grep -o 'ms: service [0-9.]*' <<<"$s1") ms), the same as the plugin's own ($hs, $cs)"
  else bad "service=: plan from the service, same as in-process" "$s1"$'\n'"$r1"; fi
  clear_jobs
  sick=$(expand_hostlist "$hs" | head -1)
  "$LABTOOL" flag "$HEALTH" "$sick" "service test"
  s2=$(SLURM_CONF="$SVC" sbatch --topo=pack --topo-explain --hold -N6 -o /dev/null --wrap true 2>&1)
  "$LABTOOL" clear "$HEALTH" "$sick"
  h2=$(grep -o 'pack: [^ ]*' <<<"$s2" | cut -d' ' -f2)
  if grep -q 'ms: service' <<<"$s2" && grep -q "exclude $sick" <<<"$s2" && ! grep -qx "$sick" <<<"$(expand_hostlist "$h2")"; then
    ok "service=: a host flagged in the health store is excluded by the service too ($sick; plan $h2)"
  else bad "service=: health exclusions" "$s2"; fi
  s3=$(SLURM_CONF="$SVC" sbatch --topo=pack --topo-explain --hold -N65 -o /dev/null --wrap true 2>&1); rc3=$?
  if [ $rc3 != 0 ] && grep -q 'can never be placed' <<<"$s3"; then ok "service=: a request that can never fit is refused as without the service (rc=$rc3)"
  else bad "service=: never-fit request refused" "rc=$rc3 $s3"; fi
  cp -p "$SNAP" "$WORK/snap-other.json"
  OTHER=$(with_plugstack svcother "snapshot=$WORK/snap-other.json health=$HEALTH on_error=warn default=off wait=120 service=$SOCK")
  s4=$(SLURM_CONF="$OTHER" sbatch --topo=pack --topo-explain --hold -N2 -o /dev/null --wrap true 2>&1)
  if grep -q 'nodes [0-9.]* (rpc)' <<<"$s4" && ! grep -q 'ms: service' <<<"$s4"; then ok "service=: a service of another snapshot is not used (the plugin decides itself)"
  else bad "service=: another snapshot's service not used" "$s4"; fi
  # service= and state_feed= with the default policy, cost (issue 16): the daemon reads the
  # job table (slurm_load_jobs, as root; every second here), so cost sees which leaf groups'
  # uplinks a running multi-group job uses, through the service and from the feed file alike.
  # Free nodes per leaf [4 4 2 2|0 ...], a running job on n[011-012,015-016] (leaf groups 3
  # and 4), -N6: topo takes groups 1 and 3 (n001-004 + n009-010); cost keeps off group 3's
  # shared uplinks (groups 1 and 2), as `topoplace place --policy cost --jobs` predicts from
  # the same scontrol output. The plugin never reads the job table itself.
  clear_jobs
  jspan=$(SLURM_CONF=$NOPLUG sbatch --parsable --exclusive -N4 -w 'n[011-012,015-016]' -o /dev/null --wrap 'sleep 1200')
  SLURM_CONF=$NOPLUG sbatch --parsable --exclusive -N2 -w 'n[013-014]' -o /dev/null --wrap 'sleep 1200' > /dev/null
  for L in $(seq 4 15); do a=$((4 * L + 1))
    SLURM_CONF=$NOPLUG sbatch --parsable --exclusive -N4 -w "$(printf 'n%03d,n%03d,n%03d,n%03d' $a $((a+1)) $((a+2)) $((a+3)))" -o /dev/null --wrap 'sleep 1200' > /dev/null
  done
  for _ in $(seq 150); do [ "$(sinfo -h -N -t idle -o %N | sort -u | wc -l)" = 12 ] && break; sleep 0.2; done
  scontrol show nodes --oneliner > "$WORK/nodes-span.txt"; scontrol show jobs --oneliner > "$WORK/jobs-span.txt"
  SPRED=$("$TOPOPLACE" place "$SNAP" -N 6 --state "$WORK/nodes-span.txt" --jobs "$WORK/jobs-span.txt" --policy cost 2>/dev/null | sed -n 's/^Policy=cost NodeList=\([^ ]*\) .*/\1/p')
  STPRED=$("$TOPOPLACE" place "$SNAP" -N 6 --state "$WORK/nodes-span.txt" --policy topo 2>/dev/null | sed -n 's/^Policy=topo NodeList=\([^ ]*\) .*/\1/p')
  sleep 2.5  # a job table read and a feed write after the jobs started
  sc=$(SLURM_CONF="$SVC" sbatch --topo=pack --topo-explain --hold -N6 -o /dev/null --wrap true 2>&1); sc1=
  # The plugin gives the service 500 ms, then decides itself (as it must: not from the job
  # table). On a loaded 2-core CI machine, with 16 jobs just started, one exchange ran past
  # that (CI of 2026-11-29). This check is about what the service knows, not how fast it
  # answers (the attack check below is): a submission the service did not answer is tried
  # once more, and the line says so.
  if ! grep -q 'ms: service' <<<"$sc"; then
    sc1=" (2nd submission; the 1st was decided in-process: $(grep -o '\[ms: [^]]*\]' <<<"$sc"))"
    scancel "$(grep -oE 'Submitted batch job [0-9]+' <<<"$sc" | grep -oE '[0-9]+$')" 2>/dev/null; sleep 1
    sc=$(SLURM_CONF="$SVC" sbatch --topo=pack --topo-explain --hold -N6 -o /dev/null --wrap true 2>&1)
  fi
  hc=$(grep -o 'pack: [^ ]*' <<<"$sc" | cut -d' ' -f2)
  if [ "$(squeue -h -j "$jspan" -o %T)" = RUNNING ] && grep -q 'ms: service' <<<"$sc" && [ -n "$SPRED" ] && [ "$hc" = "$SPRED" ] \
     && [ "$SPRED" != "$STPRED" ] && [ "$(groups_of "$hc")" = "$(groups_of 'n[001,005]')" ] && grep -q 'cost: off shared uplinks' <<<"$sc" \
     && grep -q 'reading the job table' "$WORK/feed.log"; then
    ok "service= (default policy cost): with job $jspan running on n[011-012,015-016], -N6 is planned on $hc (off the shared uplinks of $(groups_of 'n[011,015]')) where topo takes $STPRED; as 'place --jobs' predicts$sc1"
  else bad "service= (default policy cost) sees the running jobs' uplinks" "span=$(squeue -h -j "$jspan" -o %T) cost=$SPRED topo=$STPRED plan=$hc; $sc; $(tail -3 "$WORK/feed.log")"; fi
  sf=$(SLURM_CONF="$FEED" sbatch --topo=pack --topo-explain --hold -N6 -o /dev/null --wrap true 2>&1)
  hsf=$(grep -o 'pack: [^ ]*' <<<"$sf" | cut -d' ' -f2)
  if grep -q 'nodes [0-9.]* (feed [0-9.]* s)' <<<"$sf" && [ -n "$SPRED" ] && [ "$hsf" = "$SPRED" ] && grep -q 'cost: off shared uplinks' <<<"$sf"; then
    ok "state_feed= (in-process, default policy cost): the feed carries the running jobs' uplinks, -N6 planned on $hsf as through the service"
  else bad "state_feed= carries the running jobs' uplinks to the in-process cost policy" "cost=$SPRED plan=$hsf; $sf"; fi
  # Busy through the service (12 hosts idle, -N13): no plan, and the service's answer still
  # keeps the job off the hosts the health store flags (unplanned_env), as the plugin's own
  # decision does; job_submit.lua applies that exclusion alone.
  "$LABTOOL" flag "$HEALTH" n001 "service busy test"
  sb=$(SLURM_CONF="$SVC" sbatch --topo=pack --topo-explain --hold -N13 -o /dev/null --wrap true 2>&1)
  "$LABTOOL" clear "$HEALTH" n001
  jsb=$(grep -oE 'Submitted batch job [0-9]+' <<<"$sb" | grep -oE '[0-9]+$')
  exb=$([ -n "$jsb" ] && scontrol show job "$jsb" --oneliner | grep -oE 'ExcNodeList=[^ ]+')
  if grep -q 'ms: service' <<<"$sb" && grep -q 'no placement fits now' <<<"$sb" && grep -q 'without n001 (health store)' <<<"$sb" \
     && [ "$exb" = ExcNodeList=n001 ]; then
    ok "service=, busy (12 hosts idle, -N13): no plan, the service's answer keeps job $jsb off the flagged n001 ($exb)"
  else bad "service=, busy: the health store's exclusions kept" "job $jsb $exb; $sb"; fi
  clear_jobs
  # A health store that does not exist yet (the packaged snippet names one that only the first
  # `health check` used to create) means nothing flagged: with on_error=fail every --topo job
  # used to be refused (issue 17 finding 2); in-process and through the service alike.
  NOSTORE=$(with_plugstack nostore "snapshot=$SNAP health=$WORK/not-yet on_error=fail default=off wait=120")
  n1=$(SLURM_CONF="$NOSTORE" sbatch --topo=pack --topo-explain --hold -N2 -o /dev/null --wrap true 2>&1); rn1=$?
  if [ $rn1 = 0 ] && grep -q 'pack: ' <<<"$n1"; then ok "a health store not created yet: nothing flagged, the job planned (on_error=fail)"
  else bad "missing health store = nothing flagged" "rc=$rn1 $n1"; fi
  # Under attack (issue 17 findings 1, 3, 4; docs/security.md): an ordinary user, created
  # here, holds 40 silent connections to the service (reopened as the service closes them)
  # and sends memory bombs (exclude= a 60 KB hostlist of a million names) and CPU bombs
  # (nodes=1-1000000 segment=1) in a loop for 8 s. Meanwhile every legitimate submission is
  # still planned by the service: each answered before the plugin gives up (500 ms), the
  # median far below; the daemon's memory stays bounded; the feed stays fresh. (The service's
  # own 200 ms per connection counts from accept(); the plugin's figure also holds the wait in
  # the listen queue behind the attacker's connections and, on a loaded 2-core CI machine,
  # reached 310 ms: the bound checked is the plugin's, the figure is printed.)
  ATK=topoplace-atk
  id -u "$ATK" >/dev/null 2>&1 || useradd -r -M -s /usr/sbin/nologin "$ATK" 2>/dev/null
  if id -u "$ATK" >/dev/null 2>&1 && [ -x /usr/bin/python3 ] && command -v setpriv >/dev/null; then
    cp "$HERE/attack.py" "$WORK/feed/attack.py"; chmod 755 "$WORK/feed/attack.py"
    # one node taken: the attacker's all-nodes request is "busy" (a fresh read at most 1/s)
    jblk=$(SLURM_CONF="$NOPLUG" sbatch --parsable --exclusive -N1 -o /dev/null --wrap 'sleep 60')
    for _ in $(seq 100); do [ "$(squeue -h -j "$jblk" -o %T 2>/dev/null)" = RUNNING ] && break; sleep 0.1; done
    # The attacker's job table (issue 32): jobs whose names, comments and working directories
    # hold field-like text and bytes that are not UTF-8 (pending, held), and two running
    # two-node jobs of its own spanning leaf groups, so the daemon's job-table reads for cost
    # (every second here) read them all through the attack.
    atk() { setpriv --reuid="$ATK" --regid="$(id -g "$ATK")" --clear-groups env -i PATH=/usr/bin:/bin SLURM_CONF="$NOPLUG" "$@"; }
    bytes=$(printf 'x\377\376 JobState=RUNNING NodeList=n[001-064]')
    natk=0
    for k in $(seq 10); do
      atk sbatch --hold -N2 -J "$bytes $k" --comment="x JobState=RUNNING NodeList=[ JobId=1$k" -D / -o /dev/null \
        --wrap true >/dev/null 2>&1 && natk=$((natk + 1))
    done
    for w in 'n[004,008]' 'n[012,016]'; do
      atk sbatch --exclusive -N2 -w "$w" -J "$bytes run" --comment="AllocTRES=gres/gpu=99999 NodeList=n[001-064]" -D / -o /dev/null \
        --wrap 'sleep 60' >/dev/null 2>&1 && natk=$((natk + 1))
    done
    sleep 1
    setpriv --reuid="$ATK" --regid="$(id -g "$ATK")" --clear-groups env -i PATH=/usr/bin:/bin /usr/bin/python3 "$WORK/feed/attack.py" "$SOCK" "$SNAP" "$HEALTH" 8 \
      >"$WORK/attack.out" 2>&1 & APID=$!
    # topoplace status --prometheus every second through the attack, as a site's timer would
    ( i=0; while kill -0 "$APID" 2>/dev/null; do
        i=$((i + 1)); "$TOPOPLACE" status "$SNAP" --health-store "$HEALTH" --prometheus "$WORK/prom.txt" > /dev/null 2>"$WORK/status.err" \
          && echo "ok $i $(stat -c %Y "$WORK/prom.txt") $(grep -c '^topoplace_job_slowdown_ratio' "$WORK/prom.txt")" || echo "fail $i"
        sleep 1
      done ) > "$WORK/status.log" & SPID=$!
    sleep 1
    svcms=(); nsvc=0; nleg=0; nfeed=0
    while kill -0 "$APID" 2>/dev/null && [ $nleg -lt 40 ]; do
      sa=$(SLURM_CONF="$SVC" sbatch --topo=pack --topo-explain --hold -N4 -o /dev/null --wrap true 2>&1)
      nleg=$((nleg + 1))
      m=$(grep -o 'ms: service [0-9.]*' <<<"$sa" | awk '{print $3}')
      if [ -n "$m" ] && grep -q 'pack: ' <<<"$sa"; then nsvc=$((nsvc + 1)); svcms+=("$m"); fi
      if [ $((nleg % 8)) = 0 ]; then   # and the feed file, read by the plugin deciding in-process
        sf=$(SLURM_CONF="$FEED" sbatch --topo=pack --topo-explain --hold -N4 -o /dev/null --wrap true 2>&1)
        grep -q 'nodes [0-9.]* (feed [0-9.]* s)' <<<"$sf" && grep -q 'pack: ' <<<"$sf" && nfeed=$((nfeed + 1))
      fi
    done
    fage=$(( $(date +%s) - $(stat -c %Y "$FEEDF") ))
    wait "$APID"; wait "$SPID"
    nst=$(grep -c '^ok' "$WORK/status.log"); nstf=$(grep -c '^fail' "$WORK/status.log")
    if [ "$natk" = 12 ] && [ "$nst" -ge 3 ] && [ "$nstf" = 0 ] && [ $nfeed -ge 3 ] && [ $nfeed = $((nleg / 8)) ]; then
      ok "under attack, with the attacker's 12 hostile jobs in the table: topoplace status --prometheus written $nst/$nst cycles ($(tail -1 "$WORK/status.log" | awk '{print $4}') job series); the feed used by $nfeed/$nfeed in-process submissions"
    else bad "under attack: status every cycle, feed used" "hostile jobs $natk/12; status $nst ok, $nstf failed: $(cat "$WORK/status.err"); feed used $nfeed of $((nleg / 8))"; fi
    scancel -u "$ATK" 2>/dev/null
    hwm=$(awk '/VmHWM/ {print $2}' "/proc/$FEEDPID/status" 2>/dev/null)
    scancel "$jblk" 2>/dev/null
    mx=$(printf '%s\n' "${svcms[@]}" | sort -n | tail -1)
    md=$(printf '%s\n' "${svcms[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    if [ $nleg -ge 5 ] && [ $nsvc = $nleg ] && awk -v m="$mx" -v d="$md" 'BEGIN{exit !(m < 500 && d < 50)}' \
       && [ -n "$hwm" ] && [ "$hwm" -lt 262144 ] && [ "$fage" -le 2 ] && grep -q 'bombs answered' "$WORK/attack.out"; then
      ok "under attack by uid $(id -u "$ATK") ($(cat "$WORK/attack.out")): $nsvc/$nleg submissions planned by the service, service ms median $md (bound 50) max $mx (the plugin's timeout 500); daemon peak RSS $((hwm / 1024)) MiB; feed ${fage} s old"
    else bad "service under attack" "legit $nsvc/$nleg by the service, ms ${svcms[*]}; peak RSS ${hwm:-?} kB; feed age $fage s; $(cat "$WORK/attack.out"); $(tail -5 "$WORK/feed.log")"; fi
  else
    bad "under attack: needs useradd, python3 and setpriv" "$(id -u "$ATK" 2>&1)"
  fi
  clear_jobs
  # a quiet cluster for 3 s: slurmctld answers "no change" (its node table has a 1 s clock)
  sleep 3
  # a dead feed ages out: after state_feed_age the plugin asks slurmctld itself
  kill "$FEEDPID"; wait "$FEEDPID" 2>/dev/null; FEEDPID=""
  sleep 3.5
  f3=$(SLURM_CONF="$FEED" sbatch --topo=pack --topo-explain --hold -N4 -o /dev/null --wrap true 2>&1)
  if grep -q 'nodes [0-9.]* (rpc)' <<<"$f3" && grep -q 'pack: ' <<<"$f3"; then ok "a feed older than state_feed_age=3 is not used: the plugin makes the RPC"
  else bad "a stale feed is not used" "$f3"; fi
  s5=$(SLURM_CONF="$SVC" sbatch --topo=pack --topo-explain --hold -N2 -o /dev/null --wrap true 2>&1); rc5=$?
  if [ $rc5 = 0 ] && grep -q 'nodes [0-9.]* (rpc)' <<<"$s5" && [ ! -e "$SOCK" ]; then ok "service=: no service running (socket removed at exit): the plugin decides itself"
  else bad "service=: fallback without a service" "rc=$rc5 $s5"; fi
  # slurmctld answered "no change" to most of the feed's reads (the cheap path), and the
  # reads that saw the job start were full ones
  st=$(grep -o 'stopping: .*' "$WORK/feed.log" | tail -1)
  nfull=$(grep -oE '[0-9]+ full reads' <<<"$st" | cut -d' ' -f1); nsame=$(grep -oE "[0-9]+ 'no change'" <<<"$st" | cut -d' ' -f1)
  if [ "${nsame:-0}" -gt 0 ] && [ "${nfull:-0}" -ge 2 ]; then ok "topoplace-nodefeed on SIGTERM: $st"
  else bad "the feed's reads: 'no change' answers and full reads" "$(cat "$WORK/feed.log")"; fi
  # --metrics: the same counts as the log line, as a Prometheus textfile written at exit
  pm="$WORK/feed/nodefeed.prom"
  mfull=$(awk '$1 == "topoplace_nodefeed_full_reads_total" {print $2}' "$pm" 2>/dev/null)
  mplan=$(awk '$1 == "topoplace_nodefeed_decisions_total{answer=\"planned\"}" {print $2}' "$pm" 2>/dev/null)
  mjobs=$(awk '$1 == "topoplace_nodefeed_job_reads_total" {print $2}' "$pm" 2>/dev/null)
  njobs=$(grep -oE '[0-9]+ job table reads' <<<"$st" | cut -d' ' -f1)
  if [ -n "$mfull" ] && [ "$mfull" = "$nfull" ] && [ "${mplan:-0}" -gt 0 ] && [ "${mjobs:-0}" -gt 0 ] && [ "$mjobs" = "$njobs" ]; then
    ok "topoplace-nodefeed --metrics: $mfull full reads (as logged), $mplan planned decisions, $mjobs job table reads (as logged)"
  else bad "topoplace-nodefeed --metrics" "full=$mfull (log $nfull) planned=$mplan jobs=$mjobs (log $njobs); $(head -c 2000 "$pm" 2>&1)"; fi
  # the attacker's busy answers drove at most one fresh read of slurmctld per second (8 s of
  # attack; the legitimate submissions in this test add a few): before, every busy answer did
  nre=$(grep -oE '[0-9]+ fresh reads for busy answers' <<<"$st" | cut -d' ' -f1)
  nbusy=$(grep -oE '\(([0-9]+) busy\)' "$WORK/attack.out" 2>/dev/null | tr -dc 0-9)
  if [ -n "$nre" ] && [ -n "$nbusy" ] && [ "$nbusy" -ge 20 ] && [ "$nre" -le 15 ]; then
    ok "the attacker's $nbusy busy answers cost $nre fresh reads of slurmctld as root (at most one a second)"
  else bad "busy re-reads rate-limited" "busy answers ${nbusy:-?}, fresh reads ${nre:-?}: $st"; fi
  clear_jobs
  # the feed and service for the figures below, as a site would run them (--interval 1)
  "$NODEFEED" --snapshot "$SNAP" -o "$FEEDF" --interval 1 --socket "$SOCK" --health "$HEALTH" 2>>"$WORK/feed.log" & FEEDPID=$!
  for _ in $(seq 50); do [ "$(find "$FEEDF" -newermt '-1 second' 2>/dev/null)" ] && [ -S "$SOCK" ] && break; sleep 0.1; done
fi

# sbatch wall time, interleaved (no plugin, plugin loaded with --topo off, --topo=pack with
# the compiled snapshot, --topo=pack from the JSON alone), T_SPANK_BENCH_ROUNDS rounds of
# T_SPANK_BENCH_N submissions each; medians per round and over all rounds. Every variant is
# started the same way (env SLURM_CONF=... sbatch): the extra exec of env is ~0.5 ms here.
med() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.2f", a/b}'; }
tsub() { local t0 t1; t0=$(date +%s%N); "$@" >/dev/null 2>&1; t1=$(date +%s%N); echo $(( (t1 - t0) / 1000 )); }
JSONONLY=$(with_plugstack jsononly "snapshot=$WORK/snapshot-json.json health=$HEALTH on_error=warn default=off wait=120")
BENCHC=$(with_plugstack benchcache "snapshot=$SNAP health=$HEALTH on_error=warn default=off wait=120 state_cache=5")
BENCHF=""; [ -n "$FEEDF" ] && BENCHF=$(with_plugstack benchfeed "snapshot=$SNAP health=$HEALTH on_error=warn default=off wait=120 state_feed=$FEEDF state_feed_age=3")
BENCHS=""; [ -n "$FEEDF" ] && BENCHS=$(with_plugstack benchsvc "snapshot=$SNAP health=$HEALTH on_error=warn default=off wait=120 service=$SOCK")
BN=${T_SPANK_BENCH_N:-20}; BR=${T_SPANK_BENCH_ROUNDS:-3}
for _w in $(seq 3); do sbatch --topo=pack -N1 -o /dev/null --wrap true >/dev/null 2>&1; done   # warm caches
for r in $(seq "$BR"); do
  for i in $(seq "$BN"); do
    tsub env SLURM_CONF="$NOPLUG" sbatch -N1 -o /dev/null --wrap true | tee -a "$WORK/t-none" >> "$WORK/t-none.$r"
    tsub env SLURM_CONF="$SLURM_CONF" sbatch -N1 -o /dev/null --wrap true | tee -a "$WORK/t-off" >> "$WORK/t-off.$r"
    tsub env SLURM_CONF="$SLURM_CONF" sbatch --topo=pack -N1 -o /dev/null --wrap true | tee -a "$WORK/t-pack" >> "$WORK/t-pack.$r"
    tsub env SLURM_CONF="$BENCHC" sbatch --topo=pack -N1 -o /dev/null --wrap true | tee -a "$WORK/t-cache" >> "$WORK/t-cache.$r"
    tsub env SLURM_CONF="$JSONONLY" sbatch --topo=pack -N1 -o /dev/null --wrap true | tee -a "$WORK/t-json" >> "$WORK/t-json.$r"
    [ -n "$BENCHF" ] && tsub env SLURM_CONF="$BENCHF" sbatch --topo=pack -N1 -o /dev/null --wrap true | tee -a "$WORK/t-feed" >> "$WORK/t-feed.$r"
    [ -n "$BENCHS" ] && tsub env SLURM_CONF="$BENCHS" sbatch --topo=pack -N1 -o /dev/null --wrap true | tee -a "$WORK/t-svc" >> "$WORK/t-svc.$r"
  done
  mn=$(med < "$WORK/t-none.$r"); mo=$(med < "$WORK/t-off.$r"); mp=$(med < "$WORK/t-pack.$r"); mj=$(med < "$WORK/t-json.$r"); mc=$(med < "$WORK/t-cache.$r")
  mf=""; [ -n "$BENCHF" ] && mf=$(med < "$WORK/t-feed.$r"); ms=""; [ -n "$BENCHS" ] && ms=$(med < "$WORK/t-svc.$r")
  echo "     round $r, sbatch median of $BN (us): no plugin $mn | --topo off $mo ($(ratio "$mo" "$mn") x) | --topo=pack compiled $mp ($(ratio "$mp" "$mn") x) | --topo=pack JSON $mj ($(ratio "$mj" "$mn") x) | --topo=pack compiled + state_cache=5 $mc ($(ratio "$mc" "$mn") x)${mf:+ | --topo=pack compiled + state_feed $mf ($(ratio "$mf" "$mn") x)}${ms:+ | --topo=pack + service $ms ($(ratio "$ms" "$mn") x)}"
  clear_jobs
done
mn=$(med < "$WORK/t-none"); mo=$(med < "$WORK/t-off"); mp=$(med < "$WORK/t-pack"); mj=$(med < "$WORK/t-json"); mc=$(med < "$WORK/t-cache")
echo "     decision cost (--topo-explain), compiled: $(sbatch --topo=pack --topo-explain -N1 -o /dev/null --wrap true 2>&1 | grep -o '\[ms:.*\]')"
echo "     decision cost (--topo-explain), JSON:     $(SLURM_CONF="$JSONONLY" sbatch --topo=pack --topo-explain -N1 -o /dev/null --wrap true 2>&1 | grep -o '\[ms:.*\]')"
echo "     sbatch median over $((BN * BR)) (us): no plugin $mn, plugin loaded (--topo off) $mo ($(ratio "$mo" "$mn") x), --topo=pack compiled snapshot $mp ($(ratio "$mp" "$mn") x; target <= 1.1 x), --topo=pack JSON snapshot $mj ($(ratio "$mj" "$mn") x), --topo=pack compiled + state_cache=5 $mc ($(ratio "$mc" "$mn") x; a user's submissions in a row)"
if [ -n "$BENCHF" ]; then
  mf=$(med < "$WORK/t-feed")
  echo "     sbatch median over $((BN * BR)) (us), every submission planned from the node-state feed (topoplace-nodefeed --interval 1, no RPC in sbatch): $mf ($(ratio "$mf" "$mn") x; target <= 1.1 x)"
  echo "     decision cost (--topo-explain), compiled + state_feed: $(SLURM_CONF="$BENCHF" sbatch --topo=pack --topo-explain -N1 -o /dev/null --wrap true 2>&1 | grep -o '\[ms:.*\]')"
  ms=$(med < "$WORK/t-svc")
  echo "     sbatch median over $((BN * BR)) (us), every submission placed by the service (topoplace-nodefeed --socket; no snapshot load, no RPC in sbatch): $ms ($(ratio "$ms" "$mn") x; target <= 1.1 x)"
  echo "     decision cost (--topo-explain), service: $(SLURM_CONF="$BENCHS" sbatch --topo=pack --topo-explain -N1 -o /dev/null --wrap true 2>&1 | grep -o '\[ms:.*\]')"
  echo "     decision without an RPC (node state given), median of 50, lab snapshot (64 hosts): $("$LABTOOL" decision-bench "$SNAP" "$HEALTH" "$SOCK" 50)"
  kill "$FEEDPID" 2>/dev/null; wait "$FEEDPID" 2>/dev/null; FEEDPID=""
  # the same at 4,096 hosts (3 tiers, 8 rails; hosts the lab's slurmctld does not know count
  # as idle): the in-process decision rebuilds the model each time, the service does not
  printf 'version: 1\nname: fat4k\nnodes:\n  - names: dgx[0001-4096]\n    gpus: {count: 8, model: NVIDIA H100 80GB HBM3}\nfabric: {hosts_per_leaf: 32, rails: 8, spines_per_rail: 4, sus_per_pod: 8, cores_per_rail: 4, gbps: 400, rate: 4xNDR}\n' > "$WORK/fat4k.yaml"
  if "$TOPOPLACE" discover --spec "$WORK/fat4k.yaml" --compiled -o "$WORK/fat4k.json" 2>/dev/null; then
    "$NODEFEED" --snapshot "$WORK/fat4k.json" -o "$WORK/feed/fat4k.bin" --socket "$WORK/feed/fat4k.sock" --health "$HEALTH" 2>>"$WORK/feed.log" & FEEDPID=$!
    for _ in $(seq 100); do [ -S "$WORK/feed/fat4k.sock" ] && [ -s "$WORK/feed/fat4k.bin" ] && break; sleep 0.1; done
    echo "     decision without an RPC (node state given), median of 20, 4,096 hosts / 32,768 GPUs: $("$LABTOOL" decision-bench "$WORK/fat4k.json" "$HEALTH" "$WORK/feed/fat4k.sock" 20)"
    kill "$FEEDPID" 2>/dev/null; wait "$FEEDPID" 2>/dev/null; FEEDPID=""
  fi
fi
SLURM_CONF="$BENCHC" sbatch --topo=pack -N1 -o /dev/null --wrap true >/dev/null 2>&1   # a fresh state for the next one
echo "     decision cost (--topo-explain), compiled + state_cache=5: $(SLURM_CONF="$BENCHC" sbatch --topo=pack --topo-explain -N1 -o /dev/null --wrap true 2>&1 | grep -o '\[ms:.*\]')"
"$LABTOOL" flag "$HEALTH" n064 "bench record" && gt=$("$LABTOOL" gate-bench "$HEALTH" n064 200) && "$LABTOOL" clear "$HEALTH" n064
echo "     launch gate (store open + record read + verdict), median of 200: ${gt% *} us (target <= 10 ms)"
clear_jobs

# ---------------------------------------------------------------- 6. launch gate
if [ "${T_SPANK_SKIP_GATE:-0}" = 1 ]; then echo "skip launch gate (T_SPANK_SKIP_GATE=1)"; echo "$pass passed, $fail failed"; [ "$fail" = 0 ]; exit; fi
# batch job: planned on healthy nodes, one of them flagged before it starts
j=$(sbatch --parsable --exclusive --topo=pack --hold -N4 -o "$WORK/gate-%j.out" \
  --wrap 'echo "start $SLURM_JOB_NODELIST restart=${SLURM_RESTART_COUNT:-0}"; sleep 2; echo "done $SLURM_JOB_NODELIST"')
planned=$(scontrol show job "$j" | sed -n 's/.*Prefer=\([^ ]*\).*/\1/p')
pred=$(grep 'lua: topoplace: uid 0 pack plan (predicted' "$LAB_DIR/log/slurmctld.log" | tail -1 | sed -n 's/.*predicted \([^)]*\)).*/\1/p')
victim=$(expand_hostlist "$pred" | sed -n 2p)
"$LABTOOL" flag "$HEALTH" "$victim" "ib port mlx5_1 down"
scontrol release "$j"
for _ in $(seq 150); do grep -q "Requeuing JobId=$j" "$LAB_DIR/log/slurmctld.log" && break; sleep 0.2; done
reason=$(sinfo -h -N -n "$victim" -o '%T|%E' | head -1)
if [[ "$reason" == drain*"|topoplace: ib port mlx5_1 down (operator)" ]]; then ok "gate: prolog failed on flagged $victim, node drained with reason '${reason#*|}'"
else bad "gate: flagged node drained with a topoplace: reason" "victim=$victim plan=$planned sinfo=$reason"; fi
check "gate: slurmd log names the node and the job" grep -q "topoplace: job $j refused on node $victim: topoplace: ib port mlx5_1 down" "$LAB_DIR/log/slurmd-$victim.log"
st=$(squeue -h -j "$j" -o '%T|%r')
if [[ "$st" == PENDING* ]] && [[ "$st" != *Held* ]] && grep -q "Requeuing JobId=$j" "$LAB_DIR/log/slurmctld.log"; then ok "gate: batch job $j requeued, pending and not held ($st)"
else bad "gate: batch job requeued, not held" "$st"; fi
echo "     waiting for the requeued job (its begin time: AuthInfo cred_expire ${LAB_CRED_EXPIRE:-10} s + 1 after the requeue)..."
for _ in $(seq 1500); do [ -n "$(final_state "$j")" ] && break; sleep 0.2; done
fs=$(final_state "$j"); onodes=$(sed -n 's/^done //p' "$WORK/gate-$j.out" 2>/dev/null)
if [ "$fs" = COMPLETED ] && [ -n "$onodes" ] && ! grep -qx "$victim" <<<"$(expand_hostlist "$onodes")" && grep -q '^start .* restart=1$' "$WORK/gate-$j.out"; then
  ok "gate: requeued job completed on healthy nodes $onodes (restart 1), output intact: $(paste -sd';' "$WORK/gate-$j.out")"
else bad "gate: requeued job completed elsewhere with its output" "state=$fs out=$(cat "$WORK/gate-$j.out" 2>&1)"; fi

# srun job straight onto a flagged node (-w: the plugin does not place, the gate still runs)
sv=n063; "$LABTOOL" flag "$HEALTH" $sv "gpu 3 xid 79"
out=$(timeout 60 srun -N1 -w $sv true 2>&1); rc=$?
reason=$(sinfo -h -N -n $sv -o '%T|%E' | head -1)
if [ $rc != 0 ] && [[ "$reason" == drain*"|topoplace: gpu 3 xid 79 (operator)" ]]; then
  ok "gate, srun job: srun fails (rc=$rc: $(tail -1 <<<"$out" | cut -c1-80)), $sv drained with the topoplace reason"
else bad "gate, srun job on a flagged node" "rc=$rc out=$out sinfo=$reason"; fi
# a degraded node is not refused: the gate is health::gate(), as `topoplace health gate`
# (issue 16: degraded hosts are kept out of multi-node jobs by placement, never drained)
dv=n061; "$TOPOPLACE" health flag $dv --degraded --slowdown 1.2 --reason "ib: half rate" --store "$HEALTH" >/dev/null 2>&1
out=$(timeout 60 srun -N1 -w $dv printenv SLURMD_NODENAME 2>&1); rc=$?  # every slurmd runs on this one host
reason=$(sinfo -h -N -n $dv -o '%T|%E' | head -1)
if [ $rc = 0 ] && [ "$out" = "$dv" ] && [[ "$reason" != drain* ]]; then ok "gate: degraded $dv runs an srun job and is not drained ($reason)"
else bad "gate: a degraded node runs jobs" "rc=$rc out=$out sinfo=$reason"; fi
"$TOPOPLACE" health clear $dv --store "$HEALTH" >/dev/null 2>&1
# --no-requeue batch job onto a flagged node
nv=n062; "$LABTOOL" flag "$HEALTH" $nv "manual: fan failure"
j=$(sbatch --parsable --no-requeue -w $nv -o "$WORK/norq.out" --wrap 'echo ran')
for _ in $(seq 150); do [ -n "$(final_state "$j")" ] && break; sleep 0.2; done
fs=$(final_state "$j"); reason=$(sinfo -h -N -n $nv -o '%T|%E' | head -1)
if [ -n "$fs" ] && [ "$fs" != COMPLETED ] && ! grep -q ran "$WORK/norq.out" 2>/dev/null && [[ "$reason" == drain*"|topoplace: manual: fan failure (operator)" ]]; then
  ok "gate, --no-requeue batch job: not requeued, ends $fs without running; $nv drained"
else bad "gate, --no-requeue job on a flagged node" "state=$fs out=$(cat "$WORK/norq.out" 2>&1) sinfo=$reason"; fi
check "gate: every daemon still alive" daemons_alive

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
