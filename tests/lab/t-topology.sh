#!/usr/bin/env bash
# topology/topoplace on a live slurmctld of Slurm 24.11 or 26.05 (tests/lab/release.sh runs it
# in the release's chroot): topoplace's choice made where Slurm selects nodes, at each job's
# start (issue 31).
#   t-topology.sh TOPOPLACE TOPOLOGY_SO [SPANK_SO]   (no SPANK_SO: section 4 is skipped)
# 1. The 64-node 3-level lab (tests/fixtures/placement/tree-16x4.yaml: 16 leaf groups of 4,
#    4 spines, 1 core), topology.conf from `topoplace slurm-conf`, slurm.conf with
#    TopologyPlugin=topology/topoplace and the snapshot next to it: slurmctld starts and says
#    what it loaded; `scontrol show topology` is topology/tree's.
# 2. Probes: a busy state is set (one job holding chosen nodes), `scontrol show nodes` goes
#    to `topoplace place --policy cost` (what topoplace chooses on the state now), then a plain
#    `sbatch -N n --exclusive` (no option: the plugin's default is pack) must run on exactly
#    those nodes, at the leaf-group bound.
# 3. slurmctld stays up, falls back to topology/tree and says so once, with: a missing
#    snapshot, a corrupt one, one naming nodes slurm.conf does not define, a bad config
#    line; `scontrol reconfigure` onto a new snapshot reloads it; a health store that does
#    not exist flags nobody; a burst of 1,000 pending jobs leaves it answering.
# 4. (between 2 and 3) With the SPANK plugin and job_submit.lua installed as on a site
#    (plugstack decide=auto): the plugin sees TopologyPlugin=topology/topoplace and makes no
#    plan at submission (no Prefer, no switch count; job_submit.lua says "chosen at start"),
#    still refuses a request that can never fit, and the job runs on topoplace's choice at
#    its start.
# Prints "N passed, N failed"; exit 77 (skip) when it cannot run.
set -uo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
TOPOPLACE="${1:-topoplace}"
SO="${2:?usage: t-topology.sh TOPOPLACE TOPOLOGY_SO [SPANK_SO]}"; SO="$(readlink -f "$SO")"
SPANK_SO="${3:-}"
SPEC="$HERE/../fixtures/placement/tree-16x4.yaml"
export LAB_TIMEOUT="${LAB_TIMEOUT:-300}"
LAB_JOB_SLEEP=600
. "$HERE/lib.sh"
lab_init topology /tmp/tplab-topology 16957 17900 64 slurmctld slurmd munged scontrol sbatch python3
TOPOPLACE="$(command -v "$TOPOPLACE" || echo "$TOPOPLACE")"
[ -f "$SO" ] || { echo "FAIL: no plugin $SO"; exit 1; }
REL=$(slurmctld -V | awk '{split($2, v, "."); print v[1] "." v[2]}')
case "$REL" in 22.*|23.*|24.0*) echo "SKIP: Slurm $REL selects nodes without a topology plugin"; exit 77 ;; esac

SNAP="$WORK/topoplace.json"
check "topoplace discover --spec tree-16x4.yaml" "$TOPOPLACE" discover --spec "$SPEC" -o "$SNAP"
check "topoplace slurm-conf --format tree --features" "$TOPOPLACE" slurm-conf "$SNAP" --format tree --features "$WORK/features.conf" -o "$WORK/topology.conf"
mkdir -p "$WORK/plugins"; cp "$SO" "$WORK/plugins/topology_topoplace.so"; chmod 755 "$WORK/plugins/topology_topoplace.so"
PLUGDIR=$(dirname "$(find /usr/lib -name topology_tree.so 2>/dev/null | head -1)")
[ -n "$PLUGDIR" ] || { echo "SKIP: no topology_tree.so (Slurm's plugins)"; exit 77; }
ETC="$LAB_DIR/etc"
lab_up "lab up (64 nodes, Slurm $REL, TopologyPlugin=topology/topoplace)" LAB_TOPOLOGY=topoplace \
  LAB_TOPOLOGY_FILE="$WORK/topology.conf" LAB_FEATURES_FILE="$WORK/features.conf" \
  LAB_EXTRA_CONF="PluginDir=$PLUGDIR:$WORK/plugins" LAB_ETC_FILES="$SNAP"
