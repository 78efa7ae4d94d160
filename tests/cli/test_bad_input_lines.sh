#!/usr/bin/env bash
# Bad node-description, Slurm and cluster-file input: exit 65 with `file:line: reason`
# where a line can be told; one hwloc XML given for several hosts is accepted.
set -euo pipefail
TP=$1; FX=$2
. "$(dirname "$0")/lib.sh"

: > "$TMP/empty.txt"
expect_rc 65 "empty topology.conf" "$TP" discover --slurm-topology "$TMP/empty.txt" -o "$TMP/x.json"
err_has "$TMP/empty.txt:1: empty file"
expect_rc 65 "empty cluster spec" "$TP" discover --spec "$TMP/empty.txt" -o "$TMP/x.json"
err_has "$TMP/empty.txt:1: empty cluster spec"
head -c 2000 /dev/urandom > "$TMP/bin.dat"; printf '\0' >> "$TMP/bin.dat"
expect_rc 65 "binary topology.conf" "$TP" discover --slurm-topology "$TMP/bin.dat" -o "$TMP/x.json"
err_has "$TMP/bin.dat: not a topology.conf (binary data)"
expect_rc 65 "binary cluster spec" "$TP" discover --spec "$TMP/bin.dat" -o "$TMP/x.json"
err_has "$TMP/bin.dat: not a cluster spec (binary data)"

# A site file with a typo and an overlap (our own copy of the defects, see PROVENANCE.md):
# accepted, with one warning per defect naming file:line, each printed once.
S=$FX/slurm-topology/topoplace-site-typo-overlap.topology.conf
expect_rc 0 "site topology.conf with a typo" "$TP" discover --slurm-topology "$S" -o "$TMP/site.json"
err_has "$S:6: node names n[019-020] do not start with 'gpu-n' like the other 77 nodes (typo?)"
err_has "$S:10: node gpu-n051 under two leaf switches: s2 (line 8) and s4"
eq "warnings printed" "$(grep -c 'warning' "$TMP/err")" 2
# an ibnetdiscover dump's parse warnings, once each too
expect_rc 0 "PuTTY capture" "$TP" discover --ibnetdiscover "$FX/ibnetdiscover/ufm-ndt-hdr-director-puttylog.ibnetdiscover.txt" -o "$TMP/d.json"
eq "'ignored trailing shell prompt' printed" "$(grep -c 'ignored trailing shell prompt' "$TMP/err")" 1

if grep -q -- '--hwloc ' <<<"$("$TP" discover --help)"; then
  X=$FX/hwloc/psmgmt-juwels-booster-a100x4-hdr4.xml
  expect_rc 65 "empty hwloc XML" "$TP" discover --hwloc "h1=$TMP/empty.txt" -o "$TMP/x.json"
  err_has "$TMP/empty.txt:1: empty file, not an hwloc XML topology"
  expect_rc 65 "binary hwloc XML" "$TP" discover --hwloc "h1=$TMP/bin.dat" -o "$TMP/x.json"
  err_has "$TMP/bin.dat: binary data, not an hwloc XML topology"
  printf '\n\ngarbage, not XML\n' > "$TMP/garb.xml"
  expect_rc 65 "garbage hwloc XML" "$TP" discover --hwloc "h1=$TMP/garb.xml" -o "$TMP/x.json"
  err_has "$TMP/garb.xml:3: not XML, so not an hwloc XML topology"
  head -n 40 "$X" > "$TMP/trunc.xml"
  expect_rc 65 "truncated hwloc XML" "$TP" discover --hwloc "h1=$TMP/trunc.xml" -o "$TMP/x.json"
  err_has "$TMP/trunc.xml:40: truncated hwloc XML topology"
  printf '<?xml version="1.0"?>\n<svg/>\n' > "$TMP/other.xml"
  expect_rc 65 "XML that is no hwloc topology" "$TP" discover --hwloc "h1=$TMP/other.xml" -o "$TMP/x.json"
  err_has "$TMP/other.xml: XML without a <topology> element"
  # One XML for two hosts: its NIC GUIDs identify neither; a warning names the file.
  grep -q 'name="NodeGUID"' "$X" || bad "fixture $X has no NodeGUID: this case would not test anything"
  expect_rc 0 "one hwloc XML for two hosts" "$TP" discover --hwloc "nosuch[1-2]=$X" -o "$TMP/two.json"
  err_has "$X: given for 2 hosts (nosuch1, nosuch2); its NIC GUIDs identify none of them"
  eq "hosts" "$("$TP" show --json "$TMP/two.json" | python3 -c 'import json,sys; print(json.load(sys.stdin)["hosts"])')" 2
else
  echo "SKIP: hwloc cases (this build has no hwloc)"
fi
# Issue 17: hostlist bombs in input files are refused before anything is expanded, with
# file:line (a 30-byte topology.conf used to name a million hosts, 2.6 GB and 32 s; a 4 KB
# cluster spec went past 3 GB).
printf 'SwitchName=s0 Nodes=n[0-999999]\n' > "$TMP/bomb.conf"
expect_rc 65 "topology.conf naming a million hosts" "$TP" discover --slurm-topology "$TMP/bomb.conf" -o "$TMP/x.json"
err_has "$TMP/bomb.conf:1: Nodes: more than 65536 names in this file"
{ printf 'SwitchName=s0 Nodes='; head -c 3000 /dev/zero | tr '\0' A; printf '[0-999999]\n'; } > "$TMP/bomb2.conf"
expect_rc 65 "topology.conf with a 3 KB-prefix hostlist" "$TP" discover --slurm-topology "$TMP/bomb2.conf" -o "$TMP/x.json"
err_has "a name longer than 255 characters"
printf 'nodes:\n  - names: n[0-9999999]\n    gpus: {count: 8}\n' > "$TMP/bomb.yaml"
expect_rc 65 "cluster spec naming ten million hosts" "$TP" discover --spec "$TMP/bomb.yaml" -o "$TMP/x.json"
err_has "$TMP/bomb.yaml:2:"

# Issue 17: -o never writes through a planted link nor replaces a device, FIFO or directory
# (discover -o /dev/null used to replace /dev/null with a regular file).
S=$FX/slurm-topology/nstda-tara-dgx1.topology.conf
printf 'precious\n' > "$TMP/victim"; ln -s "$TMP/victim" "$TMP/link.json"
expect_rc 73 "discover -o a symbolic link" "$TP" discover --slurm-topology "$S" -o "$TMP/link.json"
err_has "refusing to replace a symbolic link"
eq "the link's target untouched" "$(cat "$TMP/victim")" precious
mkfifo "$TMP/fifo"
expect_rc 73 "slurm-conf -o a FIFO" "$TP" slurm-conf "$TMP/site.json" -o "$TMP/fifo"
err_has "refusing to replace a FIFO"
if [ "$(id -u)" = 0 ]; then
  mknod "$TMP/null" c 1 3
  expect_rc 73 "discover -o a device node" "$TP" discover --slurm-topology "$S" -o "$TMP/null"
  err_has "refusing to replace a device"
  eq "the device is still a device" "$(stat -c %F "$TMP/null")" "character special file"
  expect_rc 0 "discover -o /dev/null discards" "$TP" discover --slurm-topology "$S" -o /dev/null
  eq "/dev/null is still a device" "$(stat -c %F /dev/null)" "character special file"
fi

finish
