#!/usr/bin/env bash
# topoplace slurm-conf --check FILE [--slurm-version X.Y] [--slurm-conf slurm.conf] (issue 28):
# exit 0 clean, 65 with findings, 66 unreadable, 64 usage; each finding at file:line with
# its release, severity and source in Slurm. The live slurmctld side: tests/lab/t-topocheck.sh.
set -euo pipefail
TP=$1; FX=$2
. "$(dirname "$0")/lib.sh"
C="$FX/slurm-conf/check"
G="$(dirname "$0")/../golden/slurm-conf"
{ cat "$C/slurm.conf"; echo "TopologyPlugin=topology/tree"; } > "$TMP/tree.slurm.conf"
{ cat "$C/slurm.conf"; echo "TopologyPlugin=topology/block"; } > "$TMP/block.slurm.conf"

expect_rc 0 "a clean tree, all releases" "$TP" slurm-conf --check "$C/tree-good.conf" --slurm-conf "$TMP/tree.slurm.conf"
eq "one clean line per release" "$(cat "$TMP/out")" "$(printf 'Slurm 22.05: clean\nSlurm 24.11: clean\nSlurm 26.05: clean')"
expect_rc 0 "our generated tree (golden two-tier)" "$TP" slurm-conf --check "$G/two-tier.topology.conf"
expect_rc 0 "our generated block on 24.11" "$TP" slurm-conf --check "$G/gb200-nvl72x4.block.conf" --slurm-version 24.11
expect_rc 0 "our generated topology.yaml on 26.05" "$TP" slurm-conf --check "$G/gb200-nvl72x4.topology.yaml" --slurm-version 26.05

expect_rc 65 "both Nodes= and Switches=" "$TP" slurm-conf --check "$C/tree-both.conf"
check "fatal at file:line for each release, with Slurm's source" grep -qF \
  "$C/tree-both.conf:4: 24.11: fatal: tree-both-nodes-and-switches: switch top has both Nodes= and Switches=" "$TMP/out"
check "the rule's source" grep -qF "[Slurm: src/plugins/topology/tree/switch_record.c:_parse_switches]" "$TMP/out"
check "summary per release" grep -qxF "Slurm 26.05: 1 fatal, 0 misplaces, 0 warning" "$TMP/out"

expect_rc 65 "invalid BlockSizes, fatal on 24.11 and 26.05" "$TP" slurm-conf --check "$C/block-sizes-bad.conf" --slurm-conf "$TMP/block.slurm.conf"
check "24.11 BlockSizes" grep -qF "block-sizes-bad.conf:4: 24.11: fatal: block-sizes-invalid: BlockSizes=4,12: 12 is 3 x the base size" "$TMP/out"
check "26.05 BlockSizes" grep -qF "block-sizes-bad.conf:4: 26.05: fatal: block-sizes-invalid: BlockSizes=4,12" "$TMP/out"

expect_rc 65 "empty topology.yaml" "$TP" slurm-conf --check "$C/empty.yaml" --slurm-version 26.05
check "empty yaml is fatal on 26.05" grep -qF "empty.yaml: 26.05: fatal: yaml-empty: empty topology.yaml" "$TMP/out"
expect_rc 65 "topology.yaml on 24.11" "$TP" slurm-conf --check "$C/good.yaml" --slurm-version 24.11
check "not read by 24.11" grep -qF "24.11: misplaces: yaml-not-read: Slurm 24.11 reads no topology.yaml" "$TMP/out"
expect_rc 0 "the same on 26.05" "$TP" slurm-conf --check "$C/good.yaml" --slurm-version 26.05