CTLD_LOG="$LAB_DIR/log/slurmctld.log"
loaded() { grep -c 'topology/topoplace: snapshot .*topoplace.json (64 hosts, policy cost)' "$CTLD_LOG"; }
check "slurmctld loaded the snapshot (log: 'topology/topoplace: snapshot ... 64 hosts, policy cost')" test "$(loaded)" -ge 1
check "scontrol show config: TopologyPlugin = topology/topoplace" bash -c "scontrol show config | grep -Eq '^TopologyPlugin += topology/topoplace'"
check "scontrol show topology: topology/tree's switches (16 leaves + 4 spines + core)" \
  bash -c "[ \$(scontrol show topology | grep -c '^SwitchName=') = 21 ]"

# ---------------------------------------------------------------- 2. probes
node() { printf 'n%03d' "$1"; }
leaf_of() { local i=${1#n}; i=$((10#$i)); echo $(((i - 1) / 4)); }
spine_of() { echo $(($(leaf_of "$1") / 4)); }
count_leaves() { for n in "$@"; do leaf_of "$n"; done | sort -u | wc -l; }
count_spines() { for n in "$@"; do spine_of "$n"; done | sort -u | wc -l; }
wait_gone() { for _ in $(seq 100); do grep -q . <<<"$(squeue -h -j "$1" 2>/dev/null)" || return 0; sleep 0.2; done; }
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
probes=0; same=0; at_bound=0; list=""
run_state() { # name, "f0 .. f15" (free hosts per leaf, the first k of each), sizes...
  local name=$1 frees=$2; shift 2
  local -a free=($frees) busy=()
  local l i
  for l in $(seq 0 15); do
    for i in 0 1 2 3; do [ "$i" -ge "${free[$l]}" ] && busy+=("$(node $((l * 4 + i + 1)))"); done
  done
  clear_jobs 150
  if [ "${#busy[@]}" -gt 0 ]; then
    local bl bj st; bl=$(printf '%s,' "${busy[@]}"); bl=${bl%,}
    bj=$(sub -N "${#busy[@]}" -w "$bl")
    IFS='|' read -r st _ <<<"$(wait_running "$bj" 30)"
    [ "$st" = RUNNING ] || { bad "$name: busy job running" "state=$st"; return; }
  fi
  scontrol show nodes --oneliner > "$WORK/state.txt"
  local n
  for n in "$@"; do
    probes=$((probes + 1))
    "$TOPOPLACE" place "$SNAP" --nodes "$n" --state "$WORK/state.txt" --policy cost --json > "$WORK/cp.json" 2>"$WORK/err" || true
    local want lbg j st nodes live
    want=$(json "$WORK/cp.json" "','.join(d.get('hosts', []))")
    lbg=$(json "$WORK/cp.json" "d.get('lower_bound_groups', -1)")
    j=$(sub -N "$n")
    IFS='|' read -r st nodes _ <<<"$(wait_running "$j" 20)"
    scancel "$j" 2>/dev/null; wait_gone "$j"
    live=$(expand_hostlist "$nodes" | paste -sd,)
    local -a lv=(${live//,/ })
    local ll ls; ll=$(count_leaves "${lv[@]}"); ls=$(count_spines "${lv[@]}")
    [ "$st" = RUNNING ] && [ "$live" = "$want" ] && same=$((same + 1)) || list+="$name n=$n: slurm=$live ($st) topoplace place=$want"$'\n'
    [ "$st" = RUNNING ] && [ "$ll" = "$lbg" ] && at_bound=$((at_bound + 1))
    echo "     $name n=$n: allocated $live ($ll leaves, $ls spines; bound $lbg) | topoplace place: $want"
  done
}
run_state issue "3 3 2 3 0 0 0 0 2 1 2 1 4 2 3 3" 4 3 6 8
RANDOM=31
for s in 1 2 3 4; do
  f=""; for _ in $(seq 16); do f+="$((RANDOM % 5)) "; done
  run_state "random$s" "$f" 2 3 5 7
done
clear_jobs 150
[ "$same" = "$probes" ] && ok "every probe ($probes) ran on exactly the nodes topoplace place chose on the state at its start" \
  || bad "probes on topoplace's choice: $same of $probes" "$list"
[ "$at_bound" = "$probes" ] && ok "every probe at the leaf-group bound ($at_bound of $probes)" || bad "probes at the leaf-group bound: $at_bound of $probes"
# every job record the plugin read passed its layout check (spank/topology/LAYOUT.md); a
# shim build (a release whose sources we do not hold) runs the installed topology/tree
check "every job record read as this Slurm build's (no layout-check failure in the log)" \
  bash -c "! grep -q 'does not read as a job record' '$CTLD_LOG'"
if grep -q 'no topology_tree.so beside this plugin' "$SO"; then
  check "shim build: topology/tree is the installed release's own topology_tree.so" \
    grep -q "topology/topoplace: topology/tree is Slurm $(slurmctld -V | awk '{print $2}')'s own .*/topology_tree.so" "$CTLD_LOG"
fi

# ---------------------------------------------------------------- 4. the SPANK plugin: no stale plan
if [ -n "$SPANK_SO" ] && [ -f "$SPANK_SO" ]; then
  cp "$SPANK_SO" "$WORK/topoplace.so"; chmod 755 "$WORK/topoplace.so"
  cp "$SNAP" "$WORK/spank-snap.json"   # section 3 breaks $ETC/topoplace.json on purpose
  echo "required $WORK/topoplace.so snapshot=$WORK/spank-snap.json default=pack on_error=warn" > "$ETC/plugstack.conf"
  cp "$HERE/../../slurm-conf/lua/job_submit.lua" "$ETC/job_submit.lua"
  printf 'JobSubmitPlugins=lua\n' >> "$ETC/slurm.conf"
  scontrol reconfigure
  for _ in $(seq 50); do grep -q 'JobSubmitPlugins *= lua' <<<"$(scontrol show config 2>/dev/null)" && break; sleep 0.2; done
  lab_refresh_pids
  clear_jobs 150
  # a busy state where a plan made now would be stale: 3 leaves half taken
  bj=$(sub -N 6 -w "n001,n002,n005,n006,n009,n010")
  IFS='|' read -r st _ <<<"$(wait_running "$bj" 30)"
  scontrol show nodes --oneliner > "$WORK/state.txt"
  "$TOPOPLACE" place "$SNAP" --nodes 5 --state "$WORK/state.txt" --policy cost --json > "$WORK/cp.json" 2>"$WORK/err" || true
  want=$(json "$WORK/cp.json" "','.join(d.get('hosts', []))")
  j=$(sbatch --parsable --exclusive -N 5 --topo=pack --topo-explain -o /dev/null --wrap "exec sleep $LAB_JOB_SLEEP" 2>"$WORK/explain")
  IFS='|' read -r st nodes _ <<<"$(wait_running "$j" 20)"
  live=$(expand_hostlist "$nodes" | paste -sd,)
  info=$(scontrol show job "$j")
  check "sbatch --topo=pack --topo-explain: 'chosen when Slurm starts the job' (plugstack decide=auto saw TopologyPlugin=topology/topoplace)" \
    grep -q 'the nodes are chosen when Slurm starts the job' "$WORK/explain"
  # (scontrol prints Prefer= and Switches= only when set: src/scontrol/info_job.c)
  check "no plan from submission time: the job has no Prefer, no Features and no switch count" \
    bash -c "! grep -q 'Prefer=' <<<\"\$1\" && grep -q 'Features=(null)' <<<\"\$1\" && ! grep -q 'Switches=' <<<\"\$1\"" _ "$info"
  check "job_submit.lua: 'nodes chosen at start by topology/topoplace', nothing applied" \
    grep -q 'lua: topoplace: uid 0 pack: nodes chosen at start by topology/topoplace' "$CTLD_LOG"
  [ "$st" = RUNNING ] && [ "$live" = "$want" ] && ok "the job ran on topoplace's choice at its start: $live" \
    || bad "the job on topoplace's choice at its start" "slurm=$live ($st) topoplace place=$want"
  scancel "$j" "$bj" 2>/dev/null; wait_gone "$j"; wait_gone "$bj"
  # the submission-time check stays: one leaf group (4 hosts) can never hold 6
  out=$(sbatch --parsable --exclusive -N 6 --topo-max-tier=0 -o /dev/null --wrap "exec sleep 1" 2>&1); rc=$?
  [ "$rc" != 0 ] && grep -q 'can never be placed' <<<"$out" && ok "a request that can never fit is still refused at submission: $(grep -o 'can never be placed.*' <<<"$out" | cut -c1-100)" \
    || bad "never-fit refused at submission" "rc=$rc $out"
else
  echo "SKIP section 4: no SPANK plugin given"
fi

# ---------------------------------------------------------------- 3. fall back, once
wait_all_idle() { for _ in $(seq 150); do [ "$(sinfo -h -N -t idle -o %N 2>/dev/null | sort -u | wc -l)" = 64 ] && break; sleep 0.2; done; }
restart_ctld() { # the lab's slurmctld, started again on the same state
  lab_ctld_stop || bad "slurmctld stopped before its restart" "still running: $(lab_marked_pids 'slurmctld*' | paste -sd' ')"
  : > "$CTLD_LOG"
  env "$LAB_TAG" slurmctld -f "$SLURM_CONF"
  for _ in $(seq 100); do grep -q 'is UP' <<<"$(scontrol ping 2>/dev/null)" && break; sleep 0.1; done
  lab_refresh_pids
  wait_all_idle
}
runs_two_jobs() { # two 4-node jobs run and end
  local a b sa sb
  a=$(sub -N 4); b=$(sub -N 4)
  IFS='|' read -r sa _ <<<"$(wait_running "$a" 30)"; IFS='|' read -r sb _ <<<"$(wait_running "$b" 30)"
  scancel "$a" "$b" 2>/dev/null; wait_gone "$a"; wait_gone "$b"
  [ "$sa" = RUNNING ] && [ "$sb" = RUNNING ]
}
fallback_case() { # LABEL PATTERN: slurmctld up, jobs run, PATTERN logged exactly once
  local label=$1 pat=$2
  restart_ctld
  if ! grep -q 'is UP' <<<"$(scontrol ping 2>/dev/null)"; then bad "$label: slurmctld up" "$(tail -5 "$CTLD_LOG")"; return; fi
  runs_two_jobs || { bad "$label: jobs run under topology/tree" "$(tail -5 "$CTLD_LOG")"; return; }
  runs_two_jobs
  local c; c=$(grep -c "$pat" "$CTLD_LOG")
  [ "$c" = 1 ] && ok "$label: slurmctld up, jobs placed by topology/tree, said once: $(grep -m1 "$pat" "$CTLD_LOG" | grep -o "topology/topoplace: .*" | cut -c1-150)" \
    || bad "$label: said exactly once (seen $c)" "$(grep topoplace "$CTLD_LOG" | head -5)"
}
mv "$ETC/topoplace.json" "$WORK/saved.json"
fallback_case "missing snapshot" "topology/topoplace: snapshot: .*topology/tree decides every job"
head -c 2000 "$WORK/saved.json" > "$ETC/topoplace.json"
fallback_case "corrupt snapshot" "topology/topoplace: snapshot: .*topology/tree decides every job"
sed 's/names: n\[/names: x[/' "$SPEC" > "$WORK/foreign.yaml"
"$TOPOPLACE" discover --spec "$WORK/foreign.yaml" -o "$ETC/topoplace.json" >/dev/null 2>&1
fallback_case "snapshot naming nodes slurm.conf does not define" "hosts that slurm.conf does not define.*topology/tree decides every job"
cp "$WORK/saved.json" "$ETC/topoplace.json"
echo "policy=fastest" > "$ETC/topoplace-topology.conf"
fallback_case "a bad line in topoplace-topology.conf" "topoplace-topology.conf:1: policy=fastest"
printf 'health=/nonexistent/topoplace-health\n' > "$ETC/topoplace-topology.conf"
restart_ctld
runs_two_jobs && [ "$(loaded)" = 1 ] && ok "a health store that does not exist yet: snapshot loaded, jobs placed" \
  || bad "missing health store" "$(grep topoplace "$CTLD_LOG" | head -5)"
# reconfigure onto a new snapshot: the topo policy this time, and the log says so; trace=yes:
# one line per eval_nodes call with the offer, the choice and what Slurm allocated
printf 'policy=topo\ntrace=yes\n' > "$ETC/topoplace-topology.conf"
scontrol reconfigure
for _ in $(seq 150); do grep -q 'policy topo' "$CTLD_LOG" && break; sleep 0.2; done
lab_refresh_pids
grep -q 'topology/topoplace: snapshot .*(64 hosts, policy topo)' "$CTLD_LOG" && runs_two_jobs \
  && ok "scontrol reconfigure: the new configuration loaded (policy topo), jobs placed" \
  || bad "scontrol reconfigure onto a new configuration" "$(grep topoplace "$CTLD_LOG" | tail -5)"
tj=$(sub -N 5)
IFS='|' read -r st nodes _ <<<"$(wait_running "$tj" 20)"
tl=$(grep -E "topology/topoplace: trace JobId=$tj offer=[^ ]+ chose=[^ ]+ allocated=[^ ]+" "$CTLD_LOG" | tail -1)
talloc=$(grep -oE 'allocated=[^ ]+' <<<"$tl" | cut -d= -f2); tchose=$(grep -oE 'chose=[^ ]+' <<<"$tl" | cut -d= -f2)
scancel "$tj" 2>/dev/null; wait_gone "$tj"
[ "$st" = RUNNING ] && [ -n "$talloc" ] && [ "$(expand_hostlist "$talloc" | paste -sd,)" = "$(expand_hostlist "$nodes" | paste -sd,)" ] \
  && [ "$talloc" = "$tchose" ] \
  && ok "trace=yes: the job's eval_nodes line names the offer, the choice and the allocation (= the job's $nodes): $(cut -c1-160 <<<"${tl#*topology/topoplace: }")" \
  || bad "trace=yes: a line per eval_nodes call" "job $tj $st on $nodes; $tl"
# a burst of 1,000 jobs: slurmctld keeps answering, every eval logged nothing per job
clear_jobs 150
wait_all_idle
arr=$(sbatch --parsable --array=0-999 --exclusive -N 3 -o /dev/null --wrap "exec sleep 2")
t0=$(date +%s)
ping_ok=0
for _ in $(seq 10); do grep -q 'is UP' <<<"$(scontrol ping 2>/dev/null)" && ping_ok=$((ping_ok + 1)); sleep 1; done
done_n=$(grep -c "JobState=COMPLETED" "$LAB_DIR/log/jobcomp.txt" 2>/dev/null || true)
scancel "$arr" 2>/dev/null; clear_jobs 300
errs=$(grep -Ei 'error|fatal' "$CTLD_LOG" | grep -Evi "$LAB_NOISE" | grep -v 'topology/topoplace' | head -5)
[ "$ping_ok" = 10 ] && grep -q 'is UP' <<<"$(scontrol ping)" && [ -z "$errs" ] \
  && ok "1,000-job array: slurmctld answered every second for 10 s ($done_n array jobs finished meanwhile), no error logged" \
  || bad "1,000-job burst" "ping $ping_ok/10; $errs"
# backfill's look-ahead (lookahead=, docs/topology-plugin.md): n003-n064 run one job (time
# limit 3 min); B (8 nodes) waits for it; C (2 nodes, lower priority, a 10-minute limit: it
# would still run when B starts) can only start now if B's reservation leaves n001-n002 alone.
# By default (holes) the reservation keeps off n001-n002, idle nodes of a part-used leaf group,
# as good on n005-n012, and C starts at once; with
# lookahead=off the reservation takes the lowest-numbered groups, n001-n008, and C waits.
reloads() { grep -c 'topology/topoplace: snapshot .*(64 hosts' "$CTLD_LOG"; }
lookahead_case() { # CONF-LINES -> "C's state|C's nodes|B's look-ahead choice"
  local before; before=$(reloads)
  printf '%btrace=yes\n' "$1" > "$ETC/topoplace-topology.conf"
  scontrol reconfigure
  for _ in $(seq 150); do [ "$(reloads)" -gt "$before" ] && break; sleep 0.2; done
  lab_refresh_pids
  clear_jobs 150
  wait_all_idle
  local f b c st nodes line
  f=$(sbatch --parsable --exclusive -o /dev/null -t 3 -w "n[003-064]" --wrap "exec sleep 600")
  wait_running "$f" 30 >/dev/null
  b=$(sbatch --parsable --exclusive -o /dev/null -t 1 -N 8 --wrap "exec sleep 600")
  c=$(sbatch --parsable --exclusive -o /dev/null -t 10 -N 2 --nice=100 --wrap "exec sleep 600")
  IFS='|' read -r st nodes _ <<<"$(wait_running "$c" 12)"
  # B's first look-ahead decision (the reservation backfill made while C could start); later
  # calls, with C running, may rightly choose otherwise
  line=$(grep -E "topology/topoplace: trace JobId=$b offer=n\[001-064\] chose=n" "$CTLD_LOG" | head -1)
  clear_jobs 150
  echo "$st|$nodes|$(grep -oE 'chose=[^ ]+' <<<"$line" | cut -d= -f2)"
}
if grep -q '^SchedulerParameters=' "$ETC/slurm.conf"; then
  sed -i 's/^SchedulerParameters=.*/&,bf_interval=2/' "$ETC/slurm.conf"
else
  echo 'SchedulerParameters=bf_interval=2' >> "$ETC/slurm.conf"
fi
IFS='|' read -r cst cnodes bchose <<<"$(lookahead_case '')"
IFS='|' read -r ost onodes ochose <<<"$(lookahead_case 'lookahead=off\n')"
low() { expand_hostlist "$1" | grep -cE '^n00[12]$'; }
[ "$cst" = RUNNING ] && [ -n "$bchose" ] && [ "$(low "$bchose")" = 0 ] \
  && ok "backfill's look-ahead (lookahead=holes, the default): B's reservation $bchose left n001-n002 to C, which started at once on $cnodes" \
  || bad "backfill's look-ahead leaves idle nodes to a job that can start now" "C $cst on $cnodes; B's look-ahead choice '$bchose'"
[ "$ost" != RUNNING ] && [ -n "$ochose" ] && [ "$(low "$ochose")" = 2 ] \
  && ok "lookahead=off (the control): B's reservation $ochose held n001-n002 and C waited ($ost)" \
  || bad "lookahead=off: the reservation as on any offer" "C $ost on $onodes; B's look-ahead choice '$ochose'"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
