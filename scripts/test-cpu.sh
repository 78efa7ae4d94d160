#!/usr/bin/env bash
# The compile-bound stages of scripts/test.sh, each in turn:
#   scripts/test-cpu.sh STAGE...
#     asan            the ASan+UBSan build and its unit + CLI tests (ctest --preset asan)
#     fuzz            each libFuzzer target for FUZZ_SECONDS (clang), seeded with real fixtures
#     package-24.11   the package for Slurm 24.11, built and installed in Debian 13
#     package-26.05   the package for Slurm 26.05, built and installed in Debian sid
#                     (scripts/package-release.sh; its skip, exit 77, is not a failure)
# scripts/test.sh runs them in the background while the live labs run (the labs mostly wait on
# Slurm; these mostly compile) and prints this script's output after the labs. Every stage runs
# even when an earlier one failed; the exit status is the number of stages that failed.
# The last lines say each stage's wall time ("time: N s  STAGE").
set -uo pipefail
cd "$(dirname "$0")/.."
JOBS="${JOBS:-2}"
FUZZ_SECONDS="${FUZZ_SECONDS:-20}"

asan() {
  set -e
  cmake --preset asan >/dev/null
  cmake --build --preset asan -j"$JOBS"
  echo "--- unit + CLI tests (ASan+UBSan)"
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --preset asan -j"$JOBS"
}

fuzz() {
  set -e
  cmake --preset fuzz >/dev/null
  local targets=() src f name work
  for src in tests/fuzz/fuzz_*.cpp; do targets+=("$(basename "$src" .cpp)"); done
  cmake --build --preset fuzz -j"$JOBS" --target "${targets[@]}"
  for f in build/fuzz/tests/fuzz/fuzz_*; do
    [ -x "$f" ] || continue
    name=$(basename "$f")
    work=$(mktemp -d)
    bash tests/fuzz/seed.sh "$name" "$work"   # seed corpus: real fixtures of the parser's own format
    echo "fuzz: $name"
    "$f" -max_total_time="$FUZZ_SECONDS" -rss_limit_mb=2048 -print_final_stats=0 "$work" 2>"$work.log" \
      || { tail -40 "$work.log"; echo "fuzz: $name FAILED (crash input in $work)"; return 1; }
    grep -E '^#[0-9]+.*DONE|Done [0-9]+ runs' "$work.log" | tail -1 || true
    rm -rf "$work" "$work.log"
  done
}

package_release() {
  local rc=0
  JOBS="$JOBS" bash scripts/package-release.sh "$1" || rc=$?
  [ "$rc" = 77 ] && { echo "(skipped: package-release.sh exit 77)"; return 0; }
  return "$rc"
}

failed=0; times=()
for s in "$@"; do
  case "$s" in
    asan) title="ASan+UBSan build, unit + CLI tests (ASan+UBSan)"; fn=(asan) ;;
    fuzz) title="libFuzzer targets (${FUZZ_SECONDS}s each)"; fn=(fuzz) ;;
    package-24.11|package-26.05) title="the package for Slurm ${s#package-}, built and installed in its distribution"; fn=(package_release "${s#package-}") ;;
    *) echo "test-cpu.sh: unknown stage '$s' (asan, fuzz, package-24.11, package-26.05)" >&2; exit 2 ;;
  esac
  printf '\n=== %s ===\n' "$title"
  t0=$(date +%s)
  # a plain statement, not an if: the stage's own set -e holds in its subshell
  ( "${fn[@]}" ); rc=$?
  if [ "$rc" = 0 ]; then st=passed; else st="FAILED, exit $rc"; failed=$((failed + 1)); fi
  times+=("$(printf 'time: %5d s  %s (%s)' $(( $(date +%s) - t0 )) "$s" "$st")")
  echo "=== $s: $st"
done
printf '%s\n' "${times[@]}"
exit "$failed"
