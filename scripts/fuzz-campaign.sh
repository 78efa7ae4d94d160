#!/usr/bin/env bash
# A fuzzing campaign outside CI (issue 17): every libFuzzer target for RUNS executions
# (default one million) from its seed corpus, under -rss_limit_mb=2048, one after the other;
# a crash, leak or OOM stops the campaign with the input kept. Prints one line per target:
# runs, seconds, corpus size, peak RSS.
#   scripts/fuzz-campaign.sh [RUNS] [TARGET...]
# Needs the fuzz build (cmake --preset fuzz && cmake --build --preset fuzz) and build/dev
# for the snapshot seeds.
set -uo pipefail
cd "$(dirname "$0")/.."
RUNS="${1:-1000000}"; shift || true
targets=("$@")
if [ ${#targets[@]} = 0 ]; then for f in build/fuzz/tests/fuzz/fuzz_*; do [ -x "$f" ] && targets+=("$(basename "$f")"); done; fi
[ ${#targets[@]} -gt 0 ] || { echo "no fuzz targets in build/fuzz (cmake --build --preset fuzz)"; exit 1; }
status=0
for name in "${targets[@]}"; do
  f="build/fuzz/tests/fuzz/$name"
  work=$(mktemp -d /tmp/fuzz-campaign.XXXXXX)
  bash tests/fuzz/seed.sh "$name" "$work"
  t0=$(date +%s)
  if "$f" -runs="$RUNS" -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$work/" "$work" >"$work.log" 2>&1; then
    done_line=$(grep -E '^Done [0-9]+ runs' "$work.log" | tail -1)
    rss=$(grep -oE 'rss: [0-9]+Mb' "$work.log" | tail -1)
    echo "$name: ${done_line:-?} ($(( $(date +%s) - t0 )) s), corpus $(ls "$work" | wc -l) files, peak ${rss:-rss ?}"
    rm -rf "$work" "$work.log"
  else
    echo "$name: FAILED after $(( $(date +%s) - t0 )) s; input and log kept in $work, $work.log"
    tail -30 "$work.log"
    status=1
  fi
done
exit $status
