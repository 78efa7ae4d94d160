#!/usr/bin/env bash
# A topoplace.so built for another Slurm release, listed in this release's plugstack.conf,
# must be refused by Slurm itself (SPANK plugins must match major.minor), with a message
# that names the problem, and without a crash: sbatch/srun/salloc exit with an error (not a
# signal), and so does an unaffected client once the line is gone.
#   t-mismatch.sh FOREIGN_SO OWN_SO
# Runs where this release's Slurm clients are (the host for 22.05, a chroot for 24.11/26.05:
# tests/lab/release.sh RELEASE test t-mismatch.sh). No daemons are needed: the clients load
# plugstack.conf before they contact slurmctld.
set -uo pipefail
FOREIGN=$(readlink -f "${1:?usage: t-mismatch.sh FOREIGN_SO OWN_SO}"); OWN=$(readlink -f "${2:?}")
for f in "$FOREIGN" "$OWN"; do [ -f "$f" ] || { echo "SKIP: no plugin build at $f"; exit 77; }; done
command -v sbatch >/dev/null || { echo "SKIP: no sbatch"; exit 77; }
pass=0; fail=0
ok()  { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ $# -gt 1 ] && printf '%s\n' "$2" | sed 's/^/     /' | head -20; }
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
cat > "$W/slurm.conf" <<C
ClusterName=mismatch
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=1
AuthType=auth/none
PlugStackConfig=$W/plugstack.conf
C
: > "$W/plugstack.conf"
ver=$(SLURM_CONF="$W/slurm.conf" sbatch --version | awk '{print $2}')
for c in sbatch srun salloc; do
  echo "required $FOREIGN snapshot=/nonexistent.json" > "$W/plugstack.conf"
  out=$(SLURM_CONF="$W/slurm.conf" timeout 20 $c --help 2>&1); rc=$?
  if [ "$rc" != 0 ] && [ "$rc" -lt 124 ] && grep -Eqi 'incompatible|version|plugin' <<<"$out" && ! grep -q -- '--topo' <<<"$out"; then
    ok "Slurm $ver $c refuses a topoplace.so built for another release (exit $rc: $(grep -Ei 'incompatible|version|plugin' <<<"$out" | head -1))"
  else bad "Slurm $ver $c refuses a foreign topoplace.so" "exit $rc: $out"; fi
  echo "required $OWN snapshot=/nonexistent.json" > "$W/plugstack.conf"
  out=$(SLURM_CONF="$W/slurm.conf" timeout 20 $c --help 2>&1); rc=$?
  if [ "$rc" = 0 ] && grep -q -- '--topo=MODE' <<<"$out"; then ok "control: $c --help with this release's own build lists --topo"
  else bad "control: $c --help with the own build" "exit $rc: $(tail -5 <<<"$out")"; fi
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
