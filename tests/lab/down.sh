#!/usr/bin/env bash
# Stop everything up.sh started in LAB_DIR, by PID only (never by process name).
# (topoplace lab; adapted from /work/shared/slurm-lab/down.sh)
#   1. cancel all jobs (so slurmstepd ends its tasks itself), wait briefly
#   2. SIGTERM the recorded daemons (slurmd*, slurmctld, munged), wait, SIGKILL stragglers
#   3. kill leftover slurmstepd (found by the SLURM_LAB_TAG marker they inherit from
#      slurmd) and their descendants
#   4. delete the netns/bridge we created (netns mode)
# Idempotent: safe to run when nothing is up. Keeps LAB_DIR (logs) unless LAB_WIPE=1.
set -uo pipefail
. "$(dirname "$0")/common.sh"
T0=$(date +%s.%N)
# No early exit when LAB_DIR is gone: the marker scan below still finds our daemons.

[ -d "$PIDS" ] && lab_refresh_pids
ctld_pid=$(cat "$PIDS/slurmctld" 2>/dev/null || true)
if pid_alive "$ctld_pid"; then
  jobs=$(squeue -h -o %A 2>/dev/null | sort -u)
  [ -n "$jobs" ] && scancel --quiet $jobs >/dev/null 2>&1
  for _ in $(seq 50); do
    [ -z "$(squeue -h -t R,CG,PD -o %i 2>/dev/null)" ] && break; sleep 0.2
  done
fi

# Processes carrying our marker: daemons + slurmstepd (+ slurmscriptd) we started.
# slurm*: a daemon that re-execs itself (24.05+ on `scontrol reconfigure`) runs under its
# file's real name, slurmctld-wlm / slurmd-wlm on Debian 12, 13 and sid. In CI (stop 26)
# one such slurmctld-wlm outlived release.24.11.native (its PID was not the one recorded)
# and held the port of the next lab of that name; the marker alone now decides.
mapfile -t tagged < <(lab_marked_pids 'slurm*' munged)
# Snapshot descendants (job tasks) before parents die and they get reparented.
victims=()
# A recorded PID counts only if it still carries our marker (guards against PID reuse).
for f in "$PIDS"/*; do
  [ -f "$f" ] || continue; p=$(cat "$f")
  grep -qzx -- "$LAB_TAG" "/proc/$p/environ" 2>/dev/null && victims+=("$p")
done
victims+=("${tagged[@]}")
# The recorded slurmctld gone but a marked one running (a re-exec whose PID we missed):
# stop that one first, as below.
if ! pid_alive "$ctld_pid"; then
  for p in "${tagged[@]}"; do
    case "$(cat "/proc/$p/comm" 2>/dev/null)" in slurmctld*) ctld_pid=$p; break ;; esac
  done
fi
all=()
for p in "${victims[@]}"; do
  pid_alive "$p" || continue
  all+=("$p"); while read -r c; do [ -n "$c" ] && all+=("$c"); done < <(descendants "$p")
done
munge_pid=$(cat "$PIDS/munged" 2>/dev/null || true)
order=()
for p in "${all[@]}"; do [ "$p" != "$ctld_pid" ] && [ "$p" != "$munge_pid" ] && order+=("$p"); done
for p in "$ctld_pid" "$munge_pid"; do [ -n "$p" ] && order+=("$p"); done

stop_pids() { lab_stop_pids 50 "$@"; }   # SIGTERM, wait up to 5 s, SIGKILL
nonctl=(); for p in "${order[@]}"; do [ "$p" != "$ctld_pid" ] && [ "$p" != "$munge_pid" ] && nonctl+=("$p"); done
# slurmctld first (while its slurmd peers are still up it exits in <1 s; with them gone
# it lingered >5 s), then slurmd/slurmstepd/tasks, munged last.
[ -n "$ctld_pid" ] && pid_alive "$ctld_pid" && stop_pids "$ctld_pid" $(descendants "$ctld_pid")
[ ${#nonctl[@]} -gt 0 ] && stop_pids "${nonctl[@]}"
[ -n "$munge_pid" ] && stop_pids "$munge_pid"
rm -f "$PIDS"/* 2>/dev/null

# netns mode: namespaces, veths (vanish with their netns), bridge, safety route.
if [ -f "$LAB_DIR/run/netns" ]; then
  while read -r ns; do ip netns del "$ns" 2>/dev/null || true; done < "$LAB_DIR/run/netns"
  rm -f "$LAB_DIR/run/netns"
fi
if [ -f "$LAB_DIR/run/bridge" ]; then
  read -r br prefix < "$LAB_DIR/run/bridge"
  ip link del "$br" 2>/dev/null || true
  ip route del unreachable "$prefix.0.0/16" metric 4242 2>/dev/null || true
  rm -f "$LAB_DIR/run/bridge"
fi

left=0
for p in $(lab_marked_pids 'slurm*' munged); do left=$((left+1)); log "still alive: $p $(cat "/proc/$p/comm" 2>/dev/null)"; done
[ "${LAB_WIPE:-0}" = 1 ] && rm -rf "$LAB_DIR"
awk -v a="$T0" -v b="$(date +%s.%N)" -v n="${#all[@]}" 'BEGIN { printf "down.sh: stopped %d processes in %.2fs\n", n, b-a }' >&2
[ $left = 0 ]
