#!/usr/bin/env bash
# topoplace doctor without a cluster (issue 30): scontrol and sbatch are stand-ins that print
# what a 22.05 controller prints (the live proof on each release is tests/lab/t-doctor.sh);
# the plugin is the one this build tree made, when there is one. Every check's failure is
# named with its fix, exit 1; all holding, exit 0; hostile config files (an include loop, a
# plugin that is not ELF) end in a finding, never a hang or a crash.
#   test_doctor.sh TOPOPLACE FIXTURES
set -euo pipefail
TP=$1; FX=$2
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || { echo "SKIP: the trust rules want root-owned files (run as root)"; exit 77; }
chmod 755 "$TMP"
ETC="$TMP/etc"; mkdir -p "$ETC/plugstack.conf.d" "$TMP/bin"
SO=$(readlink -f "$(dirname "$TP")/../spank/topoplace.so" 2>/dev/null || true)
"$TP" discover --ibnetdiscover "$FX/lab/lab-4x4.ibnetdiscover.txt" --nvidia-smi-topo "$FX/lab/lab-8gpu-2nic.topo-m.txt" \
  -o "$ETC/topoplace.json" 2>/dev/null
"$TP" slurm-conf "$ETC/topoplace.json" --format tree --features "$ETC/features.conf" -o "$ETC/topology.conf" 2>/dev/null
cp "$(dirname "$0")/../../slurm-conf/lua/job_submit.lua" "$ETC/job_submit.lua"
install -d -m 0755 "$TMP/health"

# scontrol show nodes --oneliner as 22.05 prints it, features from the snapshot's features file
nodes() { # [sed expression applied to the features]
  grep '^NodeName=' "$ETC/features.conf" | while read -r a b; do
    for n in $(seq -f 'n%03g' "$(sed 's/.*\[0*\([0-9]*\)-.*/\1/' <<<"$a")" "$(sed 's/.*-0*\([0-9]*\)\].*/\1/' <<<"$a")"); do
      f=$(sed "${1:-}" <<<"${b#Features=}")
      echo "NodeName=$n Arch=x86_64 CoresPerSocket=1 CPUAlloc=0 CPUTot=16 AvailableFeatures=$f ActiveFeatures=$f Gres=gpu:h100:8 NodeAddr=127.0.0.1 State=IDLE Partitions=debug"
    done
  done
}
nodes > "$TMP/nodes.txt"
config() { # KEY=VALUE overrides
  declare -A c=([SLURM_VERSION]=22.05.8 [SLURM_CONF]="$ETC/slurm.conf" [PlugStackConfig]="$ETC/plugstack.conf"
                [JobSubmitPlugins]=lua [TopologyPlugin]=topology/tree [PluginDir]=/usr/lib/x86_64-linux-gnu/slurm-wlm)
  local kv; for kv in "$@"; do c[${kv%%=*}]=${kv#*=}; done
  local k; for k in "${!c[@]}"; do printf '%-22s = %s\n' "$k" "${c[$k]}"; done
}
config > "$TMP/config.txt"
cat > "$TMP/bin/scontrol" <<EOF
#!/bin/sh
[ -f "$TMP/scontrol.down" ] && { echo "slurm_load_ctl_conf error: Unable to contact slurm controller" >&2; exit 1; }
case "\$1 \$2" in
  "show config") cat "$TMP/config.txt" ;;
  "show nodes") cat "$TMP/nodes.txt" ;;
  *) exit 1 ;;
esac
EOF
cat > "$TMP/bin/sbatch" <<EOF
#!/bin/sh
echo "Usage: sbatch [OPTIONS(0)...] [ : [OPTIONS(N)...]] script(0) [args(0)...]"
grep -q topoplace.so "$ETC/plugstack.conf.d/topoplace.conf" 2>/dev/null && echo "      --topo=pack|spread|off  topoplace: ..."
exit 0
EOF
chmod 755 "$TMP/bin/scontrol" "$TMP/bin/sbatch"
echo "include $ETC/plugstack.conf.d/*.conf" > "$ETC/plugstack.conf"
plugline() { echo "required ${1:-$SO} snapshot=$ETC/topoplace.json health=$TMP/health" > "$ETC/plugstack.conf.d/topoplace.conf"; }
D=("$TP" doctor --scontrol "$TMP/bin/scontrol" --sbatch "$TMP/bin/sbatch")
out_has() { if grep -Eq -- "$1" "$TMP/out"; then ok "doctor says /$1/"; else bad "doctor lacks /$1/: $(cat "$TMP/out")"; fi; }

