#!/usr/bin/env bash
# Stretch check of `topoplace slurm-conf --format block` on a live slurmctld that has
# topology/block: Debian 13 (trixie) Slurm 24.11 in a debootstrap chroot.
#   t-block-trixie.sh [TOPOPLACE]
# Needs root and either an existing chroot at TRIXIE_ROOT (default
# /var/tmp/topoplace-trixie) or debootstrap + network to Debian's archive to make one
# (debootstrap --variant=minbase --include=slurmctld,slurm-client,munge trixie; ~2 min,
# cached for later runs). Exit 77 (skip) otherwise.
# Only slurmctld runs (no slurmd): what is checked is that Slurm 24.11 loads the
# generated block topology, not job placement.
# 1. GB200 NVL72 x4 (16 of 18 usable): BlockSizes=16,32,64, 4 blocks of 18.
# 2. rack03 missing: placeholder block of fake nodes declared State=FUTURE.
# 3. control: the same placeholder without its fake nodes must make slurmctld fail,
#    i.e. the padding is needed and the check can fail.
# Knobs: TRIXIE_ROOT, TRIXIE_CTLD_PORT (16977).
set -uo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
TOPOPLACE="${1:-topoplace}"
FIX="$HERE/../fixtures"
R="${TRIXIE_ROOT:-/var/tmp/topoplace-trixie}"
PORT="${TRIXIE_CTLD_PORT:-16977}"
TAG="TOPOPLACE_TRIXIE_TAG=$R"

if [ "$(id -u)" != 0 ]; then echo "SKIP: needs root (chroot)"; exit 77; fi
command -v "$TOPOPLACE" >/dev/null 2>&1 || [ -x "$TOPOPLACE" ] || { echo "FAIL: no topoplace binary '$TOPOPLACE'"; exit 1; }
# the chroot the per-release labs use too (tests/lab/chroot.sh: made once, cached)
if [ ! -f "$R/.topoplace-ready" ]; then
  [ -n "${TRIXIE_ROOT:-}" ] && [ -x "$R/usr/sbin/slurmctld" ] || {
    R=$(TOPO_CHROOT_BASE="$(dirname "$R")" "$HERE/chroot.sh" trixie) || { echo "SKIP: no trixie chroot (debootstrap failed?)"; exit 77; }
  }
fi
W="$R/tp"
VER=$(chroot "$R" /usr/sbin/slurmctld -V 2>/dev/null | awk '{print $2}')
case "$VER" in 2[4-9].*|[3-9]*) ;; *) echo "SKIP: chroot slurmctld is '$VER', need >= 24.05"; exit 77 ;; esac

