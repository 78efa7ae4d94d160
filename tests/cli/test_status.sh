#!/usr/bin/env bash
# topoplace status (issues 16 item 6 and 32 point 1): the running jobs from Slurm's job table
# and what their placement costs. The table is user input: by default it is read from
# `squeue --all --json`, where no name, comment or path can pose as a field; a record that
# cannot be read is skipped by name, and the Prometheus file is written every time.
set -euo pipefail
TP=$1; FX=$2
. "$(dirname "$0")/lib.sh"
P=$FX/placement
jqe() { jq -e "$@" > /dev/null; }
"$TP" discover --spec "$P/tree-16x4.yaml" -o "$TMP/lab.json" 2>/dev/null

# The cost of the jobs' placement and the best one now, on a real fabric (Selene), from
# `scontrol show jobs --oneliner` text (ours, in its layout)
"$TP" discover --ibnetdiscover "$FX/ibnetdiscover/selene-compute.ibnetdiscover.txt.gz" -o "$TMP/selene.json" 2>/dev/null
cat > "$TMP/jobs.txt" <<'J'
JobId=11 JobName=split UserId=a(1) JobState=RUNNING Reason=None NodeList=luna-[0001-0008,0021-0028] NumNodes=16 TRES=cpu=16,node=16,gres/gpu=128 StartTime=2026-11-26T08:00:00
JobId=12 JobName=packed UserId=a(1) JobState=RUNNING Reason=None NodeList=luna-[0041-0056] NumNodes=16 TRES=cpu=16,node=16,gres/gpu=128
JobId=13 JobName=waiting UserId=b(2) JobState=PENDING Reason=Priority NodeList=(null) NumNodes=4
J
expect_rc 0 "status from files" "$TP" status "$TMP/selene.json" --jobs "$TMP/jobs.txt" --json --prometheus "$TMP/status.prom"
check "status: 2 running jobs, 256 GPUs" jqe '.running_jobs == 2 and .running_gpus == 256' "$TMP/out"
check "status: the split job is slower than its best placement now" jqe '.jobs[0].job == "11" and .jobs[0].slowdown > 1 and .jobs[0].best_now == 1' "$TMP/out"
check "status: the packed job costs nothing" jqe '.jobs[1].slowdown == 1' "$TMP/out"
check "status: GPU-hours per hour lost and recoverable" jqe '.placement_lost_gpu_hours_per_hour > 0 and .recoverable_gpu_hours_per_hour > 0' "$TMP/out"
check "status: Prometheus textfile" grep -q '^topoplace_job_slowdown_ratio{job="11"} 1\.' "$TMP/status.prom"
check "status: Prometheus lost GPU-hours" grep -q '^topoplace_placement_lost_gpu_hours_per_hour ' "$TMP/status.prom"
check "status: every best placement searched (none skipped)" bash -c "jq -e '.best_now_skipped == 0' '$TMP/out' >/dev/null && grep -qx 'topoplace_status_best_skipped_jobs 0' '$TMP/status.prom'"
# bounded time (issue 32 point 2): past --max-seconds no best placement is searched, said once
expect_rc 0 "status --max-seconds 0" "$TP" status "$TMP/selene.json" --jobs "$TMP/jobs.txt" --json --max-seconds 0 --prometheus "$TMP/s0.prom"
check "status --max-seconds 0: no best placement, the slowdowns and lost GPU-hours still computed" jqe '.best_now_skipped == 2 and (.jobs[0] | has("best_now") | not) and .jobs[0].slowdown > 1 and .placement_lost_gpu_hours_per_hour > 0 and .recoverable_gpu_hours_per_hour == 0' "$TMP/out"
check "status --max-seconds 0: one note on stderr naming the option" bash -c "[ \"\$(grep -c 'not searched: --max-seconds 0 reached' '$TMP/err')\" = 1 ]"
check "status --max-seconds 0: the Prometheus file says how many" grep -qx 'topoplace_status_best_skipped_jobs 2' "$TMP/s0.prom"
# a degraded host (the flag store) in the packed job: counted apart
mkdir -m 755 "$TMP/hs"
"$TP" health flag luna-0045 --reason "GPU 3 thermal" --degraded --slowdown 1.34 --store "$TMP/hs" > /dev/null
expect_rc 0 "status with the health store" "$TP" status "$TMP/selene.json" --jobs "$TMP/jobs.txt" --health-store "$TMP/hs"
check "status: the job on a degraded host says so" grep -q '^12 .* (on a degraded host)' "$TMP/out"
check "status: degraded GPU-hours in the summary" grep -Eq 'of which to degraded hosts [1-9]' "$TMP/out"

