# shellcheck shell=bash
# Shared settings for up.sh / down.sh / t-*.sh of the topoplace Slurm lab.
# Source it; do not run it. Every knob is an environment variable with a default.
# Adapted from /work/shared/slurm-lab (research lab); defaults differ (LAB_DIR, ports,
# bridge) so that both labs can run side by side.

LAB_SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
LAB_DIR="${LAB_DIR:-/tmp/topoplace-lab}"        # all state, logs, configs, pids
LAB_MODE="${LAB_MODE:-multi}"                    # multi = N slurmd on 127.0.0.1 (one port each)
                                                 # netns = one slurmd per netns+UTS ns, own hostname/IP
LAB_NODES="${LAB_NODES:-8}"                      # number of compute nodes
LAB_NODE_PREFIX="${LAB_NODE_PREFIX:-n}"          # node i is ${LAB_NODE_PREFIX}%0${LAB_NODE_WIDTH}d
LAB_NODE_WIDTH="${LAB_NODE_WIDTH:-3}"
LAB_NODES_PER_LEAF="${LAB_NODES_PER_LEAF:-4}"    # built-in topology.conf: nodes per leaf switch
LAB_GPUS="${LAB_GPUS:-8}"                        # fake GPUs per node (char devices 195:N)
LAB_GPU_TYPE="${LAB_GPU_TYPE:-h100}"
LAB_CPUS="${LAB_CPUS:-16}"                       # advertised CPUs per node (config_overrides)
LAB_MEM="${LAB_MEM:-64000}"                      # advertised RealMemory (MB) per node
LAB_CTLD_PORT="${LAB_CTLD_PORT:-16917}"
LAB_SLURMD_PORT_BASE="${LAB_SLURMD_PORT_BASE:-17100}"   # multi mode: node i listens on BASE+i
LAB_NET_PREFIX="${LAB_NET_PREFIX:-10.214}"       # netns mode: bridge <prefix>.0.1/16, nodes <prefix>.<i/250>.<i%250+10>
LAB_BRIDGE="${LAB_BRIDGE:-tplab0}"
LAB_TOPOLOGY="${LAB_TOPOLOGY:-tree}"             # tree | none
LAB_TOPOLOGY_FILE="${LAB_TOPOLOGY_FILE:-}"       # topology.conf to use (e.g. from topoplace slurm-conf); empty = built-in leaves+spine
LAB_FEATURES_FILE="${LAB_FEATURES_FILE:-}"       # "NodeName=<hostlist> Features=<list>" lines merged into the node lines
LAB_PLUGSTACK_FILE="${LAB_PLUGSTACK_FILE:-}"     # plugstack.conf to install; empty = no SPANK plugin
LAB_PROLOG_FLAGS="${LAB_PROLOG_FLAGS-Alloc}"     # PrologFlags ("" = Slurm default)
# SchedulerParameters ("" = Slurm default). batch_sched_delay=0: a batch job is scheduled when
# it is submitted; Slurm's default (3 s) lets it wait for the next pass, about 2.5 s a job here.
LAB_SCHED_PARAMS="${LAB_SCHED_PARAMS-batch_sched_delay=0}"
LAB_EXTRA_CONF="${LAB_EXTRA_CONF:-}"             # more slurm.conf lines, verbatim
# AuthInfo=cred_expire= in seconds ("" = Slurm's default, 120; its minimum is 5). A requeued
# batch job may start again only cred_expire + 1 s later (job_mgr.c, all three releases;
# 26.05 adds SchedulerParameters=requeue_delay=, whose default is this too).
LAB_CRED_EXPIRE="${LAB_CRED_EXPIRE:-}"
LAB_ETC_FILES="${LAB_ETC_FILES:-}"               # files copied next to slurm.conf before slurmctld starts
LAB_TIMEOUT="${LAB_TIMEOUT:-120}"                # seconds to wait for all nodes idle
LAB_CTLD_DEBUG="${LAB_CTLD_DEBUG:-info}"         # SlurmctldDebug
LAB_DEBUG_FLAGS="${LAB_DEBUG_FLAGS:-}"           # DebugFlags ("" = none)

export SLURM_CONF="$LAB_DIR/etc/slurm.conf"
# Marker placed in the environment of every daemon we start, so that down.sh can
# find slurmstepd processes (they inherit slurmd's environment) after slurmd is gone.
LAB_TAG="SLURM_LAB_TAG=$LAB_DIR"

PIDS="$LAB_DIR/pids"    # one file per daemon we started, content = PID