expect_rc 65 "a switch name past Slurm's hostlist parser" "$TP" slurm-conf --check "$C/tree-overflow.conf" --slurm-version 22.05
check "overflow named" grep -qF "reads it back as sw18446744073709551615" "$TMP/out"
expect_rc 65 "nodes slurm.conf does not define" "$TP" slurm-conf --check "$C/tree-undefined-nodes.conf" --slurm-conf "$TMP/tree.slurm.conf"
check "undefined nodes at their switch's line" grep -qF "tree-undefined-nodes.conf:3: 22.05: misplaces: tree-undefined-nodes: switch leaf2: 2 node(s) not defined in slurm.conf: n[09-10]" "$TMP/out"
expect_rc 0 "the same without --slurm-conf" "$TP" slurm-conf --check "$C/tree-undefined-nodes.conf"
expect_rc 65 "a switch with no path to the others" "$TP" slurm-conf --check "$C/tree-disconnected.conf"
check "disconnected" grep -qF "tree-disconnected.conf:5: 26.05: misplaces: tree-disconnected: switch leaf3 (2 nodes) has no path to switch top" "$TMP/out"
expect_rc 65 "a tree file where slurm.conf says topology/block" "$TP" slurm-conf --check "$C/tree-good.conf" --slurm-conf "$TMP/block.slurm.conf" --slurm-version 24.11
check "unknown key" grep -qF "tree-good.conf:2: 24.11: fatal: conf-unknown-key: key SwitchName is not one topology/block reads" "$TMP/out"
expect_rc 65 "anyone's file: Slurm's own disconnected test topology" "$TP" slurm-conf --check "$FX/slurm-topology/slurm-testsuite-tree-disconnected.topology.conf"

# bad input: a clear error, never a crash
head -c 3000 /dev/urandom > "$TMP/bin.conf"; printf '\0' >> "$TMP/bin.conf"
expect_rc 65 "binary data" "$TP" slurm-conf --check "$TMP/bin.conf"
printf -- '- topology: a\n  tree: [\n' > "$TMP/broken.yaml"
expect_rc 65 "broken YAML" "$TP" slurm-conf --check "$TMP/broken.yaml" --slurm-version 26.05
check "YAML error at its line" grep -qE "broken.yaml:[23]: 26.05: fatal: yaml-syntax: not YAML" "$TMP/out"
expect_rc 66 "missing file" "$TP" slurm-conf --check "$TMP/none.conf"
err_has "$TMP/none.conf"
expect_rc 66 "missing slurm.conf" "$TP" slurm-conf --check "$C/tree-good.conf" --slurm-conf "$TMP/none.slurm.conf"
printf 'NodeName=n[3-1] CPUs=1\n' > "$TMP/bad.slurm.conf"
expect_rc 65 "bad NodeName hostlist in slurm.conf" "$TP" slurm-conf --check "$C/tree-good.conf" --slurm-conf "$TMP/bad.slurm.conf"
err_has "$TMP/bad.slurm.conf:1:"
expect_rc 64 "--check with a snapshot" "$TP" slurm-conf snap.json --check "$C/tree-good.conf"
expect_rc 64 "--check for a release it does not know" "$TP" slurm-conf --check "$C/tree-good.conf" --slurm-version 23.11
expect_rc 64 "--slurm-conf without --check" "$TP" slurm-conf snap.json --slurm-conf "$TMP/tree.slurm.conf"
expect_rc 64 "no snapshot and no --check" "$TP" slurm-conf
err_has "a snapshot is required"

# the generator checks what it writes
"$TP" discover --spec "$FX/specs/gb200-nvl72x4.yaml" -o "$TMP/nvl.json" 2>/dev/null
expect_rc 0 "the generator: a clean block file" "$TP" slurm-conf "$TMP/nvl.json" --format block --slurm-version 24.11 -o "$TMP/b.conf"
check "no check line for a clean file" bash -c "! grep -q 'topoplace: check:' '$TMP/err'"
expect_rc 0 "which the checker passes" "$TP" slurm-conf --check "$TMP/b.conf" --slurm-version 24.11
# a name template that gives 72-character switch names: 24.11 refuses SwitchName over 64
long=$(printf 'x%.0s' $(seq 66))
expect_rc 70 "the generator refuses what 24.11 would exit on" "$TP" slurm-conf "$TMP/nvl.json" --format tree --slurm-version 24.11 --name-template "${long}{kind}{n}" -o "$TMP/long.conf"
err_has "24.11: fatal: tree-name-too-long: SwitchName"
err_has "slurmctld 24.11 would exit on this file; nothing written"
check "nothing written" test ! -e "$TMP/long.conf"
expect_rc 0 "the same names for 22.05 (no length limit there)" "$TP" slurm-conf "$TMP/nvl.json" --format tree --slurm-version 22.05 --name-template "${long}{kind}{n}" -o "$TMP/long.conf"
finish
