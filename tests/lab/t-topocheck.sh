#!/usr/bin/env bash
# `topoplace slurm-conf --check` against a live slurmctld of this release (issue 28):
# for each topology file of tests/fixtures/slurm-conf/check/ (ours, each a structure
# slurmctld refuses or misreads) and some of the files `topoplace slurm-conf` writes
# (tests/golden/slurm-conf/) plus one of Slurm's own test files, run the checker for this
# release and start a private slurmctld (-D -i, own munge, own port, no slurmd) on the same
# slurm.conf + topology file, then compare:
#   - a file the checker passes (exit 0) must start slurmctld ('scontrol ping' UP);
#   - a file with a fatal finding must make slurmctld exit;
#   - a file with only misplaces/warning findings must start slurmctld too.
# One "TABLE|file|release|checker|slurmctld" line per file is printed for docs/slurm-conf.md.
#   t-topocheck.sh TOPOPLACE     (run where the release is installed: tests/lab/release.sh
#                                 REL run bash tests/lab/t-topocheck.sh /opt/topoplace-host/topoplace,
#                                 or on this host for 22.05)
# Knobs: TOPOCHECK_PORT (default 7911/7912/7913 for 22.05/24.11/26.05), TOPOCHECK_ONLY
# (a glob of file names). Exit 77 (skip) without root or an installed slurmctld.
set -uo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
TP="${1:?usage: t-topocheck.sh TOPOPLACE}"
FIX="$HERE/../fixtures/slurm-conf/check"
GOLD="$HERE/../golden/slurm-conf"
ANY="$HERE/../fixtures/slurm-topology"

[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (slurmctld as SlurmUser=root)"; exit 77; }
command -v slurmctld >/dev/null || { echo "SKIP: no slurmctld installed"; exit 77; }
command -v munged >/dev/null || { echo "SKIP: no munged installed"; exit 77; }
VER=$(slurmctld -V 2>/dev/null | awk '{print $2}')
REL=${VER%.*}
case "$REL" in 22.05) dport=7911 ;; 24.11) dport=7912 ;; 26.05) dport=7913 ;;
  *) echo "SKIP: slurmctld is '$VER', the checker knows 22.05, 24.11, 26.05"; exit 77 ;; esac
PORT="${TOPOCHECK_PORT:-$dport}"
W="/tmp/tp-topocheck-$REL"
TAG="TOPOPLACE_TOPOCHECK_TAG=$W"