log() { printf '[%s] %s\n' "$(date +%T)" "$*" >&2; }
die() { log "FATAL: $*"; exit 1; }

node_name() { printf "%s%0${LAB_NODE_WIDTH}d" "$LAB_NODE_PREFIX" "$1"; }   # 1 -> n001
node_ip()   { local i=$1; echo "$LAB_NET_PREFIX.$(( i / 250 )).$(( i % 250 + 10 ))"; }
node_list() { # hostlist expression for nodes a..b
  local a=$1 b=$2
  if [ "$a" = "$b" ]; then node_name "$a"; else printf "%s[%0${LAB_NODE_WIDTH}d-%0${LAB_NODE_WIDTH}d]" "$LAB_NODE_PREFIX" "$a" "$b"; fi
}

# Expand a hostlist expression (one name a line) without needing the lab's slurm.conf.
expand_hostlist() {
  local c="${LAB_DIR}/run/hostlist.conf"
  [ -d "${LAB_DIR}/run" ] || c="$(mktemp)"
  printf 'ClusterName=hl\nSlurmctldHost=localhost\n' > "$c"
  SLURM_CONF="$c" scontrol show hostnames "$1"
}

# Is PID alive (and not a zombie)?
pid_alive() { [ -n "$1" ] && [ -d "/proc/$1" ] && ! grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null; }

# All descendants of a PID (children first-level, recursively), from /proc.
descendants() {
  local p=$1 c
  for c in $(ps -o pid= --ppid "$p" 2>/dev/null); do
    echo "$c"; descendants "$c"
  done
}

# The processes carrying our marker whose name matches one of the glob patterns (slurm*:
# a daemon that re-execs itself runs under its file's real name, slurmctld-wlm on Debian).
lab_marked_pids() {
  local d c pat
  for d in /proc/[0-9]*; do
    [ "${d#/proc/}" = $$ ] && continue
    grep -qzx -- "$LAB_TAG" "$d/environ" 2>/dev/null || continue
    c=$(cat "$d/comm" 2>/dev/null)
    for pat in "$@"; do
      # shellcheck disable=SC2254
      case "$c" in $pat) echo "${d#/proc/}"; break ;; esac
    done
  done
}
# SIGTERM the PIDs, wait up to TENTHS tenths of a second for all to be gone, SIGKILL the rest.
lab_stop_pids() { # TENTHS PID...
  local tenths=$1 p left; shift
  for p in "$@"; do pid_alive "$p" && kill -TERM "$p" 2>/dev/null; done
  for _ in $(seq "$tenths"); do
    left=0; for p in "$@"; do pid_alive "$p" && left=1; done
    [ $left = 0 ] && return 0; sleep 0.1
  done
  for p in "$@"; do pid_alive "$p" && { log "SIGKILL $p ($(cat /proc/"$p"/comm 2>/dev/null))"; kill -KILL "$p" 2>/dev/null; }; done
  sleep 0.2
}
# Every slurmctld of this lab (its slurmscriptd too: the same binary), found by our marker,
# not by the PID file: after a 24.05+ `scontrol reconfigure` the file names the parent for a
# moment (the child rewrites it after telling the parent, controller.c _try_to_reconfig /
# _update_pidfile), and stop 41's CI saw a restart that read a PID that was not the
# running one and left it holding the port ('Address already in use' from the new one).
# Stops them all (20 s before SIGKILL); fails (returns 1) if one is still there after that.
lab_ctld_stop() {
  local ps
  ps=$(lab_marked_pids 'slurmctld*')
  [ -z "$ps" ] && return 0
  # shellcheck disable=SC2086
  lab_stop_pids 200 $ps
  for _ in $(seq 20); do [ -z "$(lab_marked_pids 'slurmctld*')" ] && return 0; sleep 0.1; done
  return 1
}

# Slurm 24.05+ restarts its daemons on `scontrol reconfigure` (a fresh exec, new PIDs; the
# daemons rewrite their PidFiles): take the recorded PIDs anew from those files, where the
# process there carries our marker.
lab_refresh_pids() {
  local f n p
  for f in "$LAB_DIR"/run/slurmctld.pid "$LAB_DIR"/run/slurmd-*.pid; do
    [ -f "$f" ] || continue
    n=$(basename "$f" .pid); p=$(cat "$f" 2>/dev/null) || continue
    [ -n "$p" ] && grep -qzx -- "$LAB_TAG" "/proc/$p/environ" 2>/dev/null && echo "$p" > "$PIDS/$n"
  done
  return 0
}
