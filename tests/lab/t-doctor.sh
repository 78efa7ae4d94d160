#!/usr/bin/env bash
# The README's quick start, followed on a live lab of this Slurm release, and `topoplace doctor`
# on what it set up, then on each part broken the way sites break it (issue 30).
#   t-doctor.sh TOPOPLACE SPANK_SO NODEFEED [TOPOLOGY_SO|-] [OTHER_RELEASE_SO|-]
# 1. The quick start block of README.md (between <!-- quickstart:begin/end -->) is run line by
#    line as written, with these paths mapped into the test's own directory: /etc/slurm/ ->
#    $WORK/etc/, /usr/share/topoplace/ -> the repository's packaged files, the plugin and
#    topoplace-nodefeed -> this release's builds, /var/lib/topoplace/health, /run/topoplace/;
#    `ibnetdiscover > fabric.txt` reads the lab fabric (tests/fixtures/lab/lab-4x4: 16 hosts,
#    4 leaves, 1 spine), `systemctl enable --now topoplace-nodefeed` runs the packaged unit's
#    ExecStart, and step 3 (merging lines into slurm.conf and restarting) is what up.sh does
#    with those files: a 16-node lab of this release. On 24.11+ with TOPOLOGY_SO, step 3 also
#    sets TopologyPlugin=topology/topoplace (the README's "On 24.11 and later").
# 2. topoplace doctor: every check ok, exit 0; the quick start's last line (sbatch --topo=pack)
#    runs a job on one leaf group, with the plugin's decision printed.
# 3. One at a time: plugin line missing, lua not enabled, features missing, features of
#    another snapshot, a snapshot older than the fabric, the health store missing and
#    group-writable, the daemon down and serving another snapshot, the topology plugin of
#    another release (24.11+): doctor exits 1 naming the part and its fix; the fix applied,
#    doctor is all ok again.
# 4. 17 running two-node jobs sharing nodes across two leaf groups of the 16 hosts: the node
#    feed is still used by a submission (issue 32 point 3).
# Prints "N passed, N failed"; exit 77 (skip) without root or Slurm.
set -uo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
SRC="$(cd "$HERE/../.." && pwd)"
TOPOPLACE="${1:?usage: t-doctor.sh TOPOPLACE SPANK_SO NODEFEED [TOPOLOGY_SO|-] [OTHER_RELEASE_SO|-]}"
SO_BUILT="$(readlink -f "${2:?}")"
FEED_BUILT="$(readlink -f "${3:?}")"
TOPO_SO="${4:--}"; [ "$TOPO_SO" != - ] && TOPO_SO="$(readlink -f "$TOPO_SO")"
OTHER_SO="${5:--}"; [ "$OTHER_SO" != - ] && OTHER_SO="$(readlink -f "$OTHER_SO")"
export LAB_TIMEOUT="${LAB_TIMEOUT:-180}"
LAB_JOB_SLEEP=600
. "$HERE/lib.sh"
lab_init doctor /tmp/tplab-doctor 16977 18300 16 slurmctld slurmd munged scontrol sbatch
if [ -e "$TOPOPLACE" ]; then TOPOPLACE="$(readlink -f "$TOPOPLACE")"; else TOPOPLACE="$(command -v "$TOPOPLACE")"; fi
[ -f /usr/lib/x86_64-linux-gnu/slurm-wlm/job_submit_lua.so ] || { echo "SKIP: job_submit_lua.so not installed"; exit 77; }
REL=$(slurmctld -V | awk '{split($2, v, "."); print v[1] "." v[2]}')
chmod 755 "$WORK"
mkdir -p "$WORK/etc/plugstack.conf.d" "$WORK/share" "$WORK/bin" "$WORK/run" "$WORK/qs"
cp "$SO_BUILT" "$WORK/topoplace.so"; cp "$FEED_BUILT" "$WORK/topoplace-nodefeed"
install -d -m 0755 "$WORK/health"   # the package makes /var/lib/topoplace/health (cmake/Packaging.cmake)
cp "$SRC/slurm-conf/lua/job_submit.lua" "$SRC/slurm-conf/snippets/slurm.conf.topoplace" "$WORK/share/"
ln -s "$TOPOPLACE" "$WORK/bin/topoplace"
export PATH="$WORK/bin:$PATH"
printf '#!/bin/sh\nexec sleep %s\n' "$LAB_JOB_SLEEP" > "$WORK/qs/train.sh"
FEEDPID=""
stop_feed() { [ -n "$FEEDPID" ] && kill "$FEEDPID" 2>/dev/null && wait "$FEEDPID" 2>/dev/null; FEEDPID=""; }
trap 'stop_feed; lab_cleanup' EXIT

