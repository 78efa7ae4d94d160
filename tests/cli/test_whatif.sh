#!/usr/bin/env bash
# topoplace whatif end to end: generated and real traces, --json, --report, progress bar,
# bad traces (exit 65 with file:line), usage errors (64), missing files (66).
set -euo pipefail
TP=$1; FX=$2
. "$(dirname "$0")/lib.sh"

"$TP" discover --spec "$FX/specs/dgx-h100-3tier.yaml" -o "$TMP/h100.json" 2>/dev/null
S=$TMP/h100.json

expect_rc 0 "generated trace, three policies" "$TP" whatif "$S" --generate 300 --load 0.85 --seed 4
grep -q "topo  *slurm-tree-24  *slurm-tree  *linear" <<<"$(head -n 8 "$TMP/out")" && ok "policies are columns" || bad "no policy columns: $(head -c 600 "$TMP/out")"
grep -q "^jobs finished / in trace  *300 / 300  *300 / 300  *300 / 300" "$TMP/out" && ok "every job finished" || bad "jobs row: $(grep 'jobs finished' "$TMP/out")"
cp "$TMP/out" "$TMP/run1"
expect_rc 0 "same seed again" "$TP" whatif "$S" --generate 300 --load 0.85 --seed 4
cmp -s "$TMP/out" "$TMP/run1" && ok "deterministic for a seed" || bad "two runs with one seed differ"

expect_rc 0 "--json" "$TP" whatif "$S" --generate 200 --policies topo,slurm-tree --json --health-gate both \
    --failures "$FX/failures/llama3-405b-unexpected-interruptions.csv" --checkpoint-interval 1800 --restart-cost 300
eq "json policies" "$(jq -c '.policies | keys_unsorted' "$TMP/out")" '["topo","slurm-tree","topo+gate","slurm-tree+gate"]'
eq "json finished" "$(jq '.policies.topo.finished' "$TMP/out")" 200
eq "json gate flag" "$(jq '.policies["topo+gate"].health_gate' "$TMP/out")" true
jq -e '.failures | test("419 interruptions")' "$TMP/out" >/dev/null && ok "failure model in json" || bad "no failure summary"
jq -e '.policies.topo | has("leaf_groups_mean") and has("leaf_groups_lower_bound_mean") and has("crossing_spine") and has("wait_p95_s") and has("utilization") and has("fragmentation") and has("ettr")' "$TMP/out" >/dev/null \
    && ok "json metrics present" || bad "json lacks metrics"

# A real trace: Alibaba OpenB GPU pods (single-node, 1-8 GPUs).
expect_rc 0 "real trace (Alibaba OpenB pods)" "$TP" whatif "$S" --trace "$FX/traces/alibaba-openb2023-pods-default.csv" --policies topo --json
eq "openb jobs replayed" "$(jq '.policies.topo.jobs' "$TMP/out")" 6203
err_has "rows skipped"

# The report and the progress bar.
expect_rc 0 "--report with --progress" "$TP" whatif "$S" --generate 300 --report "$TMP/rep" --progress
err_has "whatif ["
err_has "100%"
[ -s "$TMP/rep/index.html" ] && ok "index.html written" || bad "no index.html"
eq "svg plots" "$(grep -c '<svg ' "$TMP/rep/index.html")" 5
check "the report leads with GPU-hours (the default first policy, cost, against Slurm 24.11+'s tree)" grep -q '<p id="headline"><b>cost (decided at job start: topology/topoplace, Slurm 24.11+) loses [0-9.]* \(fewer\|more\) GPU-hours to placement and failures than slurm-tree-24 (Slurm alone, 24.11+' "$TMP/rep/index.html"
expect_rc 0 "--no-model" "$TP" whatif "$S" --generate 300 --no-model --report "$TMP/rep0"
eq "svg plots without the model" "$(grep -c '<svg ' "$TMP/rep0/index.html")" 4
check "no headline without the model" bash -c "! grep -q 'id=\"headline\"' '$TMP/rep0/index.html'"
expect_rc 0 "model columns in JSON" "$TP" whatif "$S" --generate 300 --policies topo,slurm-tree --json
check "placement GPU-hours, slowdown, effective MFU, headline" jq -e '.headline and (.policies.topo.placement_gpu_hours >= 0) and (.policies.topo.slowdown_mean >= 1) and (.policies["slurm-tree"].effective_mfu > 0)' "$TMP/out"
printf 'nope: 1\n' > "$TMP/badmodel.yaml"
expect_rc 65 "a bad --model file" "$TP" whatif "$S" --generate 30 --model "$TMP/badmodel.yaml"
err_has "$TMP/badmodel.yaml:1: unknown key"
grep -q 'https\?://[^"]*"' "$TMP/rep/index.html" && [ "$(grep -o 'https\?://[^" ]*' "$TMP/rep/index.html" | sort -u)" = "http://www.w3.org/2000/svg" ] \
    && ok "no network assets" || bad "network reference in the report"
expect_rc 0 "no progress bar when stderr is not a tty" "$TP" whatif "$S" --generate 50
if grep -qF "whatif [" "$TMP/err"; then bad "progress bar without a tty"; else ok "quiet stderr"; fi