# Real job tables of each release (our labs, with a job named "evil JobState=RUNNING
# NodeList=n[001-004]" on n001 and one named "bad\xffname\nJobState=RUNNING" on n[001-002])
for f in lab-hostile-jobs-22.05.squeue.json lab-hostile-jobs-24.11.squeue.json lab-hostile-jobs-26.05.squeue.json \
         lab-hostile-jobs-26.05.scontrol.json; do
  expect_rc 0 "status --jobs $f" "$TP" status "$TMP/lab.json" --jobs "$P/$f" --json --prometheus "$TMP/s.prom"
  check "$f: jobs 1 (n001) and 2 (n[001-002]), names as data" jqe '.running_jobs == 2 and
      .jobs[0].job == "1" and .jobs[0].nodelist == "n001" and .jobs[0].name == "evil JobState=RUNNING NodeList=n[001-004]"
      and .jobs[1].nodelist == "n[001-002]" and .jobs[1].name == "bad?name?JobState=RUNNING"' "$TMP/out"
  check "$f: Prometheus written" grep -q '^topoplace_job_slowdown_ratio{job="2"} ' "$TMP/s.prom"
done

# The text form of the same tables: the record whose first line carries a second
# JobState=/NodeList= is skipped by name, the rest is read; the metrics are written
for f in lab-hostile-jobs-22.05.scontrol.txt lab-hostile-jobs-26.05.scontrol.txt; do
  rm -f "$TMP/s.prom"
  expect_rc 0 "status --jobs $f (text)" "$TP" status "$TMP/lab.json" --jobs "$P/$f" --prometheus "$TMP/s.prom"
  err_has "$P/$f:1: job 1: JobState= appears twice"
  check "$f: job 2 listed, job 1 not" bash -c "grep -q '^2 ' '$TMP/out' && ! grep -Eq '^1 {5}' '$TMP/out'"
  check "$f: Prometheus written" test -s "$TMP/s.prom"
done

# Issue 32's reproduction: a pending job commented "x JobState=RUNNING NodeList=[" made
# status exit 65 and the Prometheus file was never written again
cat > "$TMP/jobs.txt" <<'J'
JobId=101 JobName=a UserId=u(1) JobState=PENDING Reason=Priority NodeList=(null) NumNodes=1 Comment=x JobState=RUNNING NodeList=[
JobId=102 JobName=b UserId=u(1) JobState=RUNNING Reason=None NodeList=n[005-006] NumNodes=2 AllocTRES=cpu=2,node=2,gres/gpu=16
J
rm -f "$TMP/s.prom"
expect_rc 0 "status: a hostile comment in the text table" "$TP" status "$TMP/lab.json" --jobs "$TMP/jobs.txt" --prometheus "$TMP/s.prom"
check "the hostile record is not read" bash -c "grep -q '^102 ' '$TMP/out' && ! grep -Eq '^101 {5}' '$TMP/out'"
check "Prometheus written" grep -q '^topoplace_running_jobs 1$' "$TMP/s.prom"

# live: squeue itself (a stand-in printing a real 26.05 table), and its failure
printf '#!/bin/sh\n[ "$1 $2" = "--all --json" ] || exit 2\ncat %s\n' "$P/lab-hostile-jobs-26.05.squeue.json" > "$TMP/squeue"
printf '#!/bin/sh\necho "NodeName=n001 State=MIXED Gres=gpu:8 AllocTRES=cpu=3"\necho "NodeName=n002 State=MIXED Gres=gpu:8"\n' > "$TMP/scontrol"
chmod +x "$TMP/squeue" "$TMP/scontrol"
expect_rc 0 "status: live through squeue --json" "$TP" status "$TMP/lab.json" --squeue "$TMP/squeue" --scontrol "$TMP/scontrol" --json
check "live: both running jobs" jqe '.running_jobs == 2 and .nodes_from == "scontrol show nodes"' "$TMP/out"
printf '#!/bin/sh\necho "slurm_load_jobs error: Unable to contact slurm controller" >&2\nexit 1\n' > "$TMP/squeue-down"
chmod +x "$TMP/squeue-down"
expect_rc 69 "status: slurmctld down" "$TP" status "$TMP/lab.json" --squeue "$TMP/squeue-down" --scontrol "$TMP/scontrol"
err_has "--all --json failed (exit 1"
printf 'NodeName=n001 State=IDLE\n' > "$TMP/nodes-not-jobs.txt"
expect_rc 65 "status: not a job table" "$TP" status "$TMP/lab.json" --jobs "$TMP/nodes-not-jobs.txt"
err_has "$TMP/nodes-not-jobs.txt:1: expected \`scontrol show jobs\` output"
printf '{"jobs": [\n{"job_id": 1,}\n]}\n' > "$TMP/bad.json"
expect_rc 65 "status: broken JSON" "$TP" status "$TMP/lab.json" --jobs "$TMP/bad.json"
err_has "$TMP/bad.json:2: not JSON"
finish