# ---------------------------------------------------------------- 1. the quick start
BLOCK=$(sed -n '/<!-- quickstart:begin -->/,/<!-- quickstart:end -->/p' "$SRC/README.md" | sed '/^```/d; /^<!--/d')
[ -n "$BLOCK" ] || { bad "README.md has a quick start block between <!-- quickstart:begin/end -->"; lab_abort; }
map() {
  sed -e "s|/etc/slurm/|$WORK/etc/|g" -e "s|/usr/share/topoplace/|$WORK/share/|g" \
      -e "s|/usr/lib/x86_64-linux-gnu/slurm-wlm/topoplace.so|$WORK/topoplace.so|g" \
      -e "s|/usr/sbin/topoplace-nodefeed|$WORK/topoplace-nodefeed|g" \
      -e "s|/var/lib/topoplace/health|$WORK/health|g" -e "s|/run/topoplace/|$WORK/run/|g"
}
EXECSTART=$(sed -n 's/^ExecStart=//p' "$SRC/packaging/topoplace-nodefeed.service" | map)
run_line() { # one quick-start line, as written (paths mapped)
  local l; l=$(map <<<"$1")
  case "$1" in
    "ibnetdiscover > fabric.txt") l="cp '$HERE/../fixtures/lab/lab-4x4.ibnetdiscover.txt' fabric.txt" ;;
    "nvidia-smi topo -m > topo-m.txt") l="cp '$HERE/../fixtures/lab/lab-8gpu-2nic.topo-m.txt' topo-m.txt" ;;
    "systemctl enable --now topoplace-nodefeed")
      $EXECSTART > "$WORK/feed.log" 2>&1 & FEEDPID=$!
      for _ in $(seq 50); do [ -S "$WORK/run/service.sock" ] && break; sleep 0.2; done
      [ -S "$WORK/run/service.sock" ] && { ok "quick start: $1 (the unit's ExecStart)"; return 0; }
      bad "quick start: $1" "$(cat "$WORK/feed.log")"; return 1 ;;
  esac
  local out
  if out=$(cd "$WORK/qs" && bash -c "$l" 2>&1); then ok "quick start: $1"; QS_OUT=$out; return 0; fi
  bad "quick start: $1" "$out"; return 1
}
STEP=0; LAST=""
while IFS= read -r line; do
  case "$line" in
    "# "[0-9]*) STEP=${line:2:1}; continue ;;
    "#"*|"") continue ;;
  esac
  if [ "$STEP" -ge 4 ] && [ -z "${LAB_IS_UP:-}" ]; then
    # step 3 of the README (slurm.conf lines, restart): a lab of this release from those files
    printf 'include %s/etc/plugstack.conf.d/*.conf\n' "$WORK" > "$WORK/etc/plugstack.conf"
    knobs=(LAB_TOPOLOGY_FILE="$WORK/etc/topology.conf" LAB_FEATURES_FILE="$WORK/etc/topoplace-features.conf"
           LAB_PLUGSTACK_FILE="$WORK/etc/plugstack.conf" LAB_ETC_FILES="$WORK/etc/job_submit.lua"
           LAB_SCHED_PARAMS="batch_sched_delay=0,nohold_on_prolog_fail" LAB_EXTRA_CONF="JobSubmitPlugins=lua")
    if [ "$TOPO_SO" != - ]; then
      PLUGDIR=$(dirname "$(find /usr/lib -name topology_tree.so 2>/dev/null | head -1)")
      mkdir -p "$WORK/plugins"; cp "$TOPO_SO" "$WORK/plugins/topology_topoplace.so"
      knobs+=(LAB_TOPOLOGY=topoplace LAB_EXTRA_CONF="JobSubmitPlugins=lua
PluginDir=$PLUGDIR:$WORK/plugins" LAB_ETC_FILES="$WORK/etc/job_submit.lua $WORK/etc/topoplace.json")
    fi
    lab_up "quick start step 3: slurm.conf with its lines, 16-node Slurm $REL lab$([ "$TOPO_SO" != - ] && echo ', TopologyPlugin=topology/topoplace')" "${knobs[@]}"
    LAB_IS_UP=1
  fi
  LAST=$line
  run_line "$line" || lab_abort
done <<<"$BLOCK"
case "$LAST" in sbatch*) ;; *) bad "the quick start ends with an sbatch (last line: $LAST)"; lab_abort ;; esac
JOB=$(grep -o 'Submitted batch job [0-9]*' <<<"$QS_OUT" | awk '{print $4}')
leaf_groups "$WORK/etc/topoplace-features.conf"
st=$(wait_running "$JOB" 30)
nodes=$(cut -d'|' -f2 <<<"$st")
if grep -q '^topoplace: ' <<<"$QS_OUT" && [ "${st%%|*}" = RUNNING ] && [ "$(groups_of "$nodes" | tr ',' '\n' | wc -l)" = 1 ]; then
  ok "quick start's job placed by topoplace: $(grep '^topoplace: ' <<<"$QS_OUT" | head -1 | cut -c1-110) -> ran on $nodes ($(groups_of "$nodes"))"
