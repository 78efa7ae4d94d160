#!/usr/bin/env python3
"""Markdown tables of scripts/whatif-eval.sh's replays (docs/results/placement-cost.md, issue 16).

    whatif_tables.py sensitivity SEEDS NAME=DIR [NAME=DIR ...]
        one row per model variant (each DIR replayed with cost,topo,slurm-tree): per fabric,
        cost's mean GPU-hours lost to placement, topo - cost and slurm-tree - cost (paired
        mean ± standard error, % of the other's loss).
    whatif_tables.py degraded SEEDS ON_DIR OFF_DIR [POLICY,...]
        the degraded-hosts rule on and off (--degraded-rule on/off), per fabric and policy.

A replay file missing or without a field is an error naming it.
"""
import json
import math
import statistics as st
import sys

FABRICS = ["selene", "fat2", "fat3", "gb200"]


def load(d, f, seeds):
    runs = []
    for s in range(1, seeds + 1):
        path = f"{d}/{f}.s{s}.json"
        try:
            with open(path) as fh:
                runs.append(json.load(fh)["policies"])
        except (OSError, ValueError, KeyError) as e:
            sys.exit(f"{path}: {e}")
    return runs


def field(runs, p, k, where):
    try:
        return [r[p][k] for r in runs]
    except KeyError as e:
        sys.exit(f"{where}: policy {p} has no {e}")


def paired(a, b):
    """b - a: mean, standard error."""
    d = [y - x for x, y in zip(a, b)]
    return st.mean(d), (st.stdev(d) / math.sqrt(len(d)) if len(d) > 1 else 0.0)


def sensitivity(seeds, variants):
    print("| model | " + " | ".join(FABRICS) + " |")
    print("|---|" + "---|" * len(FABRICS))
    for name, d in variants:
        cells = []
        for f in FABRICS:
            runs = load(d, f, seeds)
            c = field(runs, "cost", "placement_gpu_hours", f"{d}/{f}")
            parts = [f"{st.mean(c):,.0f}"]
            for p in ["topo", "slurm-tree"]:
                o = field(runs, p, "placement_gpu_hours", f"{d}/{f}")
                m, se = paired(c, o)
                rel = 100 * m / st.mean(o) if st.mean(o) else float("nan")
                parts.append(f"{m:+,.0f} ± {se:,.0f} ({rel:+.1f} %)")
            cells.append(" / ".join(parts))
        print(f"| {name} | " + " | ".join(cells) + " |")


def degraded(seeds, on_dir, off_dir, policies):
    print("| fabric | policy | degraded hosts | GPU-hours lost to placement: rule on / off | off − on "
          "| of which degraded hosts: on / off | multi-node placements on degraded hosts: on / off "
          "| one-node: on / off | mean wait (s): on − off |")
    print("|---|---|---:|---|---|---|---|---|---|")
    for f in FABRICS:
        on, off = load(on_dir, f, seeds), load(off_dir, f, seeds)
        for p in policies:
            g = lambda runs, k, d: field(runs, p, k, f"{d}/{f}")
            a, b = g(on, "placement_gpu_hours", on_dir), g(off, "placement_gpu_hours", off_dir)
            m, se = paired(a, b)
            diff = [y - x for x, y in zip(a, b)]
            lo = sum(1 for x in diff if x > 1e-9)
            eq = sum(1 for x in diff if abs(x) <= 1e-9)
            hi = len(diff) - lo - eq
            w, wse = paired(g(off, "wait_mean_s", off_dir), g(on, "wait_mean_s", on_dir))
            mean = lambda runs, k, d: st.mean(g(runs, k, d))
            print(f"| {f} | {p} | {mean(on, 'degraded_hosts', on_dir):.2f} | {st.mean(a):,.0f} / {st.mean(b):,.0f} "
                  f"| {m:+,.0f} ± {se:,.0f} ({100 * m / st.mean(b):+.1f} %), on lower / equal / higher "
                  f"{lo} / {eq} / {hi} | {mean(on, 'degraded_gpu_hours', on_dir):,.0f} / "
                  f"{mean(off, 'degraded_gpu_hours', off_dir):,.0f} "
                  f"| {mean(on, 'multi_node_placements_on_degraded', on_dir):.1f} / "
                  f"{mean(off, 'multi_node_placements_on_degraded', off_dir):.1f} "
                  f"| {mean(on, 'single_node_placements_on_degraded', on_dir):.1f} / "
                  f"{mean(off, 'single_node_placements_on_degraded', off_dir):.1f} | {w:+.1f} ± {wse:.1f} |")


def main():
    if len(sys.argv) < 4 or sys.argv[1] not in ("sensitivity", "degraded"):
        sys.exit(__doc__)
    seeds = int(sys.argv[2])
    if sys.argv[1] == "sensitivity":
        variants = []
        for a in sys.argv[3:]:
            if "=" not in a:
                sys.exit(f"{a}: expected NAME=DIR")
            variants.append(tuple(a.split("=", 1)))
        sensitivity(seeds, variants)
    else:
        if len(sys.argv) < 5:
            sys.exit(__doc__)
        pols = (sys.argv[5] if len(sys.argv) > 5 else "cost,topo").split(",")
        degraded(seeds, sys.argv[3], sys.argv[4], pols)


if __name__ == "__main__":
    main()
