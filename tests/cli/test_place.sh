#!/usr/bin/env bash
# topoplace place: the issue's example through the CLI, JSON fields, exit codes 0/1/64/65/66.
set -euo pipefail
TP=$1; FX=$2
. "$(dirname "$0")/lib.sh"

"$TP" discover --spec "$FX/placement/tree-16x4.yaml" -o "$TMP/tree.json" 2>/dev/null
ST="$FX/placement/issue-example.scontrol.txt"
jq_() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }

# Issue #6: free per leaf [3 3 2 3|0 0 0 0|2 1 2 1|4 2 3 3], 6 nodes.
expect_rc 0 "topo places 6 nodes" "$TP" place "$TMP/tree.json" --nodes 6 --state "$ST" --policy topo --json
cp "$TMP/out" "$TMP/topo.json"
eq "topo hosts" "$(jq_ "$TMP/topo.json" "','.join(d['hosts'])")" "n001,n002,n003,n005,n006,n007"
eq "topo leaves" "$(jq_ "$TMP/topo.json" "len(d['leaves'])")" "2"
eq "topo lower_bound_leaves" "$(jq_ "$TMP/topo.json" "d['lower_bound_leaves']")" "2"
eq "topo max_tier" "$(jq_ "$TMP/topo.json" "d['max_tier']")" "1"
eq "topo spines" "$(jq_ "$TMP/topo.json" "d['switches_per_level'][1]")" "1"
eq "topo policy" "$(jq_ "$TMP/topo.json" "d['policy']")" "topo"
check "topo has an explanation" test -n "$(jq_ "$TMP/topo.json" "d['explanation']")"
eq "topo json has groups, gpus, hop_sum, lower_bound_groups" \
  "$(jq_ "$TMP/topo.json" "all(k in d for k in ['groups','gpus','hop_sum','lower_bound_groups'])")" "True"

expect_rc 0 "slurm-tree places 6 nodes" "$TP" place "$TMP/tree.json" --nodes 6 --state "$ST" --policy slurm-tree --json
cp "$TMP/out" "$TMP/slurm.json"
eq "slurm-tree leaves (what the issue measured)" "$(jq_ "$TMP/slurm.json" "len(d['leaves'])")" "3"
eq "slurm-tree spines" "$(jq_ "$TMP/slurm.json" "d['switches_per_level'][1]")" "2"
eq "slurm-tree max_tier" "$(jq_ "$TMP/slurm.json" "d['max_tier']")" "2"

expect_rc 0 "text output" "$TP" place "$TMP/tree.json" --nodes 6 --state "$ST" --explain
check "text has a compact hostlist" grep -q "NodeList=n\[001-003,005-007\]" "$TMP/out"
check "text explains" grep -q "Explanation: topo:" "$TMP/out"

# the JSON state form, auto-detected
printf '{"hosts": {\n  "n001": {"state": "drain"},\n  "n002": {"state": "alloc"}\n}}\n' > "$TMP/state.json"
expect_rc 0 "json state" "$TP" place "$TMP/tree.json" --nodes 4 --state "$TMP/state.json" --json
eq "drained/busy hosts avoided" "$(jq_ "$TMP/out" "'n001' in d['hosts'] or 'n002' in d['hosts']")" "False"
expect_rc 0 "exclude" "$TP" place "$TMP/tree.json" --nodes 4 --exclude "n[001-004]" --json
eq "excluded hosts avoided" "$(jq_ "$TMP/out" "d['hosts'][0]")" "n005"

# exit 1: busy vs unsatisfiable, said so
expect_rc 1 "more nodes than exist" "$TP" place "$TMP/tree.json" --nodes 65
err_has "unsatisfiable"
expect_rc 1 "more GPUs per node than any host" "$TP" place "$TMP/tree.json" --nodes 1 --gpus-per-node 9
err_has "can never fit"
expect_rc 1 "busy now" "$TP" place "$TMP/tree.json" --nodes 40 --state "$ST"
err_has "busy"
expect_rc 1 "busy with --json" "$TP" place "$TMP/tree.json" --nodes 40 --state "$ST" --json
eq "json error kind" "$(jq_ "$TMP/out" "d['error']")" "busy"