if [ -n "$SO" ] && [ -f "$SO" ]; then
  plugline
  expect_rc 0 "all parts agree" "${D[@]}"
  out_has '^ok   plugstack +.*topoplace.conf:1: required .*topoplace.so \(built for Slurm 22\.05\)'
  out_has '^ok   features +16 nodes carry'
  out_has '^skip service '
  out_has 'all checks hold'
  expect_rc 0 "--json" "${D[@]}" --json
  check "--json: ok true, 11 checks" python3 -c "import json; d=json.load(open('$TMP/out')); assert d['ok'] is True and len(d['checks']) == 11, d"
  config SLURM_VERSION=24.11.5 > "$TMP/config.txt"
  expect_rc 1 "a 22.05 plugin on a 24.11 cluster" "${D[@]}"
  out_has '^FAIL plugstack .*built for Slurm 22\.05, this cluster runs 24\.11\.5'
  out_has 'fix: install topoplace_\*\+slurm24\.11_amd64\.deb'
  # a plugin of another micro release: a SPANK plugin loads (same major.minor), the topology
  # plugin does not (slurmctld's internal structures)
  config TopologyPlugin=topology/topoplace PluginDir="$TMP/plugins" SLURM_VERSION=22.05.7 > "$TMP/config.txt"
  mkdir -p "$TMP/plugins"; cp "$SO" "$TMP/plugins/topology_topoplace.so"
  expect_rc 1 "topology/topoplace built for another release" "${D[@]}"
  out_has '^ok   plugstack '
  out_has '^FAIL topology-plugin .*built for Slurm 22\.05\.[0-9]+, slurmctld is 22\.05\.7'
  rm -f "$TMP/plugins/topology_topoplace.so"
  expect_rc 1 "topology/topoplace missing from PluginDir" "${D[@]}"
  out_has '^FAIL topology-plugin .*no topology_topoplace\.so in PluginDir'
  config > "$TMP/config.txt"
else
  echo "note: no plugin in this build tree ($(dirname "$TP")/../spank/topoplace.so); the checks that read it are skipped"
fi

mkdir -p "$TMP/notplugin" "$TMP/notelf"; cp /bin/true "$TMP/notplugin/topoplace.so"; plugline "$TMP/notplugin/topoplace.so"
expect_rc 1 "a plugstack line naming a file that is not a Slurm plugin" "${D[@]}"
out_has '^FAIL plugstack .*notplugin/topoplace.so: no plugin_version symbol'
printf 'not an elf' > "$TMP/notelf/topoplace.so"; plugline "$TMP/notelf/topoplace.so"
expect_rc 1 "a plugin that is not ELF at all" "${D[@]}"
out_has '^FAIL plugstack .*not an ELF file'
rm -f "$ETC/plugstack.conf.d/topoplace.conf"
expect_rc 1 "no plugstack line" "${D[@]}"
out_has "^FAIL plugstack +no topoplace.so line in $ETC/plugstack.conf"
out_has "fix: echo 'required /usr/lib/x86_64-linux-gnu/slurm-wlm/topoplace.so"
out_has '^FAIL sbatch .*no --topo'
echo "include $ETC/plugstack.conf" > "$ETC/plugstack.conf.d/loop.conf"
expect_rc 1 "a plugstack include loop ends (bounded), as a finding" timeout 20 "${D[@]}"
out_has '^FAIL plugstack .*includes nested too deep'
rm -f "$ETC/plugstack.conf.d/loop.conf"
plugline "${SO:-$TMP/notplugin/topoplace.so}"

