#!/usr/bin/env bash
# discover + show end to end on real fabrics: figures checked by hand, determinism,
# --json keys, --dot output that Graphviz accepts.
set -euo pipefail
TP=$1; FX=$2
. "$(dirname "$0")/lib.sh"
IB=$FX/ibnetdiscover

# Selene compute fabric: 458 DGX (8 rails), 11 service hosts, 666 switches in 3 tiers.
"$TP" discover --ibnetdiscover "$IB/selene-compute.ibnetdiscover.txt.gz" -o "$TMP/selene.json" 2>"$TMP/err"
"$TP" show "$TMP/selene.json" --json > "$TMP/selene.show.json"
J=$TMP/selene.show.json
eq "selene hosts" "$(jq .hosts "$J")" 469
eq "selene compute hosts" "$(jq .compute_hosts "$J")" 458
eq "selene switches" "$(jq .switches "$J")" 666
eq "selene tiers" "$(jq .tiers "$J")" 3
eq "selene rails" "$(jq .rails "$J")" 8
eq "selene gpus (no node description given)" "$(jq .gpus "$J")" 0
eq "selene nics" "$(jq .nics "$J")" 3675
eq "selene nvlink_domains" "$(jq .nvlink_domains "$J")" 0
eq "selene groups" "$(jq '.groups | length' "$J")" 28
eq "selene DGX groups" "$(jq '[.groups[] | select(.[0] | startswith("luna-"))] | length' "$J")" 25
eq "first SU" "$(jq -r '.groups[0] | length' "$J")" 20
eq "no SHARP node is a host" "$(jq '[.groups[][] | select(test("Aggregation|^sysimg"))] | length' "$J")" 0
eq "every luna host in a group of luna hosts only" "$(jq '[.groups[] | select((map(startswith("luna-")) | unique | length) > 1)] | length' "$J")" 0
err_has "skipped 666 SHARP aggregation node(s)"

# Same input, byte-identical output; the snapshot survives load/save.
"$TP" discover --ibnetdiscover "$IB/selene-compute.ibnetdiscover.txt.gz" -o "$TMP/selene2.json" 2>/dev/null
check "discover is deterministic" cmp -s "$TMP/selene.json" "$TMP/selene2.json"
check "snapshot names its schema and version" grep -q '"schema": "topoplace.snapshot"' "$TMP/selene.json"

# Human summary, scontrol style
"$TP" show "$TMP/selene.json" > "$TMP/selene.txt"
check "text summary" grep -q '^   Switches=666 Tiers=3 Rails=8' "$TMP/selene.txt"
check "text groups use hostlists" grep -q '^Group=g001 Hosts=luna-\[0001-0020\] Leaves=LG01-01,' "$TMP/selene.txt"

# Graphviz
"$TP" show "$TMP/selene.json" --dot > "$TMP/selene.dot"
if command -v dot >/dev/null; then
  check "dot renders the graph" dot -Tsvg -o "$TMP/selene.svg" "$TMP/selene.dot"
  check "svg has content" test -s "$TMP/selene.svg"
else
  check "dot output looks like a graph" grep -q '^graph topoplace {' "$TMP/selene.dot"
fi

# PSMN X5 with its GUID map: 2-level tree, hosts named from the map.
"$TP" discover --ibnetdiscover "$IB/psmn-x5-qdr.ibnetdiscover.txt" --node-name-map "$IB/psmn-x5-qdr.guid-hostname.map" -o "$TMP/psmn.json" 2>/dev/null
"$TP" show "$TMP/psmn.json" --json > "$TMP/psmn.show.json"
eq "psmn switches" "$(jq .switches "$TMP/psmn.show.json")" 11
eq "psmn tiers" "$(jq .tiers "$TMP/psmn.show.json")" 2
eq "psmn rails" "$(jq .rails "$TMP/psmn.show.json")" 1
check "psmn hosts come from the map" jq -e '[.groups[][]] | index("x5570comp1") != null' "$TMP/psmn.show.json"
finish
