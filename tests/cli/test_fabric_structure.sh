#!/usr/bin/env bash
# Real inputs, round 3 (issue 28 items 2, 3, 5), through the CLI a user runs: an NCCL
# topology dump with a virtual interface under every CPU, a spine with hosts on it, and a
# director fabric whose empty ToRs are cabled unlike any populated ToR. Each is read by
# its structure, with one line saying what was decided.
set -euo pipefail
TP=$1; FX=$2
. "$(dirname "$0")/lib.sh"
IB=$FX/ibnetdiscover
NX=$FX/nccl-topo

# item 2: docker0 and a bridge under both CPUs of an NCCL_TOPO_DUMP_FILE dump
D=$NX/topoplace-socket-only-docker0-dump.xml
expect_rc 0 "NCCL dump with docker0 under every CPU" "$TP" discover --nccl-topo "n[1-2]=$D" -o "$TMP/n.json"
err_has "$D:36: br-7f3a2c91d0e4, docker0 are listed under each of 2 CPUs"
eq "one line says what was folded" "$(grep -c 'folded' "$TMP/err")" 1
"$TP" show "$TMP/n.json" --json > "$TMP/n.show.json"
eq "GPUs of 2 hosts" "$(jq .gpus "$TMP/n.show.json")" 16
eq "NICs of 2 hosts" "$(jq .nics "$TMP/n.show.json")" 6
# the same name on two PCI devices is still refused at its line
sed 's|<net name="eno1"|<net name="docker0"|' "$D" > "$TMP/dup.xml"
expect_rc 65 "a PCI NIC with a virtual interface's name" "$TP" discover --nccl-topo "$TMP/dup.xml" -o "$TMP/x.json"
err_has "dup.xml:36: NIC docker0 appears twice"  # its second appearance

# item 3: two servers cabled to a spine that is cabled to every leaf
expect_rc 0 "2-tier fabric with hosts on a spine" "$TP" discover --ibnetdiscover "$IB/topoplace-2tier-hosts-on-spine.ibnetdiscover.txt" -o "$TMP/h.json"
err_has "are cabled to every leaf of the fabric, so they are read as spines, whatever hangs on them: spine-1 (gpu-s01, gpu-s02)"
eq "warned once" "$(grep -c 'cabled to every leaf' "$TMP/err")" 1
"$TP" show "$TMP/h.json" > "$TMP/show.txt"
check "6 leaves, 2 spines" grep -q "Tier0(leaf)=6 *Tier1(spine)=2" <(tr '\n' ' ' < "$TMP/show.txt")
check "the servers are in no compute group" bash -c "! grep -E '^Group=.*gpu-n.*gpu-s|^Group=.*gpu-s.*gpu-n' '$TMP/show.txt'"
"$TP" slurm-conf "$TMP/h.json" > "$TMP/topo.conf" 2>/dev/null
check "nor in topology.conf" bash -c "! grep -q 'gpu-s0' '$TMP/topo.conf'"
check "topology.conf has the compute hosts" grep -q 'gpu-n' "$TMP/topo.conf"

# item 5: director HDR fabric, 15 empty ToRs, 3 of them cabled unlike any populated ToR
expect_rc 0 "director fabric with partly cabled ToRs" "$TP" discover --ibnetdiscover "$IB/topoplace-director-hdr-partial-uplinks.ibnetdiscover.txt" -o "$TMP/d.json"
err_has "15 switch(es) without hosts"
"$TP" show "$TMP/d.json" > "$TMP/show.txt"
check "tiers 72/80/40" grep -q "Tier0(leaf)=72 *Tier1(spine)=80 *Tier2(core)=40" <(tr '\n' ' ' < "$TMP/show.txt")
finish
