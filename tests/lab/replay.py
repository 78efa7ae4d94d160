#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# A live replay of a seeded trace on the lab (issue 31 item 5), in three steps:
#   replay.py gen --seed S --jobs N --load L --nodes 64 --max-nodes 16 --dur MIN:MAX > trace.csv
#       the trace (topoplace whatif's CSV: submit_s,duration_s,nodes,gpus_per_node,timelimit_s):
#       Poisson arrivals at offered load L, sizes drawn from SIZES up to --max-nodes, durations
#       uniform in [MIN, MAX] seconds. Ours (generated here), not a site's.
#   replay.py spec --seed S --nodes 64 [--shuffle] > spec.yaml
#       the lab's 3-level fabric (16 leaves x 4, 4 spines of 4 leaves, 1 core) as a cluster
#       spec; --shuffle declares the nodes in a seeded order, so leaf membership no longer
#       follows node numbering.
#   replay.py run trace.csv --map map.txt [-- SBATCH_ARGS...]
#       submits each job at its time (sbatch --exclusive -N n --wrap "sleep d"), waits until
#       the queue is empty; map.txt: "jobid index submit_epoch" per job.
#   replay.py judge --map map.txt --jobcomp jobcomp.txt --topology topology.conf
#                   [--degraded n001,n002] [--predict 'topoplace predict SNAP'] --label L
#       per multi-node job at its real start (jobcomp StartTime, ties broken by job id): leaf
#       switches and spines used against what the nodes free at that moment allow; whether a
#       placement free then dominated it (no more leaves and spines, fewer of one); whether it
#       waited; degraded hosts while enough others were free; the predicted slowdown and
#       GPU-hours lost to placement (topoplace predict, the other running jobs as sharing).
#       Prints one JSON object.
import argparse
import itertools
import json
import random
import re
import shlex
import subprocess
import sys
import tempfile
import time

SIZES = [1, 2, 3, 4, 5, 6, 8, 10, 12, 16]


def gen(a):
    rng = random.Random(a.seed)
    lo, hi = (float(x) for x in a.dur.split(":"))
    sizes = [s for s in SIZES if s <= a.max_nodes]
    jobs = []
    for _ in range(a.jobs):
        jobs.append((rng.choice(sizes), rng.uniform(lo, hi)))
    mean_work = sum(n * d for n, d in jobs) / len(jobs)
    rate = a.load * a.nodes / mean_work  # arrivals per second
    t = 0.0
    print("submit_s,duration_s,nodes,gpus_per_node,timelimit_s")
    for n, d in jobs:
        # the limit Slurm gets: sbatch -t takes whole minutes (run() rounds up), and backfill
        # plans its reservations on that, so the what-if must too
        lim = int(d * 2 + 60)
        print(f"{t:.1f},{d:.1f},{n},8,{max(1, (lim + 59) // 60) * 60}")
        t += rng.expovariate(rate)


def spec(a):
    names = [f"n{i:03d}" for i in range(1, a.nodes + 1)]
    if a.shuffle:
        random.Random(a.seed).shuffle(names)
    print("# The lab's 3-level tree (tree-16x4.yaml), nodes declared in %s order. Written by the"
          % ("a seeded shuffled (seed %d)" % a.seed if a.shuffle else "numeric"))
    print("# topoplace authors for the live replay (tests/lab/replay.py).")
    print("version: 1\nname: replay-%s\nnodes:" % ("shuffled" if a.shuffle else "numbered"))
    for n in names:
        print(f"  - names: {n}\n    gpus: {{count: 8, model: NVIDIA H100 80GB HBM3}}")
    print("fabric:\n  hosts_per_leaf: 4\n  sus_per_pod: 4\n  spines: 1\n  cores: 1\n  gbps: 200\n  rate: 4xHDR")