else
  bad "quick start's job placed by topoplace" "sbatch: $QS_OUT
squeue: $st"
fi
clear_jobs

# ---------------------------------------------------------------- 2. doctor on the set-up lab
DOC="$WORK/doctor.out"
doctor() { "$TOPOPLACE" doctor "$@" > "$DOC" 2>&1; }
all_ok() { # LABEL
  if doctor; then ok "$1: doctor exit 0, $(grep -c '^ok ' "$DOC") checks ok"; else bad "$1: doctor exit 0" "$(cat "$DOC")"; fi
}
flags() { # LABEL CHECK PATTERN: doctor exit 1, CHECK failed with PATTERN and a fix
  local rc=0; doctor || rc=$?
  if [ "$rc" = 1 ] && grep -Eq "^FAIL $2 .*$3" "$DOC" && grep -A1 "^FAIL $2 " "$DOC" | grep -q ' fix: '; then
    ok "$1: doctor exit 1, '$(grep "^FAIL $2 " "$DOC" | head -1 | cut -c1-150)'"
  else bad "$1: doctor exit 1 naming $2 /$3/ with a fix (exit $rc)" "$(cat "$DOC")"; fi
}
fix_of() { grep -A1 "^FAIL $1 " "$DOC" | sed -n 's/^ *fix: //p' | head -1; }
all_ok "the quick start's lab"
cp "$DOC" "$WORK/doctor-ok.txt"
"$TOPOPLACE" doctor --json > "$WORK/doctor.json" 2>&1
check "doctor --json: ok true, every check ok or skip" python3 -c "
import json,sys; d=json.load(open('$WORK/doctor.json')); assert d['ok'] is True, d
assert all(c['status'] in ('ok','skip') for c in d['checks']), d"
sed 's/^/     /' "$WORK/doctor-ok.txt"

reconf() { # scontrol reconfigure, then wait for slurmctld and 16 idle nodes
  scontrol reconfigure >/dev/null 2>&1
  for _ in $(seq 150); do
    [ "$(sinfo -h -N -t idle -o %N 2>/dev/null | sort -u | wc -l)" = 16 ] && break; sleep 0.2
  done
  lab_refresh_pids
}