# Bad traces: exit 65, file:line.
printf 'submit_s,duration_s,nodes,gpus_per_node\n0,10,1,8\n3,oops,2,8\n' > "$TMP/bad.csv"
expect_rc 65 "bad CSV trace" "$TP" whatif "$S" --trace "$TMP/bad.csv"
err_has "$TMP/bad.csv:3:"
printf 'JobID|Submit|Elapsed|NNodes\n1|2024-01-01T00:00:00|1-xx:00:00|2\n' > "$TMP/bad.sacct"
expect_rc 65 "bad sacct trace" "$TP" whatif "$S" --trace "$TMP/bad.sacct"
err_has "$TMP/bad.sacct:2: bad Elapsed"
# a TAB-separated sacct -P --format=ALL export (issue 28, ours): read, and said; one without
# the replay's columns is refused naming them
expect_rc 0 "TAB-separated sacct --format=ALL" "$TP" whatif "$S" --trace "$FX/traces/topoplace-sacct-tab-format-all-24.11.tsv"
err_has "read as a TAB-separated sacct -P export (118 columns"
grep -q "^jobs finished / in trace  *3 / 3" "$TMP/out" && ok "3 jobs of the TAB export replayed" || bad "jobs row: $(grep 'jobs finished' "$TMP/out")"
cut -f1-3,35-37 "$FX/traces/topoplace-sacct-tab-format-all-24.11.tsv" > "$TMP/cut.tsv"
expect_rc 65 "TAB-separated sacct without Submit" "$TP" whatif "$S" --trace "$TMP/cut.tsv"
err_has "$TMP/cut.tsv:1: this TAB-separated sacct header lacks the columns the replay needs: Submit, NNodes, Elapsed (or Start and End)"
expect_rc 65 "a node list is not a trace" "$TP" whatif "$S" --trace "$FX/traces/alibaba-openb2023-gpu-nodes.csv"
err_has "alibaba-openb2023-gpu-nodes.csv:1: not a job trace"
expect_rc 65 "failure table without a rate" "$TP" whatif "$S" --generate 10 --failures "$FX/failures/crusoe-h200-gtc25-fault-causes.csv"
err_has "crusoe-h200-gtc25-fault-causes.csv:4:"
head -c 3000 /dev/urandom > "$TMP/binary.trace"
expect_rc 65 "binary trace" "$TP" whatif "$S" --trace "$TMP/binary.trace"

# Usage and missing files.
expect_rc 64 "neither --trace nor --generate" "$TP" whatif "$S"
expect_rc 64 "unknown policy" "$TP" whatif "$S" --generate 10 --policies topo,best
err_has "unknown policy 'best'"
expect_rc 64 "bad --health-gate" "$TP" whatif "$S" --generate 10 --health-gate maybe
expect_rc 66 "missing trace" "$TP" whatif "$S" --trace "$TMP/nope.csv"
expect_rc 66 "missing snapshot" "$TP" whatif "$TMP/nope.json" --generate 10

# The evaluation scripts of docs/results/placement-cost.md on a small run: replays, the paired
# summary, the sensitivity and degraded tables (fields the scripts read must exist).
SC="$(cd "$(dirname "$0")/../.." && pwd)/scripts"
TP="$TP" FABRICS="fat2 gb200" JOBS=300 bash "$SC/whatif-eval.sh" "$TMP/ev" 2 cost,topo,slurm-tree 2>/dev/null
TP="$TP" FABRICS="fat2 gb200" JOBS=300 bash "$SC/whatif-eval.sh" "$TMP/ev-off" 2 cost,topo --degraded 0.05 --degraded-rule off 2>/dev/null
TP="$TP" FABRICS="fat2 gb200" JOBS=300 bash "$SC/whatif-eval.sh" "$TMP/ev-on" 2 cost,topo --degraded 0.05 2>/dev/null
expect_rc 0 "whatif_paired.py" python3 "$SC/whatif_paired.py" "$TMP/ev" 2 placement_gpu_hours fat2,gb200
check "paired: cost first, topo and slurm-tree against it" grep -q '^  slurm-tree - cost: ' "$TMP/out"
cp "$TMP/ev/fat2.s1.json" "$TMP/ev/selene.s1.json"; cp "$TMP/ev/fat2.s2.json" "$TMP/ev/selene.s2.json"
cp "$TMP/ev/fat2.s1.json" "$TMP/ev/fat3.s1.json"; cp "$TMP/ev/fat2.s2.json" "$TMP/ev/fat3.s2.json"
expect_rc 0 "whatif_tables.py sensitivity" python3 "$SC/whatif_tables.py" sensitivity 2 "default=$TMP/ev"
check "sensitivity: one row with four fabrics" grep -Eq '^\| default( \| [0-9,]+ / [-+][0-9,]+ ± [0-9,]+ \([-+][0-9.]+ %\) / [-+][0-9,]+ ± [0-9,]+ \([-+][0-9.]+ %\)){4} \|$' "$TMP/out"
for d in ev-on ev-off; do for f in selene fat3; do for s in 1 2; do cp "$TMP/$d/fat2.s$s.json" "$TMP/$d/$f.s$s.json"; done; done; done
expect_rc 0 "whatif_tables.py degraded" python3 "$SC/whatif_tables.py" degraded 2 "$TMP/ev-on" "$TMP/ev-off"
check "degraded: a row per fabric and policy" test "$(grep -c '^| [a-z0-9]* | \(cost\|topo\) | ' "$TMP/out")" = 8
expect_rc 1 "whatif_tables.py: a missing replay is named" python3 "$SC/whatif_tables.py" sensitivity 3 "default=$TMP/ev"
err_has "selene.s3.json"
finish
