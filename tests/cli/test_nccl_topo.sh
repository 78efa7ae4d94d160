#!/usr/bin/env bash
# discover --nccl-topo: NCCL/RCCL topology XML (NCCL_TOPO_DUMP_FILE / NCCL_TOPO_FILE) as the
# node description of hosts; graph files and bad XML refused with file:line.
set -euo pipefail
TP=$1; FX=$2
. "$(dirname "$0")/lib.sh"
NX=$FX/nccl-topo

# Azure ND H100 v5: 8 GPUs, 8 InfiniBand NICs per VM, applied to two named hosts.
expect_rc 0 "ndv5 on two hosts" "$TP" discover --nccl-topo "nd[1-2]=$NX/azure-ndv5-topo.xml" -o "$TMP/ndv5.json"
"$TP" show "$TMP/ndv5.json" --json > "$TMP/ndv5.show.json"
J=$TMP/ndv5.show.json
eq "ndv5 hosts" "$(jq .hosts "$J")" 2
eq "ndv5 gpus" "$(jq .gpus "$J")" 16
eq "ndv5 nics" "$(jq .nics "$J")" 16

# AMD MI300X, 8 NICs (RCCL's own topology file)
expect_rc 0 "mi300x" "$TP" discover --nccl-topo "mi[1]=$NX/rccl-topo_8p_940-mi300x-8nic.xml" -o "$TMP/mi.json"
"$TP" show "$TMP/mi.json" --json > "$TMP/mi.show.json"
eq "mi300x gpus" "$(jq .gpus "$TMP/mi.show.json")" 8
eq "mi300x nics" "$(jq .nics "$TMP/mi.show.json")" 8

# the same input twice gives the same snapshot
"$TP" discover --nccl-topo "nd[1-2]=$NX/azure-ndv5-topo.xml" -o "$TMP/ndv5b.json" 2>/dev/null
check "deterministic" cmp -s "$TMP/ndv5.json" "$TMP/ndv5b.json"

# refusals
expect_rc 65 "graph file refused" "$TP" discover --nccl-topo "$NX/azure-ncv4-graph.xml" -o "$TMP/x.json"
err_has "azure-ncv4-graph.xml:1:"
err_has "graph file"
printf '<system version="1">\n  <cpu numaid="0">\n    <pci busid="0000:07:00.0"\n' > "$TMP/cut.xml"
expect_rc 65 "truncated XML" "$TP" discover --nccl-topo "$TMP/cut.xml" -o "$TMP/x.json"
err_has "cut.xml:"
printf '\x00\x01\x02binary' > "$TMP/bin.xml"
expect_rc 65 "binary file" "$TP" discover --nccl-topo "$TMP/bin.xml" -o "$TMP/x.json"
expect_rc 66 "missing file" "$TP" discover --nccl-topo "$TMP/none.xml" -o "$TMP/x.json"
check "nothing written on error" test ! -e "$TMP/x.json"
finish