# NVLink domains (GB200 NVL72 racks, 16 of 18 trays usable)
"$TP" discover --spec "$FX/specs/gb200-nvl72x4.yaml" -o "$TMP/gb.json" 2>/dev/null
expect_rc 0 "16 hosts in one NVLink domain" "$TP" place "$TMP/gb.json" --nodes 16 --nvl --json
eq "one domain" "$(jq_ "$TMP/out" "len(d['nvl_domains'])")" "1"
expect_rc 1 "17 hosts in one NVLink domain" "$TP" place "$TMP/gb.json" --nodes 17 --nvl
err_has "the largest domain allows 16"

# Health flag store: flagged hosts are never chosen; a refused store fails closed (69)
# unless --health-fail open (warn, place without the flags).
HS="$TMP/health"
"$TP" health flag n002 --reason "x" --store "$HS" >/dev/null 2>&1
check "health flag wrote a record" test -f "$HS/n002"
expect_rc 0 "topo with a health store" "$TP" place "$TMP/tree.json" --nodes 6 --state "$ST" --health-store "$HS" --json
eq "flagged n002 not chosen" "$(jq_ "$TMP/out" "'n002' in d['hosts']")" "False"
eq "still 6 hosts" "$(jq_ "$TMP/out" "len(d['hosts'])")" "6"
expect_rc 0 "slurm-tree with a health store" "$TP" place "$TMP/tree.json" --nodes 6 --state "$ST" --policy slurm-tree \
  --health-store "$HS" --json
eq "slurm-tree avoids flagged n002 too" "$(jq_ "$TMP/out" "'n002' in d['hosts']")" "False"
"$TP" health flag n001 --reason "x" --store "$HS" >/dev/null 2>&1
"$TP" health flag n003 --reason "x" --store "$HS" >/dev/null 2>&1
expect_rc 0 "leaf 1 fully flagged" "$TP" place "$TMP/tree.json" --nodes 3 --state "$ST" --health-store "$HS" --json
eq "no flagged host chosen" "$(jq_ "$TMP/out" "any(h in d['hosts'] for h in ['n001','n002','n003'])")" "False"
expect_rc 0 "missing store flags nobody" "$TP" place "$TMP/tree.json" --nodes 6 --state "$ST" --health-store "$TMP/nostore" --json
err_has "no health store at"  # the store's one message for every reader (health/flags.hpp)
eq "missing store: the plain choice" "$(jq_ "$TMP/out" "','.join(d['hosts'])")" "n001,n002,n003,n005,n006,n007"
chmod 0666 "$HS/n002"
expect_rc 69 "tampered store fails closed (default)" "$TP" place "$TMP/tree.json" --nodes 6 --state "$ST" --health-store "$HS"
err_has "group/world writable"
expect_rc 69 "tampered store, --health-fail closed" "$TP" place "$TMP/tree.json" --nodes 6 --state "$ST" \
  --health-store "$HS" --health-fail closed
expect_rc 0 "tampered store, --health-fail open" "$TP" place "$TMP/tree.json" --nodes 6 --state "$ST" \
  --health-store "$HS" --health-fail open --json
err_has "warning"
eq "fail open places without the flags" "$(jq_ "$TMP/out" "','.join(d['hosts'])")" "n001,n002,n003,n005,n006,n007"
expect_rc 64 "bad --health-fail" "$TP" place "$TMP/tree.json" --nodes 2 --health-store "$HS" --health-fail maybe