pass=0; fail=0
ok()  { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ $# -gt 1 ] && printf '%s\n' "$2" | sed 's/^/     /' | head -20; }

rm -rf "$W"; mkdir -p "$W"/{etc,log,state,run,munge}
ours() { local p=$1; grep -qzx -- "$TAG" "/proc/$p/environ" 2>/dev/null; }
stop_pid() {
  local p=$1
  ours "$p" || return 0
  kill "$p" 2>/dev/null
  for _ in $(seq 50); do ours "$p" || return 0; sleep 0.1; done
  kill -9 "$p" 2>/dev/null
}
cleanup() {
  [ -n "${CTLD:-}" ] && stop_pid "$CTLD"
  [ -s "$W/run/munged.pid" ] && stop_pid "$(cat "$W/run/munged.pid")"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

dd if=/dev/urandom of="$W/munge/munge.key" bs=1024 count=1 status=none; chmod 400 "$W/munge/munge.key"
env "$TAG" munged --force --key-file="$W/munge/munge.key" --socket="$W/munge/munge.socket" \
  --pid-file="$W/run/munged.pid" --log-file="$W/log/munged.log" --seed-file="$W/munge/seed"
for _ in $(seq 50); do [ -s "$W/run/munged.pid" ] && break; sleep 0.1; done

# slurm_conf NODE_LINES PLUGIN: the slurm.conf both the checker and slurmctld read
slurm_conf() {
  cat > "$W/etc/slurm.conf" <<C
ClusterName=tpcheck
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$PORT
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$W/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$W/state
SlurmctldPidFile=$W/run/slurmctld.pid
SlurmctldLogFile=$W/log/slurmctld.log
SlurmctldDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SwitchType=switch/none
MpiDefault=none
MailProg=/bin/true
C
  [ -n "$2" ] && echo "TopologyPlugin=$2" >> "$W/etc/slurm.conf"
  printf '%s\n' "$1" >> "$W/etc/slurm.conf"
  echo "PartitionName=all Nodes=ALL Default=YES State=UP" >> "$W/etc/slurm.conf"
}

# start_ctld -> 0 when slurmctld answers ping, 1 when it exited (or never answered)
start_ctld() {
  rm -rf "$W/state"/*; : > "$W/log/slurmctld.log"
  env "$TAG" SLURM_CONF="$W/etc/slurm.conf" setsid slurmctld -D -i -f "$W/etc/slurm.conf" \
    > "$W/log/ctld.out" 2>&1 < /dev/null &
  CTLD=$!
  local n=0 max=60
  while [ $n -lt $max ]; do
    n=$((n + 1))
    if ! kill -0 "$CTLD" 2>/dev/null; then wait "$CTLD" 2>/dev/null; CTLD=""; return 1; fi
    if SLURM_CONF="$W/etc/slurm.conf" timeout 5 scontrol ping 2>/dev/null | grep -q 'is UP'; then return 0; fi
    # Slurm's config parser retries a file it cannot stat for 60 s before it gives up: wait it out
    [ $max = 60 ] && grep -q 'retrying in 1sec up to 60sec' "$W/log/slurmctld.log" 2>/dev/null && max=400
    sleep 0.2
  done
  echo "     (slurmctld still running without answering after $((max / 5)) s: counted as not started)"
  return 1
}
stop_ctld() { [ -n "${CTLD:-}" ] && stop_pid "$CTLD"; wait "${CTLD:-}" 2>/dev/null; CTLD=""; }
log_line() {  # what slurmctld logged about the topology: its fatal line, else the first topology line
  local all; all=$(cat "$W/log/slurmctld.log" "$W/log/ctld.out" 2>/dev/null | sed 's/^\[[^]]*\] //')
  { grep -E '^fatal' <<<"$all"; grep -Ei 'fatal|error|warning' <<<"$all" |
      grep -Ei 'switch|block|topolog|hostname|range|parse|yaml|tree'; } | head -1 | cut -c1-160
}

# node lines for a file: the fixtures use n[01-08]; other files define the nodes they list
nodes_for() {
  local f=$1
  case "$f" in "$FIX"/*) grep '^NodeName' "$FIX/slurm.conf"; return ;; esac
  local lists
  lists=$(grep -oE '(Nodes=|nodes: *)[^ ]+' "$f" | sed -E 's/^(Nodes=|nodes: *)//; s/^"//; s/"$//')
  local all
  all=$(for l in $lists; do SLURM_CONF="$W/etc/slurm.conf" scontrol show hostnames "$l"; done | sort -u | paste -sd, -)
  echo "NodeName=$(SLURM_CONF="$W/etc/slurm.conf" scontrol show hostlist "$all") CPUs=1 State=UNKNOWN"
}

check_one() {
  local f=$1 name; name=$(basename "$f")
  case "$f" in "$GOLD"/*) name="golden/$name" ;; "$ANY"/*) name="slurm-topology/$name" ;; esac
  local yaml=0 plugin=""
  case "$f" in *.yaml|*.yml) yaml=1 ;; esac
  rm -f "$W/etc/topology.conf" "$W/etc/topology.yaml"
  if [ $yaml = 1 ]; then
    cp "$f" "$W/etc/topology.yaml"
  else
    cp "$f" "$W/etc/topology.conf"
    if grep -Eqi '^[[:space:]]*(BlockName|BlockSizes)=' "$f"; then plugin=topology/block; else plugin=topology/tree; fi
  fi
  slurm_conf "NodeName=placeholder CPUs=1 State=FUTURE" ""   # for scontrol show hostnames
  # nodes resolve to this host (no slurmd: slurmctld only looks their address up)
  slurm_conf "$(nodes_for "$f" | sed 's/$/ NodeHostname=localhost NodeAddr=127.0.0.1/')" "$plugin"
  local out rc
  out=$("$TP" slurm-conf --check "$f" --slurm-version "$REL" --slurm-conf "$W/etc/slurm.conf" 2>&1); rc=$?
  local verdict rules
  rules=$(grep -oE ": $REL: (fatal|misplaces|warning): [a-z0-9-]+" <<<"$out" | awk '{print $3, $4}' | sort | uniq -c |
    awk '{printf "%s%s %s%s", sep, $2, $3, ($1 > 1 ? " x" $1 : ""); sep=", "}')
  if [ $rc = 0 ]; then verdict=clean
  elif grep -q ": $REL: fatal: " <<<"$out"; then verdict=fatal
  elif [ $rc = 65 ]; then verdict=findings
  else bad "$name: checker exit $rc" "$out"; return; fi
  local up=0; start_ctld && up=1
  local seen; seen=$(log_line)
  stop_ctld
  local live
  if [ $up = 1 ]; then live="starts${seen:+ (logs: $seen)}"; else live="exits${seen:+ ($seen)}"; fi
  echo "TABLE|$name|$REL|${rules:-clean}|$live"
  case "$verdict:$up" in
    clean:1|findings:1) ok "$name: checker ${rules:-clean}; slurmctld $REL starts" ;;
    fatal:0) ok "$name: checker fatal; slurmctld $REL exits: $seen" ;;
    *) bad "$name: checker says $verdict (${rules:-}) but slurmctld $REL $([ $up = 1 ] && echo starts || echo exits)" \
         "$(grep ": $REL: " <<<"$out"; tail -5 "$W/log/slurmctld.log")" ;;
  esac
}

files=("$FIX"/*.conf "$FIX"/*.yaml
  "$GOLD/two-tier.topology.conf" "$GOLD/psmn-x5-qdr.topology.conf" "$GOLD/gb200-nvl72x4.block.conf"
  "$GOLD/gb200-nvl72x4.topology.yaml" "$GOLD/psmn-x5-qdr.topology.yaml"
  "$ANY/slurm-testsuite-tree-disconnected.topology.conf" "$ANY/slurm-testsuite-block-32.topology.conf"
  "$ANY/psmn-x5-qdr.topology.conf")
for f in "${files[@]}"; do
  [ "$(basename "$f")" = slurm.conf ] && continue
  # shellcheck disable=SC2053
  [ -n "${TOPOCHECK_ONLY:-}" ] && [[ "$(basename "$f")" != $TOPOCHECK_ONLY ]] && continue
  check_one "$f"
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
