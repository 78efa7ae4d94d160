# shellcheck shell=bash
# Shared steps of the lab tests t-tree.sh, t-gres.sh, t-health.sh and t-place.sh.
# Source it, then call lab_init (which sources common.sh).
#   lab_init NAME DIR CTLD_PORT SLURMD_PORT_BASE NODES BIN...
#                          the test's knobs (LAB_DIR, LAB_CTLD_PORT, LAB_SLURMD_PORT_BASE
#                          from the environment win), common.sh, lab_require, lab_work
#   lab_require BIN...     skip (exit 77) without root or one of BIN; fail without $TOPOPLACE
#   ok / bad / check       count passed and failed checks ($pass, $fail)
#   lab_abort              print the counts and exit 1
#   lab_work NAME          WORK=/tmp/topoplace-t-NAME.XXXXXX; on exit down.sh + rm -rf WORK
#   lab_up LABEL [VAR=VALUE...]   up.sh (with those knobs) or abort; then cd /tmp
#   ctld_log_clean LABEL [BAD_LABEL]   slurmctld.log has no error/fatal besides LAB_NOISE
#   sub / wait_running / busy / clear_jobs   exclusive sleep jobs, their state, one per node, cancel all
#   leaf_groups FEATURES / groups_of HOSTLIST   lg_* feature of each node, groups of a hostlist
LIB_SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

lab_init() { # NAME DIR CTLD_PORT SLURMD_PORT_BASE NODES BIN...
  local name=$1
  export LAB_DIR="${LAB_DIR:-$2}"
  export LAB_CTLD_PORT="${LAB_CTLD_PORT:-$3}"
  export LAB_SLURMD_PORT_BASE="${LAB_SLURMD_PORT_BASE:-$4}"
  export LAB_MODE=multi LAB_NODES=$5 LAB_GPUS=8 LAB_NODE_PREFIX=n LAB_NODE_WIDTH=3 LAB_TOPOLOGY=tree
  shift 5
  . "$LIB_SRC/common.sh"
  lab_require "$@"
  lab_work "$name"
}

lab_require() {
  if [ "$(id -u)" != 0 ]; then echo "SKIP: the Slurm lab needs root"; exit 77; fi
  local b
  for b in "$@"; do
    command -v "$b" >/dev/null 2>&1 || { echo "SKIP: $b not installed"; exit 77; }
  done
  command -v "$TOPOPLACE" >/dev/null 2>&1 || [ -x "$TOPOPLACE" ] || { echo "FAIL: no topoplace binary '$TOPOPLACE'"; exit 1; }
}