config JobSubmitPlugins='(null)' > "$TMP/config.txt"
expect_rc 1 "JobSubmitPlugins without lua" "${D[@]}"
out_has "^FAIL job_submit .*without lua"
out_has "fix: add 'JobSubmitPlugins=lua' to $ETC/slurm.conf"
config > "$TMP/config.txt"
mv "$ETC/job_submit.lua" "$TMP/js.away"
expect_rc 1 "job_submit.lua missing" "${D[@]}"
out_has "^FAIL job_submit .*job_submit.lua does not exist"
echo 'function slurm_job_submit(j, p, u) return slurm.SUCCESS end' > "$ETC/job_submit.lua"
expect_rc 1 "a site's own job_submit.lua without the bridge" "${D[@]}"
out_has "^FAIL job_submit .*never reads TOPOPLACE_CONSTRAINT"
mv "$TMP/js.away" "$ETC/job_submit.lua"

nodes 's/lg_[^,]*,//; s/sp_[^,]*//' > "$TMP/nodes.txt"
expect_rc 1 "nodes without their features" "${D[@]}"
out_has '^FAIL features +16 nodes have no lg_/sp_ features \(n001, n002, n003, ...; n001 has none, the snapshot gives lg_g001,sp_spine\)'
nodes 's/lg_g001/lg_g009/' > "$TMP/nodes.txt"
expect_rc 1 "nodes with another snapshot's features" "${D[@]}"
out_has '^FAIL features +4 nodes carry features of another snapshot \(n001 has lg_g009,sp_spine'
{ nodes; echo "NodeName=n017 Arch=x86_64 AvailableFeatures=(null) Gres=gpu:h100:8 State=IDLE"; } > "$TMP/nodes.txt"
expect_rc 1 "a GPU node the snapshot lacks" "${D[@]}"
out_has "^FAIL fabric +1 of Slurm's 17 GPU nodes are not in $ETC/topoplace.json \(n017\): the snapshot is older than the cluster"
nodes > "$TMP/nodes.txt"
sed -i 's/^# Source fingerprint: .*/# Source fingerprint: 0123456789abcdef/' "$ETC/topology.conf"
expect_rc 1 "topology.conf from another snapshot" "${D[@]}"
out_has "^FAIL topology +$ETC/topology.conf was generated from another snapshot \(fingerprint 0123456789ab"
"$TP" slurm-conf "$ETC/topoplace.json" --format tree -o "$ETC/topology.conf" 2>/dev/null

chmod 0775 "$TMP/health"
expect_rc 1 "a group-writable health store" "${D[@]}"
out_has '^FAIL health .*group/world writable'
out_has "fix: chown root:root $TMP/health && chmod 0755 $TMP/health"
chmod 0755 "$TMP/health"
echo "required ${SO:-$TMP/notplugin/topoplace.so} snapshot=$ETC/topoplace.json health=$TMP/health service=$TMP/no.sock state_feed=$TMP/no.bin" > "$ETC/plugstack.conf.d/topoplace.conf"
expect_rc 1 "the service and the feed configured but not running" "${D[@]}"
out_has "^FAIL service +topoplace-nodefeed does not answer on $TMP/no.sock"
out_has "^FAIL feed +$TMP/no.bin \(state_feed=\) does not exist"
plugline "${SO:-$TMP/notplugin/topoplace.so}"

chmod 0666 "$ETC/topoplace.json"
expect_rc 1 "a world-writable snapshot" "${D[@]}"
out_has "^FAIL snapshot .*group/world writable"
chmod 0644 "$ETC/topoplace.json"
printf '{"schema": "topoplace.snapshot",\n  "version": 2, oops\n' > "$TMP/bad.json"
expect_rc 1 "a corrupt snapshot named by --snapshot" "${D[@]}" --snapshot "$TMP/bad.json"
out_has "^FAIL snapshot .*bad.json"
out_has "^FAIL snapshot .*names snapshot=$ETC/topoplace.json, not $TMP/bad.json"

touch "$TMP/scontrol.down"
expect_rc 1 "slurmctld down" "${D[@]}"
out_has '^FAIL slurmctld .*show config failed \(exit 1\): no live check can be made'
rm -f "$TMP/scontrol.down"
expect_rc 64 "an unknown option" "$TP" doctor --bogus
finish
