#!/usr/bin/env bash
# Fabrics and files as other sites and tools write them (issue 15), through the CLI a user
# runs: each read right with one line saying what was decided, or refused at file:line.
set -euo pipefail
TP=$1; FX=$2
. "$(dirname "$0")/lib.sh"
IB=$FX/ibnetdiscover

# 1. ibdiagnet2.ibnetdiscover: port labels after the port numbers are not GUIDs
expect_rc 0 "ibdiagnet2 layout with Quantum-2 port labels" "$TP" discover --ibnetdiscover "$IB/topoplace-ibdiagnet2-ndr-labels.ibnetdiscover" -o "$TMP/diag.json"
"$TP" show "$TMP/diag.json" > "$TMP/show.txt"
check "2 tiers, 2 rails" grep -q "Tiers=2 Rails=2" "$TMP/show.txt"
sed 's|\[2\](1/1/2)|[2](1/1 /2)|' "$IB/topoplace-ibdiagnet2-ndr-labels.ibnetdiscover" > "$TMP/badlabel.txt"
expect_rc 65 "a label with a blank" "$TP" discover --ibnetdiscover "$TMP/badlabel.txt" -o "$TMP/x.json"
err_has "$TMP/badlabel.txt:15: malformed port line (bad port GUID or label)"

# 2. a terminal capture: byte-order mark, the prompt that ran ibnetdiscover, the next prompt
expect_rc 0 "capture starting with BOM and a shell prompt" "$TP" discover --ibnetdiscover "$IB/topoplace-prompt-bom.ibnetdiscover.txt" -o "$TMP/p.json"
err_has 'first line 1 "[root@mgmt01 ~]# ibnetdiscover"'
check "no BOM bytes shown as ???" bash -c "! grep -q '???' '$TMP/err'"

# 3-6. tiers, rails and groups from the structure (generated fabrics, tests/unit/libtopo/fabric_gen.hpp)
expect_rc 0 "3 tiers with UFM servers on spines" "$TP" discover --ibnetdiscover "$IB/topoplace-gen-3tier-mgmt-on-spines.ibnetdiscover.txt" -o "$TMP/m.json"
err_has "are read as spines, not leaves"
"$TP" show "$TMP/m.json" > "$TMP/show.txt"
check "still 3 tiers" grep -q "Tiers=3 Rails=4" "$TMP/show.txt"
expect_rc 0 "converged storage leaf" "$TP" discover --ibnetdiscover "$IB/topoplace-gen-8rail-converged-storage-leaf.ibnetdiscover.txt" -o "$TMP/s.json"
err_has "read as storage/side leaves, not rails"
err_has "(--hca REGEX names the compute HCAs instead)"
"$TP" show "$TMP/s.json" > "$TMP/show.txt"
check "8 rails, 4 groups" grep -q "Tiers=2 Rails=8 .*Groups=4" <(tr '\n' ' ' < "$TMP/show.txt")
expect_rc 0 "--hca says the same by hand" "$TP" discover --ibnetdiscover "$IB/topoplace-gen-8rail-converged-storage-leaf.ibnetdiscover.txt" --hca 'mlx5_[0-7]' -o "$TMP/s2.json"
"$TP" show "$TMP/s2.json" > "$TMP/show.txt"
check "--hca: 8 rails" grep -q "Rails=8" "$TMP/show.txt"
expect_rc 0 "HCAs named off their rail" "$TP" discover --ibnetdiscover "$IB/topoplace-gen-8rail-hca-renamed.ibnetdiscover.txt" -o "$TMP/r.json"
err_has "named unlike most NICs on their rail leaf"

# 7-8. one real lstopo XML for every node of a fabric whose HCAs are named HCA-N
expect_rc 0 "--hwloc XML as a template on a fabric that holds its GUIDs" "$TP" discover \
  --ibnetdiscover "$IB/topoplace-juwels-like-hca-names.ibnetdiscover.txt" \
  --hwloc "$FX/hwloc/psmgmt-juwels-booster-a100x4-hdr4.xml" -o "$TMP/jw.json"
err_has "applied to 2 hosts as a template; its NIC GUIDs are those of jwb0004 and are ignored for the other 1 host(s)"
err_has "HCA-1 read as mlx5_0"
eq "NICs (4 per host, not 4 + 4)" "$(jq '.summary.nics' "$TMP/jw.json")" 8
eq "every NIC cabled, named as the XML names it, with its PCI address" \
   "$(jq -r '[.nics.rows[] | select(.[4] != null and (.[1]|startswith("mlx5_")) and (.[3]|length) > 0)] | length' "$TMP/jw.json")" 8

# 9. a block topology.conf places
"$TP" discover --slurm-topology "$FX/slurm-topology/topograph-expected-block-nvl.topology.conf" -o "$TMP/b.json" 2>/dev/null
expect_rc 0 "place 4 nodes on a block snapshot" "$TP" place "$TMP/b.json" --nodes 4
expect_rc 0 "place 8 nodes in one NVLink domain" "$TP" place "$TMP/b.json" --nodes 8 --nvl
G=$(dirname "$0")/../golden/slurm-conf/gb200-nvl72x4.block.conf
"$TP" discover --slurm-topology "$G" -o "$TMP/gb.json" 2>/dev/null
expect_rc 0 "GB200 block file: 16 nodes in one rack" "$TP" place "$TMP/gb.json" --nodes 16 --nvl

# 10. adapters without a node description are no Slurm nodes
"$TP" discover --ibnetdiscover "$IB/topograph-dgxh100-ndr-plane1.ibnetdiscover.txt" -o "$TMP/tg.json" 2>/dev/null
expect_rc 0 "slurm-conf on a fabric with GUID-named adapters" "$TP" slurm-conf "$TMP/tg.json" --format tree -o "$TMP/topology.conf"
check "no Nodes=H-<guid>" bash -c "! grep -E '^SwitchName=.*Nodes=.*H-[0-9a-f]{16}' '$TMP/topology.conf'"
check "no miscabled? warning" bash -c "! grep -q 'miscabled' '$TMP/topology.conf'"
err_has "adapter(s) without a node description are named by GUID and left out"

# 11. a node-name map of another fabric; a fixed-width sacct; MI300A partitions
expect_rc 0 "node-name map matching nothing" "$TP" discover --ibnetdiscover "$IB/topoplace-prompt-bom.ibnetdiscover.txt" --node-name-map "$IB/psmn-x5-qdr.guid-hostname.map" -o "$TMP/x.json"
err_has "psmn-x5-qdr.guid-hostname.map: none of its"
S=$FX/traces/osc-ood-sacct-bridges-fixedwidth.first200.txt
expect_rc 65 "fixed-width sacct" "$TP" whatif "$TMP/diag.json" --trace "$S"
err_has "$S:1: this is sacct's fixed-width table"
err_has "sacct -P"
if grep -q -- '--hwloc ' <<<"$("$TP" discover --help)"; then
  expect_rc 0 "MI300A in CPX mode" "$TP" discover --hwloc "n1=$FX/hwloc/topoplace-tuolumne-mi300a-cpx-variant.xml" -o "$TMP/c.json"
  err_has "24 GPU partitions on 4 device(s)"
fi
finish