# ---------------------------------------------------------------- 3. one part broken at a time
PS_LINE="$WORK/etc/plugstack.conf.d/topoplace.conf"
mv "$PS_LINE" "$WORK/topoplace.conf.away"
flags "plugin line missing" plugstack "no topoplace.so line"
grep -q '^FAIL sbatch .*no --topo' "$DOC" && ok "plugin line missing: sbatch check says sbatch has no --topo" || bad "sbatch check" "$(cat "$DOC")"
mv "$WORK/topoplace.conf.away" "$PS_LINE"
all_ok "plugin line back"

CONF="$LAB_DIR/etc/slurm.conf"
sed -i '/^JobSubmitPlugins=lua$/d' "$CONF"; reconf
flags "lua not enabled" job_submit "without lua"
fix=$(fix_of job_submit)
grep -q "add 'JobSubmitPlugins=lua' to $CONF" <<<"$fix" && ok "lua fix names $CONF" || bad "lua fix names $CONF" "$fix"
echo "JobSubmitPlugins=lua" >> "$CONF"; reconf
all_ok "JobSubmitPlugins=lua back (the fix applied)"

NODES_CONF="$LAB_DIR/etc/nodes.conf"   # up.sh's NodeName lines (included by slurm.conf)
cp "$NODES_CONF" "$WORK/nodes.conf.good"
sed -i -E 's/ Features=[^ ]*//' "$NODES_CONF"; reconf
flags "features missing from the NodeName lines" features "have no lg_/sp_ features"
cp "$WORK/nodes.conf.good" "$NODES_CONF"; reconf
all_ok "features merged back, scontrol reconfigure (the fix applied)"

# features of another snapshot: the leaf groups of the lab's nodes rotated by one leaf
python3 - "$NODES_CONF" <<'PY'
import re, sys
p = sys.argv[1]; s = open(p).read()
s = re.sub(r'lg_([A-Za-z_]*?)(\d+)', lambda m: 'lg_%s%0*d' % (m.group(1), len(m.group(2)), int(m.group(2)) % 4 + 1), s)
open(p, 'w').write(s)
PY
reconf
flags "features of another snapshot" features "features of another snapshot"
cp "$WORK/nodes.conf.good" "$NODES_CONF"; reconf
all_ok "this snapshot's features back (the fix applied)"

# a snapshot older than the fabric: discovered before the 4th leaf (n013-n016) was cabled
SNAP="$WORK/etc/topoplace.json"
cp -p "$SNAP" "$WORK/snapshot.good"
"$TOPOPLACE" discover --spec "$HERE/../fixtures/lab/lab-4x4-before-leaf4.spec.yaml" -o "$SNAP" 2>/dev/null
touch -d '-1 day' "$SNAP"
flags "snapshot older than the fabric" fabric "4 of Slurm's 16 GPU nodes are not in .*n013.*older than the cluster"
(cd "$WORK/qs" && map <<<"$(grep -m1 '^topoplace discover' <<<"$BLOCK")" | bash) >/dev/null 2>&1
all_ok "the quick start's discover re-run (the fix applied)"

HEALTH="$WORK/health"
mv "$HEALTH" "$WORK/health.away"
flags "health store missing" health "does not exist"
fix=$(fix_of health); bash -c "$fix" && all_ok "health store: the fix as printed ($fix)"
chmod 0775 "$HEALTH"
flags "health store group-writable" health "group/world writable"
fix=$(fix_of health); bash -c "$fix" && all_ok "health store: the fix as printed ($fix)"

stop_feed
flags "topoplace-nodefeed down" service "does not answer"
$EXECSTART > "$WORK/feed.log" 2>&1 & FEEDPID=$!
for _ in $(seq 50); do [ -S "$WORK/run/service.sock" ] && doctor && break; sleep 0.2; done
all_ok "topoplace-nodefeed restarted"
stop_feed
cp -p "$SNAP" "$WORK/other.json"
${EXECSTART/--snapshot $SNAP/--snapshot $WORK/other.json} > "$WORK/feed.log" 2>&1 & FEEDPID=$!
for _ in $(seq 50); do grep -q 'snapshot' "$WORK/feed.log" 2>/dev/null && [ -S "$WORK/run/service.sock" ] && break; sleep 0.2; done
sleep 0.5
flags "topoplace-nodefeed serving another snapshot" service "places on $WORK/other.json"
stop_feed
$EXECSTART > "$WORK/feed.log" 2>&1 & FEEDPID=$!
for _ in $(seq 50); do [ -S "$WORK/run/service.sock" ] && doctor && break; sleep 0.2; done
all_ok "topoplace-nodefeed with the plugstack's snapshot (the fix applied)"