pass=0; fail=0
ok()  { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ $# -gt 1 ] && printf '%s\n' "$2" | sed 's/^/     /' | head -40; return 0; }
check() { # name, command...
  local name=$1; shift
  local out; if out=$("$@" 2>&1); then ok "$name"; else bad "$name" "$out"; return 1; fi
}
lab_abort() { echo "$pass passed, $fail failed"; exit 1; }

lab_cleanup() {
  "$LIB_SRC/down.sh" >/dev/null 2>&1 || "$LIB_SRC/down.sh"
  rm -rf "$WORK"
}
lab_work() { # NAME
  WORK="$(mktemp -d "/tmp/topoplace-t-$1.XXXXXX")"
  trap lab_cleanup EXIT
  trap 'exit 130' INT TERM
}

lab_up() { # LABEL [VAR=VALUE...]: knobs for up.sh only
  local label=$1; shift
  if ! env "$@" "$LIB_SRC/up.sh" > "$WORK/up.log" 2>&1; then
    bad "$label" "$(tail -20 "$WORK/up.log"; tail -20 "$LAB_DIR/log/slurmctld.log" 2>/dev/null)"
    lab_abort
  fi
  ok "$label: $(grep -o 'total [0-9.]*s' "$WORK/up.log")"
  cd /tmp || exit 1
}

# slurmctld log: no error/fatal except known harmless noise: PMIx (MpiDefault=none), the
# missing state files of a first start (empty StateSaveLocation), and slurmctld's own clock
# check at start ("High latency for 1000 calls to gettimeofday()"), which a loaded build
# machine trips (seen: 4,138 us, release.26.05.native while a build ran beside it), and a
# node registering a step of a job cancelled a moment before ("Registered JobId=38
# StepId=38.batch in state CANCELLED on node n005", release.24.11.place: the tests cancel
# jobs as soon as they run; slurmctld kills the step on the node, and its source says the
# pending purge RPC "would synchronize this"), and 22.05's "Node nNNN appears to have a
# different slurm.conf than the slurmctld" while a `scontrol reconfigure` is in flight (every
# daemon of the lab reads the one slurm.conf, so the hashes can differ only while a slurmd that
# registers again has not yet read the new file; seen in lab.place with compiles beside it).
LAB_NOISE='pmix|Couldn.t load specified plugin name for mpi|Could not open [a-z]+ state file|Trying backup state save file|High latency for 1000 calls to gettimeofday|Registered JobId=[0-9]+ StepId=[0-9]+\.[a-z0-9]+ in state CANCELLED on node|Node [a-z0-9]+ appears to have a different slurm.conf than the slurmctld'
ctld_log_clean() { # LABEL [BAD_LABEL]
  local errs
  errs=$(grep -Ei 'error|fatal' "$LAB_DIR/log/slurmctld.log" | grep -Evi "$LAB_NOISE" || true)
  if [ -z "$errs" ]; then ok "$1"; else bad "${2:-$1}" "$errs"; fi
}

LAB_JOB_SLEEP=${LAB_JOB_SLEEP:-300}   # seconds a test job sleeps (they are cancelled long before)
sub() { sbatch --parsable --exclusive -o /dev/null "$@" --wrap "exec sleep $LAB_JOB_SLEEP"; }   # exec: no shell whose child could outlive a cancel
wait_running() { # jobid [seconds] -> "STATE|NODES|REASON"
  local j=$1 s=${2:-15}
  for _ in $(seq $((s * 5))); do [ "$(squeue -h -j "$j" -o %T 2>/dev/null)" = RUNNING ] && break; sleep 0.2; done
  squeue -h -j "$j" -o '%T|%N|%r'
}
busy() { local n j; for n in "$@"; do j=$(sub -w "$n") && wait_running "$j" >/dev/null; done; }   # NODE...: one job each
clear_jobs() { # [tries of 0.2 s]
  local j; j=$(squeue -h -o %A 2>/dev/null | sort -u)
  [ -n "$j" ] && scancel $j 2>/dev/null
  for _ in $(seq "${1:-100}"); do [ -z "$(squeue -h 2>/dev/null)" ] && return 0; sleep 0.2; done
}

# leaf group (lg_* feature) of each node, from "NodeName=<hostlist> Features=<list> ..." lines
declare -A LG=()
leaf_groups() { # FEATURES file
  local a b n
  while read -r a b _; do
    for n in $(expand_hostlist "${a#NodeName=}"); do LG[$n]=$(tr ',' '\n' <<<"${b#Features=}" | grep '^lg_'); done
  done < <(grep '^NodeName=' "$1")
}
groups_of() { # hostlist -> distinct leaf groups, comma-separated
  local n
  for n in $(expand_hostlist "$1"); do echo "${LG[$n]:-none}"; done | sort -u | paste -sd,
}

# job_submit.lua from the lab's start (not by `scontrol reconfigure` on a running lab: on 22.05
# slurmctld then asks the nodes to register again and a slurmd that answers before it has read
# the new slurm.conf is logged as "appears to have a different slurm.conf", seen in CI with
# compiles running beside the lab): lab_up LABEL ... $(lab_lua FILE)
lab_lua() { # FILE -> the up.sh knobs (FILE copied next to slurm.conf; FILE's path has no spaces)
  echo "LAB_ETC_FILES=$1" "LAB_EXTRA_CONF=JobSubmitPlugins=lua"
}