# exit 64: usage
expect_rc 64 "no --nodes" "$TP" place "$TMP/tree.json"
expect_rc 64 "bad policy" "$TP" place "$TMP/tree.json" --nodes 2 --policy best
expect_rc 64 "unknown excluded host" "$TP" place "$TMP/tree.json" --nodes 2 --exclude nope1
expect_rc 64 "segment not dividing" "$TP" place "$TMP/tree.json" --nodes 6 --segment 4

# exit 65: bad state file, named with its line
printf 'NodeName=n001 State=IDLE\nthis is not scontrol output\n' > "$TMP/bad.txt"
expect_rc 65 "bad scontrol state" "$TP" place "$TMP/tree.json" --nodes 2 --state "$TMP/bad.txt"
err_has "$TMP/bad.txt:2:"
printf '{"hosts": {\n  "n001": {"state": "sleepy"}\n}}\n' > "$TMP/bad.json"
expect_rc 65 "bad json state" "$TP" place "$TMP/tree.json" --nodes 2 --state "$TMP/bad.json"
err_has "$TMP/bad.json:2:"
printf '{"hosts": {\n  "n001": {"state": \n' > "$TMP/cut.json"
expect_rc 65 "truncated json state" "$TP" place "$TMP/tree.json" --nodes 2 --state "$TMP/cut.json"
err_has "$TMP/cut.json:"
printf '\x7fELF\x02\x01\x01\x00\x00\x00\nNodeName\x00=\xff\n' > "$TMP/binary.txt"
expect_rc 65 "binary state" "$TP" place "$TMP/tree.json" --nodes 2 --state "$TMP/binary.txt"
# end-time hints: leaf g001 has 2 idle hosts and its jobs end in 100 s, g006 has 3 idle and
# its jobs end in 2000 s; every other host is busy. Best fit alone takes g001; a 30-minute
# job goes where it keeps no group busy past its current end (g006).
python3 - "$TMP/ends.json" <<'PY'
import json, sys
h = {}
for i in range(1, 65):
    n = f"n{i:03d}"
    if i in (3, 4, 22, 23, 24):
        h[n] = {"state": "idle"}
    else:
        h[n] = {"state": "alloc", "ends_in_s": 100 if i <= 4 else 2000 if 21 <= i <= 24 else 50000}
json.dump({"hosts": h}, open(sys.argv[1], "w"), indent=1)
PY
expect_rc 0 "no time limit: best fit" "$TP" place "$TMP/tree.json" --nodes 2 --state "$TMP/ends.json" --json
eq "best fit without hints" "$(jq_ "$TMP/out" "','.join(d['hosts'])")" "n003,n004"
expect_rc 0 "--time-limit 30:00" "$TP" place "$TMP/tree.json" --nodes 2 --state "$TMP/ends.json" --time-limit 30:00 --json
eq "the group whose jobs end after this one" "$(jq_ "$TMP/out" "','.join(d['hosts'])")" "n022,n023"
expect_rc 0 "--time-limit 1 (minute): ends before both groups, best fit again" \
  "$TP" place "$TMP/tree.json" --nodes 2 --state "$TMP/ends.json" --time-limit 1 --json
eq "short job best fit" "$(jq_ "$TMP/out" "','.join(d['hosts'])")" "n003,n004"
expect_rc 64 "bad --time-limit" "$TP" place "$TMP/tree.json" --nodes 2 --time-limit 1-xx
expect_rc 64 "huge --time-limit" "$TP" place "$TMP/tree.json" --nodes 2 --time-limit 99999999999999999999999
printf '{"hosts": {\n  "n001": {"state": "alloc", "ends_in_s": -5}\n}}\n' > "$TMP/badend.json"
expect_rc 65 "negative ends_in_s" "$TP" place "$TMP/tree.json" --nodes 2 --state "$TMP/badend.json"
check "ends_in_s error names file and line" grep -q "badend.json:2:" "$TMP/err"
# --jobs (issue 16): running jobs that span leaf groups share their uplinks; the cost policy keeps
# a spanning job off them. Lab fabric (16 leaf groups of 4 under 4 spines), free per leaf
# [4 4 2 2|0 ...], a running job on n[011-012,015-016] (groups 3 and 4), 6 nodes.
"$TP" discover --spec "$FX/lab/lab-3tier.spec.yaml" -o "$TMP/lab.json" 2>/dev/null
FREE=(4 4 2 2 0 0 0 0 0 0 0 0 0 0 0 0)
for L in $(seq 0 15); do for k in 0 1 2 3; do
  st=IDLE; [ $k -ge "${FREE[$L]}" ] && st=ALLOCATED
  printf 'NodeName=n%03d Arch=x86_64 CPUTot=8 State=%s\n' $((4 * L + k + 1)) $st