if [ "$TOPO_SO" != - ] && [ "$OTHER_SO" != - ]; then
  # installed as dpkg does: a new file renamed over the old one (writing into the file that the
  # running slurmctld has mapped would crash it)
  cp "$WORK/plugins/topology_topoplace.so" "$WORK/topology.good"
  cp "$OTHER_SO" "$WORK/plugins/.new.so" && mv "$WORK/plugins/.new.so" "$WORK/plugins/topology_topoplace.so"
  flags "topology plugin of another release" topology-plugin "was built for Slurm"
  cp "$WORK/topology.good" "$WORK/plugins/.new.so" && mv "$WORK/plugins/.new.so" "$WORK/plugins/topology_topoplace.so"
  all_ok "this release's topology plugin back (the fix applied)"
else
  echo "skip topology plugin of another release: TopologyPlugin=topology/topoplace is not built for Slurm $REL here"
fi
# ---------------------------------------------------------------- 4. the feed under shared nodes
# Issue 32 point 3: ordinary load on shared nodes can put more running jobs across a leaf
# group's uplinks than the cluster has hosts (here 17 two-node jobs of one CPU each span leaf
# groups 1 and 2 of a 16-host lab). The feed still carries them (the writer caps a count at the
# host count, the reader clamps) and a submission that reads the feed uses it: no RPC of its own.
clear_jobs
nshare=0
for k in $(seq 17); do
  w='n[004-005]'; [ "$k" = 17 ] && w='n[003,006]'
  sbatch --topo=off -N2 -n2 --ntasks-per-node=1 -c1 -w "$w" -o /dev/null --wrap 'sleep 300' >/dev/null 2>&1 && nshare=$((nshare + 1))
done
for _ in $(seq 100); do [ "$(squeue -h -t R | wc -l)" = 17 ] && break; sleep 0.2; done
nrun=$(squeue -h -t R | wc -l)
# a cost request through the service makes the daemon read the job table (then every second here)
sbatch --topo=pack --topo-explain --hold -N2 -o /dev/null --wrap true >/dev/null 2>&1
sleep 2.5
# decide=submit: under topology/topoplace (24.11+) the plugin would otherwise make no plan, and
# read no feed, at submission
sed -e "s|service=$WORK/run/service.sock|state_feed=$WORK/run/nodes.bin decide=submit|" "$PS_LINE" > "$WORK/feedline.conf"
FEEDCONF="$LAB_DIR/etc/slurm-feed.conf"
printf 'include %s\n' "$WORK/feedline.conf" > "$WORK/plugstack-feed.conf"
sed -e "s|^PlugStackConfig=.*|PlugStackConfig=$WORK/plugstack-feed.conf|" "$LAB_DIR/etc/slurm.conf" > "$FEEDCONF"
sf=$(SLURM_CONF="$FEEDCONF" sbatch --topo=pack --topo-explain --hold -N2 -o /dev/null --wrap true 2>&1)
if [ "$nshare" = 17 ] && [ "$nrun" = 17 ] && grep -q 'nodes [0-9.]* (feed [0-9.]* s)' <<<"$sf" && grep -q 'pack: ' <<<"$sf" \
   && grep -q 'reading the job table' "$WORK/feed.log"; then
  ok "17 running two-node jobs sharing n[003-006] across leaf groups 1-2 of 16 hosts: the feed is used ($(grep -o 'nodes [0-9.]* (feed [0-9.]* s)' <<<"$sf"))"
else bad "the feed with 17 jobs across a group's uplinks on 16 hosts" "submitted $nshare, running $nrun; $sf; $(tail -3 "$WORK/feed.log")"; fi
clear_jobs
ctld_log_clean "slurmctld.log: no error or fatal"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