def run(a, extra):
    jobs = []
    with open(a.trace) as f:
        next(f)
        for i, line in enumerate(f):
            s, d, n, _g, lim = line.strip().split(",")
            jobs.append((i, float(s), float(d), int(n), int(lim)))
    t0 = time.time() + 1
    with open(a.map, "w") as m:
        for i, s, d, n, lim in jobs:
            wait = t0 + s - time.time()
            if wait > 0:
                time.sleep(wait)
            cmd = ["sbatch", "--parsable", "--exclusive", "-N", str(n), "-t", str(max(1, (lim + 59) // 60)),
                   "-J", f"r{i}", "-o", "/dev/null"] + extra + ["--wrap", f"exec sleep {d:.1f}"]
            p = subprocess.run(cmd, capture_output=True, text=True)
            if p.returncode != 0:
                print(f"replay: job {i}: sbatch failed: {p.stderr.strip()}", file=sys.stderr)
                m.write(f"- {i} {time.time():.3f}\n")
                continue
            m.write(f"{p.stdout.strip().split(';')[0]} {i} {time.time():.3f}\n")
            m.flush()
    deadline = time.time() + a.timeout
    while time.time() < deadline:
        q = subprocess.run(["squeue", "-h", "-o", "%i"], capture_output=True, text=True).stdout.strip()
        if not q:
            return 0
        time.sleep(1)
    print("replay: the queue did not drain", file=sys.stderr)
    return 1


def expand(hl):
    out = []
    for part in re.findall(r"[^,\[]+(?:\[[^\]]*\])?", hl):
        m = re.match(r"^(.*)\[(.*)\]$", part)
        if not m:
            out.append(part)
            continue
        pre, body = m.groups()
        for r in body.split(","):
            if "-" in r:
                lo, hi = r.split("-")
                out += [f"{pre}{i:0{len(lo)}d}" for i in range(int(lo), int(hi) + 1)]
            else:
                out.append(pre + r)
    return out


def read_topology(path):
    leaf_of, spine_of_leaf = {}, {}
    for line in open(path):
        kv = dict(re.findall(r"(\w+)=(\S+)", line))
        if "SwitchName" not in kv:
            continue
        if "Nodes" in kv:
            for n in expand(kv["Nodes"]):
                leaf_of[n] = kv["SwitchName"]
        elif "Switches" in kv:
            subs = expand(kv["Switches"])
            if all(s in set(leaf_of.values()) for s in subs):
                for s in subs:
                    spine_of_leaf[s] = kv["SwitchName"]
    return leaf_of, spine_of_leaf


def ts(s):
    return time.mktime(time.strptime(s, "%Y-%m-%dT%H:%M:%S"))


def judge(a):
    leaf_of, spine_of_leaf = read_topology(a.topology)
    nodes = sorted(leaf_of)
    degraded = set(x for x in (a.degraded or "").split(",") if x)
    submit = {}
    for line in open(a.map):
        j, i, t = line.split()
        if j != "-":
            submit[j] = float(t)
    jobs = {}
    for line in open(a.jobcomp):
        kv = dict(re.findall(r"(\w+)=(\S+)", line))
        j = kv.get("JobId")
        if j not in submit or kv.get("StartTime", "Unknown") == "Unknown":
            continue
        hosts = expand(kv["NodeList"]) if kv.get("NodeList", "(null)") != "(null)" else []
        if not hosts:
            continue
        jobs[j] = {"start": ts(kv["StartTime"]), "end": ts(kv["EndTime"]), "hosts": hosts, "id": int(j)}
    # slurmctld.log's millisecond times, where it has them: who started a job (the main
    # scheduler or backfill, which cannot use nodes it reserved for higher-priority jobs) and
    # when each job ended; they order starts and ends inside one second of jobcomp
    # which jobs job_submit.lua applied a plan to (its log line comes just before the
    # submission's own), for the submission path's share of planned jobs
    planned = set()
    if a.ctld_log:
        last_plan = False
        for line in open(a.ctld_log, errors="replace"):
            if re.search(r"lua: topoplace: uid \d+ \S+ plan \(predicted", line):
                last_plan = True
                continue
            m = re.search(r"_slurm_rpc_submit_batch_job: JobId=(\d+)", line)
            if m:
                if last_plan:
                    planned.add(m.group(1))
                last_plan = False
    if a.ctld_log:
        lt = lambda s_: time.mktime(time.strptime(s_[:19], "%Y-%m-%dT%H:%M:%S")) + float("0" + s_[19:])
        for line in open(a.ctld_log, errors="replace"):
            # backfill's start line: info() up to 24.11; on 26.05 only under DebugFlags=HetJob at
            # SlurmctldDebug=verbose (backfill.c _start_job: log_flag(HETJOB, ...)), which
            # t-replay.sh sets
            m = re.match(r"^\[([0-9T:.-]+)\] (?:sched: Allocate JobId=(\d+) |sched/backfill: _start_job: (?:HETJOB: )?Started JobId=(\d+) |_job_complete: JobId=(\d+) done)", line)
            if not m:
                continue
            t, main, bf, done = m.groups()
            j = main or bf or done
            if j not in jobs:
                continue
            if done:
                jobs[j]["end"] = lt(t)
            else:
                jobs[j]["start"] = lt(t)
                jobs[j]["via"] = "main" if main else "backfill"
    # topology/topoplace's trace=yes lines: per job, what Slurm offered at each eval_nodes
    # call, topoplace's choice and what topology/tree allocated in it. The offer of the call
    # that allocated the job's nodes is the real one: what backfill left after its
    # reservations for higher-priority jobs (the "free" set above cannot know them).
    traced = {}
    if a.ctld_log:
        for line in open(a.ctld_log, errors="replace"):
            m = re.search(r"^\[([0-9T:.-]+)\] topology/topoplace: trace JobId=(\d+) offer=(\S+) chose=(\S+)(?: allocated=(\S+))?", line)
            if m and m.group(2) in jobs:
                traced.setdefault(m.group(2), []).append((lt(m.group(1)),) + m.groups()[2:])
    for j, x in jobs.items():
        hit = [t for t in traced.get(j, []) if t[3] and t[3] != "-" and sorted(expand(t[3])) == sorted(x["hosts"])]
        if "via" not in x:
            # no start line (a log without backfill's): the last call that allocated exactly
            # its nodes inside jobcomp's start second is the start; jobcomp's whole second
            # alone puts a backfill start before a main-scheduler start later in that second
            # and counts that job's nodes as free
            inside = [t for t in hit if x["start"] <= t[0] < x["start"] + 1.0]
            if inside:
                x["start"] = inside[-1][0]
                x["via"] = "eval_nodes trace"
        if hit:
            x["slurm_offer"] = expand(hit[-1][1])
            x["slurm_chose"] = expand(hit[-1][2])
    order = sorted(jobs.values(), key=lambda x: (x["start"], x["id"]))
    all_spines = sorted(set(spine_of_leaf.values()))

    def achievable(free, n):
        # the (leaves, spines) pairs achievable on the free nodes: for each set of spines, the
        # fewest leaves under them holding n nodes; judged against the acceptable placements:
        # on healthy hosts when enough are free (a multi-node job belongs on a degraded host
        # only when nothing else fits), else on all the healthy ones and as few degraded
        # ones as make up the count (one degraded host more than needed is one straggler
        # more: not a placement to be measured against)
        healthy = [h for h in free if h not in degraded]
        if len(healthy) >= n:
            pools = [healthy]
        else:
            sick = sorted(h for h in free if h in degraded)
            pools = [healthy + list(c) for c in itertools.combinations(sick, n - len(healthy))] or [free]
        best = []
        for pool in pools:
            free_by_leaf = {}
            for h in pool:
                free_by_leaf[leaf_of[h]] = free_by_leaf.get(leaf_of[h], 0) + 1
            for k in range(1, len(all_spines) + 1):
                for ss in itertools.combinations(all_spines, k):
                    counts = sorted((c for lf, c in free_by_leaf.items() if spine_of_leaf.get(lf) in ss), reverse=True)
                    got, used = 0, 0
                    for c in counts:
                        if got >= n:
                            break
                        got += c
                        used += 1
                    if got >= n:
                        best.append((used, k))
        return best

    def dominated_by(best, row):
        return any(l <= row["leaves"] and s <= row["spines"] and (l < row["leaves"] or s < row["spines"])
                   for l, s in best)

    def more_degraded_than_needed(row, pool, n):
        # on more degraded hosts than the pool makes necessary (none when it holds n healthy)
        return row["degraded"] > max(0, n - len([h for h in pool if h not in degraded]))

    rows = []
    for x in order:
        n = len(x["hosts"])
        # busy at its start: jobs started before it (same second: lower id) and not yet ended
        busy, others = set(), []
        for y in order:
            if y is x:
                continue
            before = (y["start"], y["id"]) < (x["start"], x["id"])
            if before and y["end"] > x["start"]:
                busy.update(y["hosts"])
                others.append(y["hosts"])
        free = [h for h in nodes if h not in busy]
        leaves = {leaf_of[h] for h in x["hosts"]}
        spines = {spine_of_leaf.get(leaf_of[h]) for h in x["hosts"]}
        row = {"job": x["id"], "nodes": n, "hosts": ",".join(x["hosts"]), "start": x["start"], "via": x.get("via", "?"), "leaves": len(leaves), "spines": len(spines),
               "wait_s": max(0.0, x["start"] - submit[str(x["id"])]),
               "degraded": len(degraded & set(x["hosts"])), "planned": str(x["id"]) in planned}
        if n >= 2:
            best = achievable(free, n)
            row["bound_leaves"] = min((b[0] for b in best), default=row["leaves"])
            row["dominated"] = dominated_by(best, row)
            row["degraded_while_others_fit"] = more_degraded_than_needed(row, free, n)
            # For information: the same judgement without the free nodes a job queued ahead of
            # this one (lower id, submitted before this start, started later) took at its own
            # start. Backfill holds such nodes for the queue and does not offer them, so what
            # counts as "free" above may not have been Slurm's offer. An estimate from the
            # logs (Slurm logs no reservation): the criteria stay on the fields above.
            held = set()
            for y in order:
                if y["id"] < x["id"] and submit[str(y["id"])] <= x["start"] < y["start"]:
                    held.update(h for h in y["hosts"] if h in free)
            offer = [h for h in free if h not in held]
            row["held_for_queue"] = len(held)
            row["dominated_in_offer"] = dominated_by(achievable(offer, n), row)
            row["degraded_while_others_offered"] = more_degraded_than_needed(row, offer, n)
            if "slurm_offer" in x:  # the real offer (topology/topoplace trace=yes)
                so = x["slurm_offer"]
                row["slurm_offer"] = len(so)
                row["dominated_in_slurm_offer"] = dominated_by(achievable(so, n), row)
                row["degraded_while_others_in_slurm_offer"] = more_degraded_than_needed(row, so, n)
                row["withheld_free"] = len(set(free) - set(so))
            if a.place:
                st = {"hosts": {h: {"state": "alloc"} for h in busy}}
                for h in degraded:
                    if a.place_degraded:
                        st["hosts"].setdefault(h, {"state": "idle"})["slowdown"] = 1.34
                # a private file (no fixed name in /tmp: this runs as root), gone afterwards
                with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
                    json.dump(st, f)
                    f.flush()
                    p = subprocess.run(shlex.split(a.place) + ["--nodes", str(n), "--state", f.name, "--json"],
                                       capture_output=True, text=True)
                try:
                    want = json.loads(p.stdout).get("hosts", [])
                except ValueError:
                    want = []
                row["place_hosts"] = ",".join(want)
                row["same_as_place"] = sorted(want) == sorted(x["hosts"])
                row["same_leaves_as_place"] = {leaf_of[h] for h in want} == leaves
            if a.predict:
                cmd = shlex.split(a.predict) + ["--hosts", ",".join(x["hosts"]), "--json"]
                for o in others:
                    if len({leaf_of[h] for h in o}) > 1:
                        cmd += ["--other-job", ",".join(o)]
                for h in x["hosts"]:
                    if h in degraded:
                        cmd += ["--degraded", h]
                p = subprocess.run(cmd, capture_output=True, text=True)
                try:
                    s = float(json.loads(p.stdout)["s_job"])
                except (ValueError, KeyError):
                    s = None
                row["slowdown"] = s
                if s is not None:
                    run_h = (x["end"] - x["start"]) / 3600.0
                    row["gpu_hours_lost"] = n * 8 * run_h * (1 - 1 / s)
        rows.append(row)
    multi = [r for r in rows if r["nodes"] >= 2]
    waited = [r for r in multi if r["wait_s"] > a.waited_s]
    at_once = [r for r in multi if r["wait_s"] <= a.waited_s]

    def share(rs, key, want):
        return round(100.0 * sum(1 for r in rs if r.get(key) == want) / len(rs), 1) if rs else None

    out = {
        "label": a.label,
        "jobs": len(rows),
        "multi_node": len(multi),
        "waited": len(waited),
        "not_dominated_pct": share(multi, "dominated", False),
        "not_dominated_at_once_pct": share(at_once, "dominated", False),
        "not_dominated_waited_pct": share(waited, "dominated", False),
        "not_dominated_main_pct": share([r for r in multi if r["via"] == "main"], "dominated", False),
        "not_dominated_backfill_pct": share([r for r in multi if r["via"] == "backfill"], "dominated", False),
        "at_leaf_bound_pct": round(100.0 * sum(1 for r in multi if r["leaves"] <= r["bound_leaves"]) / len(multi), 1)
        if multi else None,
        "planned_at_submission": sum(1 for r in multi if r["planned"]),
        "not_dominated_planned_pct": share([r for r in multi if r["planned"]], "dominated", False),
        "not_dominated_unplanned_pct": share([r for r in multi if not r["planned"]], "dominated", False),
        "on_degraded_while_others_fit": sum(1 for r in multi if r.get("degraded_while_others_fit")),
        "not_dominated_in_offer_pct": share(multi, "dominated_in_offer", False),
        "on_degraded_while_others_offered": sum(1 for r in multi if r.get("degraded_while_others_offered")),
        "traced_multi": sum(1 for r in multi if "slurm_offer" in r),
        "not_dominated_in_slurm_offer_pct": share([r for r in multi if "slurm_offer" in r], "dominated_in_slurm_offer", False),
        "on_degraded_while_others_in_slurm_offer": sum(1 for r in multi if r.get("degraded_while_others_in_slurm_offer")),
        "mean_wait_multi_s": round(sum(r["wait_s"] for r in multi) / len(multi), 1) if multi else None,
        "gpu_hours_lost": round(sum(r.get("gpu_hours_lost", 0) for r in multi), 4) if a.predict else None,
        "same_leaves_as_place_pct": share(multi, "same_leaves_as_place", True) if a.place else None,
        "rows": rows,
    }
    print(json.dumps(out))


def main():
    ap = argparse.ArgumentParser()
    sp = ap.add_subparsers(dest="cmd", required=True)
    g = sp.add_parser("gen")
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--jobs", type=int, default=100)
    g.add_argument("--load", type=float, default=0.9)
    g.add_argument("--nodes", type=int, default=64)
    g.add_argument("--max-nodes", type=int, default=16)
    g.add_argument("--dur", default="6:30")
    s = sp.add_parser("spec")
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--nodes", type=int, default=64)
    s.add_argument("--shuffle", action="store_true")
    r = sp.add_parser("run")
    r.add_argument("trace")
    r.add_argument("--map", required=True)
    r.add_argument("--timeout", type=float, default=1800)
    j = sp.add_parser("judge")
    j.add_argument("--map", required=True)
    j.add_argument("--jobcomp", required=True)
    j.add_argument("--topology", required=True)
    j.add_argument("--degraded", default="")
    j.add_argument("--predict", default="")
    j.add_argument("--label", default="")
    j.add_argument("--place", default="", help="'topoplace place SNAP --policy cost': its choice on the state at each start")
    j.add_argument("--ctld-log", default="", help="slurmctld.log: millisecond start/end times, main or backfill")
    j.add_argument("--place-degraded", action="store_true", help="the degraded hosts are flagged in that state")
    j.add_argument("--waited-s", type=float, default=2.0)
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        k = argv.index("--")
        argv, extra = argv[:k], argv[k + 1:]
    a = ap.parse_args(argv)
    if a.cmd == "gen":
        gen(a)
    elif a.cmd == "spec":
        spec(a)
    elif a.cmd == "run":
        sys.exit(run(a, extra))
    else:
        judge(a)


if __name__ == "__main__":
    main()
