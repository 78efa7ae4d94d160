#!/usr/bin/env python3
"""Paired summary of scripts/whatif-eval.sh's replays (issue 16, docs/results/placement-cost.md).

    whatif_paired.py DIR SEEDS [METRIC] [FABRICS]

For each fabric: the mean over seeds of METRIC (default placement_gpu_hours) per policy,
and for every other policy the paired difference other - first (mean +- standard error,
standard deviation) and the seeds on which the first policy is lower / equal / higher.
A replay file missing or without the metric is an error naming it.
"""
import json
import math
import statistics as st
import sys

from whatif_tables import load  # the same reading of the replay files


def main():
    d, seeds = sys.argv[1], int(sys.argv[2])
    metric = sys.argv[3] if len(sys.argv) > 3 else "placement_gpu_hours"
    fabrics = (sys.argv[4] if len(sys.argv) > 4 else "selene,fat2,fat3,gb200").split(",")
    print(f"metric: {metric}, {seeds} seeds, paired differences other - first (mean ± se (sd)); "
          "first lower / equal / higher")
    for f in fabrics:
        runs = load(d, f, seeds)
        pols = list(runs[0].keys())
        vals = {}
        for p in pols:
            try:
                vals[p] = [r[p][metric] for r in runs]
            except KeyError as e:
                sys.exit(f"{d}/{f}: policy {p} has no {e}")
        first = pols[0]
        means = ", ".join(f"{p} {st.mean(vals[p]):.2f}" for p in pols)
        print(f"\n{f}: mean {means}")
        for p in pols[1:]:
            diff = [b - a for a, b in zip(vals[first], vals[p])]
            m = st.mean(diff)
            sd = st.stdev(diff) if len(diff) > 1 else 0.0
            se = sd / math.sqrt(len(diff))
            lo = sum(1 for x in diff if x > 1e-9)
            eq = sum(1 for x in diff if abs(x) <= 1e-9)
            hi = len(diff) - lo - eq
            rel = 100 * m / st.mean(vals[p]) if st.mean(vals[p]) else float("nan")
            print(f"  {p} - {first}: {m:+.2f} ± {se:.2f} ({sd:.2f}); {rel:+.1f} % of {p}'s; "
                  f"{first} lower / equal / higher: {lo} / {eq} / {hi}")


if __name__ == "__main__":
    main()