done; done > "$TMP/lab-nodes.txt"
printf '%s\n' "JobId=7 JobName=span UserId=alice(1001) JobState=RUNNING Reason=None NodeList=n[011-012,015-016] NumNodes=4" \
  "JobId=8 JobName=one-group UserId=bob(1002) JobState=RUNNING Reason=None NodeList=n[017-020] NumNodes=4" \
  "JobId=9 JobName=waiting UserId=bob(1002) JobState=PENDING Reason=Resources NodeList=(null) NumNodes=6" > "$TMP/lab-jobs.txt"
expect_rc 0 "cost without --jobs" "$TP" place "$TMP/lab.json" -N 6 --state "$TMP/lab-nodes.txt" --policy cost --json
eq "cost without running jobs: topo's groups 1 and 3" "$(jq_ "$TMP/out" "','.join(d['groups'])")" "g001,g003"
expect_rc 0 "cost with --jobs" "$TP" place "$TMP/lab.json" -N 6 --state "$TMP/lab-nodes.txt" --policy cost --jobs "$TMP/lab-jobs.txt" --json
eq "cost keeps off group 3's shared uplinks" "$(jq_ "$TMP/out" "','.join(d['groups'])")" "g001,g002"
check "cost says why" grep -q 'cost: off shared uplinks' "$TMP/out"
expect_rc 0 "topo with --jobs" "$TP" place "$TMP/lab.json" -N 6 --state "$TMP/lab-nodes.txt" --jobs "$TMP/lab-jobs.txt" --policy topo --json
eq "topo ignores the running jobs" "$(jq_ "$TMP/out" "','.join(d['groups'])")" "g001,g003"
err_has "--jobs is read by --policy cost only (1 of 2 running jobs span leaf groups)"
printf 'NodeName=n001 State=IDLE\nJobId=1 JobState=RUNNING NodeList=n001\n' > "$TMP/bad-jobs.txt"
expect_rc 65 "--jobs not a job table" "$TP" place "$TMP/lab.json" -N 2 --policy cost --jobs "$TMP/bad-jobs.txt"
err_has "bad-jobs.txt:1: expected \`scontrol show jobs\` output"
# within a table a stray line or a bad record is skipped by name (issue 32), never the table
printf 'JobId=1 JobState=RUNNING NodeList=n001\nsomething else\nJobId=2 JobState=RUNNING NodeList=n[1-\n' > "$TMP/odd-jobs.txt"
expect_rc 0 "--jobs with a stray line and a bad record" "$TP" place "$TMP/lab.json" -N 2 --policy cost --jobs "$TMP/odd-jobs.txt"
err_has "odd-jobs.txt:2: not part of a job record"
err_has "odd-jobs.txt:3: job 2: node list n[1-: "
expect_rc 66 "--jobs missing" "$TP" place "$TMP/lab.json" -N 2 --policy cost --jobs "$TMP/none-jobs.txt"

# exit 66: missing input
expect_rc 66 "missing state file" "$TP" place "$TMP/tree.json" --nodes 2 --state "$TMP/none.txt"
expect_rc 66 "missing snapshot" "$TP" place "$TMP/none.json" --nodes 2
finish
