#!/usr/bin/env bash
# A measurement, not a test (issue 32 points 4 and 5; figures in docs/results/security.md):
# how fast topoplace-nodefeed's placement service answers an ordinary user's requests
#   (a) while it reads a job table that users have filled (JOBS held jobs, each with a
#       1,000-character name and comment and 4,000-character --output/--error/--input paths:
#       Slurm's own length limits), read every second (--jobs-every 1) and changed every 0.3 s
#       (so each read is the whole table, not slurmctld's "no change");
#   (b) the same, while another uid sends policy=cost bombs (tests/lab/attack.py), with the
#       per-uid budget (the default) and without it (--uid-budget 1000 --uid-burst 60000).
# For each NODEFEED binary given (e.g. one built before a change and one after) it prints one
# line per case: requests answered, median / p99 / max latency (ms), the daemon's peak RSS
# (VmHWM) and how long the job table reads took. 64-node 22.05 lab, 3-level tree; run as root:
#   tests/lab/probe-service.sh TOPOPLACE NODEFEED... [env JOBS=2000 SECONDS_PER_CASE=20]
set -uo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
LIB_SRC="$HERE"
abs() { if [ -e "$1" ]; then readlink -f "$1"; else command -v "$1" || echo "$1"; fi; }
TOPOPLACE="$(abs "${1:?usage: probe-service.sh TOPOPLACE NODEFEED...}")"; shift
FEEDS=(); for f in "$@"; do FEEDS+=("$(abs "$f")"); done
[ ${#FEEDS[@]} -gt 0 ] || { echo "usage: probe-service.sh TOPOPLACE NODEFEED..."; exit 64; }
JOBS="${JOBS:-2000}"
SECS="${SECONDS_PER_CASE:-20}"
. "$HERE/lib.sh"
lab_init probe-service /tmp/tplab-probe 16997 18700 64 slurmctld slurmd sbatch squeue python3 setpriv
FIX="$HERE/../fixtures/lab"
SNAP="$WORK/snapshot.json"
chmod 755 "$WORK"; mkdir -m 755 "$WORK/health"
if [ "${PROBE_4096:-0}" = 1 ]; then
  # the service decides on a 4,096-host model whose first 64 hosts are the lab
  export LAB_NODE_WIDTH=4
  check "snapshot (4,096 hosts)" "$TOPOPLACE" discover --spec "$FIX/probe-4096.spec.yaml" --compiled -o "$SNAP" || lab_abort
  lab_up "lab up (64 nodes of a 4,096-host model)" LAB_SCHED_PARAMS="batch_sched_delay=0"
else
  check "snapshot" "$TOPOPLACE" discover --spec "$FIX/lab-3tier.spec.yaml" \
    --nvidia-smi-topo "$FIX/lab-8gpu-2nic.topo-m.txt" --compiled -o "$SNAP" || lab_abort
  check "topology.conf" "$TOPOPLACE" slurm-conf "$SNAP" --format tree --features "$WORK/features.conf" \
    -o "$WORK/topology.conf" || lab_abort
  lab_up "lab up (64 nodes)" LAB_TOPOLOGY_FILE="$WORK/topology.conf" LAB_FEATURES_FILE="$WORK/features.conf" \
    LAB_SCHED_PARAMS="batch_sched_delay=0"
fi
LAB_JOB_SLEEP=3600
# running jobs across leaf groups (what the job table read is for)
nn() { printf "n%0${LAB_NODE_WIDTH}d" "$1"; }
for p in 1,64 2,50 3,40 4,30; do sub -N2 -w "$(nn "${p%,*}"),$(nn "${p#*,}")" >/dev/null; done
long=$(printf 'x%.0s' $(seq 1000)); path="/tmp/$(printf 'p%.0s' $(seq 3990))"
t0=$(date +%s)
for i in $(seq "$JOBS"); do
  sbatch --hold -J "$long" --comment "$long" -o "$path.o$i" -e "$path.e$i" -i "$path.i$i" --wrap true \
    >/dev/null 2>&1 || { echo "sbatch $i failed: $(sbatch --hold -J "$long" --comment "$long" -o "$path" --wrap true 2>&1)"; break; }
done
echo "submitted $JOBS held jobs in $(( $(date +%s) - t0 )) s"
HELD=$(squeue -h -t PD -o %i | head -1)
nj=$(squeue -h -o %i | wc -l)
tb=$(scontrol show jobs 2>/dev/null | wc -c)
ts=$( { /usr/bin/time -f %e squeue -h -o %i >/dev/null; } 2>&1 )
echo "job table: $nj jobs, 'scontrol show jobs' text $((tb / 1024 / 1024)) MiB, one slurm_load_jobs (squeue) ${ts} s"

ATK=tpprobeatk
id "$ATK" >/dev/null 2>&1 || useradd -M -r -s /usr/sbin/nologin "$ATK"
cp "$HERE/attack.py" "$WORK/attack.py"; chmod 755 "$WORK/attack.py"
cat > "$WORK/client.py" <<'PY'
import socket, sys, time
path, snap, health, secs = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
fields = {"snapshot": snap, "health": health, "nodes": "2", "gpus_per_node": "", "gres": "", "gpus": "",
          "exclusive": "exclusive", "nodelist": "", "exclude": "", "mode": "pack", "max_tier": "-1", "nvl": "0",
          "segment": "0", "wait": "300", "policy": "cost"}
req = ("topoplace-service 1\n" + "".join(f"{k}={v}\n" for k, v in fields.items())).encode()
lat, failed, end = [], 0, time.monotonic() + secs
while time.monotonic() < end:
    t = time.monotonic()
    try:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); s.settimeout(5); s.connect(path)
        s.sendall(req); s.shutdown(socket.SHUT_WR)
        rep = b""
        while (b := s.recv(65536)):
            rep += b
        s.close()
        if b"kind=planned" in rep or b"kind=busy" in rep:
            lat.append((time.monotonic() - t) * 1000)
        else:
            failed += 1
    except OSError:
        failed += 1
    time.sleep(0.02)
lat.sort()
q = lambda p: lat[min(len(lat) - 1, int(p * len(lat)))] if lat else float("nan")
print(f"{len(lat)} answered, {failed} not; median {q(0.5):.1f} ms, p99 {q(0.99):.1f} ms, max {lat[-1] if lat else float('nan'):.1f} ms")
PY

run_case() { # LABEL NODEFEED ATTACK(0|1) DAEMON-ARGS...
  local label=$1 feed=$2 attack=$3; shift 3
  local sock="$WORK/svc.sock" log="$WORK/feed.log" prom="$WORK/feed.prom" apid=""
  rm -f "$sock" "$prom"
  "$feed" --snapshot "$SNAP" -o "$WORK/nodes.bin" --interval 0.5 --socket "$sock" --health "$WORK/health" \
    --jobs-every 1 --metrics "$prom" "$@" > "$log" 2>&1 &
  local fpid=$!
  for _ in $(seq 100); do [ -S "$sock" ] && [ -f "$WORK/nodes.bin" ] && break; sleep 0.1; done
  sleep 2   # the first job table read
  if [ "$attack" = 1 ]; then
    setpriv --reuid="$ATK" --regid="$(id -g "$ATK")" --clear-groups env -i PATH=/usr/bin:/bin \
      /usr/bin/python3 "$WORK/attack.py" "$sock" "$SNAP" "$WORK/health" "$SECS" > "$WORK/attack.log" 2>&1 &
    apid=$!
  fi
  # the table changes all the time (a job's comment updated every 0.3 s), as on a busy
  # cluster: every read is a whole table, not slurmctld's "no change"
  ( while :; do scontrol update jobid="$HELD" comment="c$RANDOM" 2>/dev/null; sleep 0.3; done ) &
  local cpid=$!
  local res; res=$(python3 "$WORK/client.py" "$sock" "$SNAP" "$WORK/health" "$SECS")
  kill "$cpid"; wait "$cpid" 2>/dev/null
  [ -n "$apid" ] && wait "$apid"
  local hwm; hwm=$(awk '/^VmHWM/ {print $2}' "/proc/$fpid/status")
  kill "$fpid"; wait "$fpid" 2>/dev/null
  local reads; reads=$(grep -o '[0-9]* job table reads' "$log")
  local jr; jr=$(awk '$1 == "topoplace_nodefeed_job_read_seconds" {print $2 " s last job read"}' "$prom" 2>/dev/null)
  printf '%-58s %s; daemon VmHWM %d MiB; %s%s\n' "$label" "$res" $((hwm / 1024)) "$reads" "${jr:+; $jr}"
  [ "$attack" = 1 ] && sed 's/^/    /' "$WORK/attack.log"
  grep -i 'error' "$log" | head -3 | sed 's/^/    log: /'
}

for feed in "${FEEDS[@]}"; do
  echo "== $feed"
  run_case "(a) job table read every 1 s" "$feed" 0
  run_case "(b) + cost bombs from another uid, budget on (default)" "$feed" 1
  run_case "(b) + cost bombs from another uid, budget off" "$feed" 1 --uid-budget 1000 --uid-burst 60000
done
clear_jobs 300
echo "$pass passed, $fail failed"