pass=0; fail=0
ok()   { pass=$((pass + 1)); echo "ok   $1"; }
bad()  { fail=$((fail + 1)); echo "FAIL $1"; [ $# -gt 1 ] && printf '%s\n' "$2" | sed 's/^/     /' | head -30; }

W="$R/tp"   # our state inside the chroot; /tp as seen from inside
rm -rf "$W"; mkdir -p "$W"/{etc,log,state,run,munge}
mounted=0
if ! mountpoint -q "$R/proc"; then mount -t proc proc "$R/proc" && mounted=1; fi
stop_all() {
  local f p
  for f in "$W"/run/*.pid; do
    [ -f "$f" ] || continue; p=$(cat "$f")
    # only a process we started (it carries our marker)
    if grep -qzx -- "$TAG" "/proc/$p/environ" 2>/dev/null; then kill "$p" 2>/dev/null; fi
  done
  for _ in $(seq 50); do
    local alive=0
    for f in "$W"/run/*.pid; do [ -f "$f" ] && grep -qzx -- "$TAG" "/proc/$(cat "$f")/environ" 2>/dev/null && alive=1; done
    [ $alive = 0 ] && break; sleep 0.1
  done
  rm -f "$W"/run/*.pid
}
cleanup() { stop_all; [ "$mounted" = 1 ] && umount "$R/proc"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

# munge inside the chroot (own key and socket)
dd if=/dev/urandom of="$W/munge/munge.key" bs=1024 count=1 status=none; chmod 400 "$W/munge/munge.key"
setsid chroot "$R" env "$TAG" /usr/sbin/munged --force --key-file=/tp/munge/munge.key --socket=/tp/munge/munge.socket \
  --pid-file=/tp/run/munged.pid --log-file=/tp/log/munged.log --seed-file=/tp/munge/seed
for _ in $(seq 50); do [ -s "$W/run/munged.pid" ] && break; sleep 0.1; done

ctl() { chroot "$R" env SLURM_CONF=/tp/etc/slurm.conf "$@"; }
# start_ctld NODES_CONF TOPOLOGY_CONF -> 0 when slurmctld answers ping
start_ctld() {
  stop_ctld
  cp "$2" "$W/etc/topology.conf"
  rm -rf "$W/state"/*; : > "$W/log/slurmctld.log"
  cat > "$W/etc/slurm.conf" <<C
ClusterName=tptrixie
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$PORT
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=/tp/munge/munge.socket
CredType=cred/munge
StateSaveLocation=/tp/state
SlurmctldPidFile=/tp/run/slurmctld.pid
SlurmctldLogFile=/tp/log/slurmctld.log
SlurmctldDebug=debug
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
TopologyPlugin=topology/block
SwitchType=switch/none
MpiDefault=none
MailProg=/bin/true
C
  cat "$1" >> "$W/etc/slurm.conf"
  echo "PartitionName=all Nodes=ALL Default=YES State=UP" >> "$W/etc/slurm.conf"
  # own session: slurmctld signals its process group on some failures
  setsid chroot "$R" env SLURM_CONF=/tp/etc/slurm.conf "$TAG" /usr/sbin/slurmctld -f /tp/etc/slurm.conf >/dev/null 2>&1 < /dev/null
  for _ in $(seq 50); do grep -q 'is UP' <<<"$(ctl scontrol ping 2>/dev/null)" && return 0; sleep 0.2; done
  return 1
}
stop_ctld() {
  local p; p=$(cat "$W/run/slurmctld.pid" 2>/dev/null) || return 0
  grep -qzx -- "$TAG" "/proc/$p/environ" 2>/dev/null && kill "$p"
  for _ in $(seq 50); do grep -qzx -- "$TAG" "/proc/$p/environ" 2>/dev/null || break; sleep 0.1; done
  rm -f "$W/run/slurmctld.pid"
}
# blocks Slurm loaded: "name nodes" of the base blocks, from `scontrol show topology`
loaded_blocks() { ctl scontrol show topology 2>&1 | sed -n 's/^BlockName=\([^ ]*\) BlockIndex=[0-9]* Nodes=\([^ ]*\).*/\1 \2/p'; }
conf_blocks() { sed -n 's/^BlockName=\([^ ]*\) Nodes=\([^ ]*\)$/\1 \2/p' "$1"; }
topo_errors() { grep -Ei 'fatal|error' "$W/log/slurmctld.log" | grep -Ei 'block|topolog|node' | grep -Evi 'Could not open [a-z ]+ state file' ; }

TMP=$(mktemp -d); trap 'cleanup; rm -rf "$TMP"' EXIT

# ---------------------------------------------------------------- 1. NVL72 x4, 16 of 18
"$TOPOPLACE" discover --spec "$FIX/specs/gb200-nvl72x4.yaml" -o "$TMP/nvl.json" 2>/dev/null
"$TOPOPLACE" slurm-conf "$TMP/nvl.json" --format block --slurm-version "$VER" -o "$TMP/nvl.block.conf" 2>/dev/null
echo "NodeName=gb[001-072] NodeHostname=localhost NodeAddr=127.0.0.1 CPUs=4 State=UNKNOWN" > "$TMP/nvl.nodes"
if start_ctld "$TMP/nvl.nodes" "$TMP/nvl.block.conf"; then
  ok "slurmctld $VER up with the generated block topology (GB200 NVL72 x4, BlockSizes=16,32,64)"
  want=$(conf_blocks "$TMP/nvl.block.conf"); got=$(loaded_blocks | head -4)
  if [ -n "$want" ] && [ "$want" = "$got" ]; then ok "scontrol show topology: the 4 generated base blocks"
  else bad "scontrol show topology: the 4 generated base blocks" "$(diff <(echo "$want") <(echo "$got"); ctl scontrol show topology)"; fi
  e=$(topo_errors || true)
  if [ -z "$e" ]; then ok "no block/topology error in the slurmctld log"; else bad "no block/topology error" "$e"; fi
  if grep -q 'BlockSizes' "$W/log/slurmctld.log" || grep -q 'BlockSize=16' <<<"$(ctl scontrol show topology)"; then
    ok "base block size 16 in effect"; else bad "base block size 16 in effect" "$(ctl scontrol show topology | head -8)"; fi
else
  bad "slurmctld up with the generated block topology" "$(tail -15 "$W/log/slurmctld.log")"
fi

# ---------------------------------------------------------------- 2. rack03 missing
cat > "$TMP/gap.yaml" <<'Y'
nodes:
  - names: gb[001-054]
nvl_domains:
  - {name: rack01, nodes: "gb[001-018]", usable: 16}
  - {name: rack02, nodes: "gb[019-036]", usable: 16}
  - {name: rack04, nodes: "gb[037-054]", usable: 16}
Y
"$TOPOPLACE" discover --spec "$TMP/gap.yaml" -o "$TMP/gap.json" 2>/dev/null
"$TOPOPLACE" slurm-conf "$TMP/gap.json" --format block --slurm-version "$VER" -o "$TMP/gap.block.conf" 2>/dev/null
{ echo "NodeName=gb[001-054] NodeHostname=localhost NodeAddr=127.0.0.1 CPUs=4 State=UNKNOWN"; sed -n 's/^#   \(NodeName=.* State=FUTURE\)$/\1 NodeHostname=localhost NodeAddr=127.0.0.1 CPUs=4/p' "$TMP/gap.block.conf"; } > "$TMP/gap.nodes"
if grep -q '^NodeName=fake-rack03-\[01-16\] State=FUTURE' "$TMP/gap.nodes" && start_ctld "$TMP/gap.nodes" "$TMP/gap.block.conf"; then
  ok "slurmctld up with a placeholder block of FUTURE fake nodes"
  want=$(conf_blocks "$TMP/gap.block.conf"); got=$(loaded_blocks | head -4)
  if [ "$want" = "$got" ]; then ok "rack04 stays the 4th base block"
  else bad "rack04 stays the 4th base block" "$(diff <(echo "$want") <(echo "$got"))"; fi
  ctl scontrol show topology > "$TMP/gap.show" 2>&1
  if grep -Eq '^AggregatedBlock=rack\[03-04\] .*Nodes=(fake-rack03-\[01-16\],gb\[037-054\]|gb\[037-054\],fake-rack03-\[01-16\]) ' "$TMP/gap.show" &&
     grep -q '^AggregatedBlock=rack\[01-02\] .*Nodes=gb\[001-036\] ' "$TMP/gap.show"; then
    ok "aggregate block rack[03-04] pairs rack04 with the missing rack03's slot"
  else bad "aggregate block rack[03-04]" "$(cat "$TMP/gap.show")"; fi
else
  bad "slurmctld up with a placeholder block" "$(cat "$TMP/gap.nodes"; tail -15 "$W/log/slurmctld.log")"
fi

# ---------------------------------------------------------------- 3. control
sed 's/^BlockName=rack03 Nodes=.*/BlockName=rack03 Nodes=/' "$TMP/gap.block.conf" > "$TMP/empty.block.conf"
grep -v fake "$TMP/gap.nodes" > "$TMP/empty.nodes"
if start_ctld "$TMP/empty.nodes" "$TMP/empty.block.conf" && grep -q 'BlockName=rack03' <<<"$(ctl scontrol show topology 2>&1)"; then
  bad "control: an empty placeholder block is rejected" "slurmctld accepted it: $(ctl scontrol show topology | head -5)"
else
  ok "control: without fake nodes the placeholder block is rejected ($(grep -Eo 'fatal: .*' "$W/log/slurmctld.log" | head -1))"
fi
stop_ctld

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
