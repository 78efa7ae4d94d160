#!/usr/bin/env bash
# clang-tidy (.clang-tidy's checks) on the C/C++ sources a change touched, every warning an
# error: by default the last commit and what is not committed yet (git diff HEAD~1);
# TOPO_LINT_BASE=REV for everything since REV (e.g. the branch point before a merge).
# Uses BUILD/compile_commands.json. A self-check then runs the same checks on a file with a
# known defect and expects it to be named.   check_tidy.sh REPO BUILD
set -uo pipefail
REPO=${1:?repo}; BUILD=${2:?build dir}
cd "$REPO" || exit 1
command -v clang-tidy >/dev/null || { echo "FAIL - clang-tidy not installed (scripts/setup.sh installs it)"; exit 1; }
[ -f "$BUILD/compile_commands.json" ] || { echo "FAIL - no $BUILD/compile_commands.json"; exit 1; }
PASS=0; FAIL=0
base=${TOPO_LINT_BASE:-HEAD~1}
files=()
if git rev-parse --verify -q "$base" >/dev/null 2>&1; then
  # sources only (headers are checked through them, .clang-tidy HeaderFilterRegex), that the
  # build compiles (tests/fuzz and other builds' files are not in this compile database)
  while read -r f; do
    [ -f "$f" ] && grep -q "\"file\": \"[^\"]*/$f\"" "$BUILD/compile_commands.json" && files+=("$f")
  done < <(git diff --name-only "$base" -- '*.cpp' '*.c' | sort -u)
fi
if [ ${#files[@]} = 0 ]; then
  PASS=$((PASS + 1)); echo "ok   - no compiled C/C++ source changed since $base"
else
  out=$(printf '%s\n' "${files[@]}" | xargs -P 2 -n 1 clang-tidy --quiet -p "$BUILD" 2>/dev/null)
  warns=$(grep -E '(warning|error): ' <<<"$out" | sort -u)
  if [ -z "$warns" ]; then PASS=$((PASS + 1)); echo "ok   - clang-tidy: no warning in the ${#files[@]} source(s) changed since $base"
  else FAIL=$((FAIL + 1)); echo "FAIL - clang-tidy warnings in the sources changed since $base:"; sed 's/^/       /' <<<"$warns"; fi
fi
# self-check: the checks find a known defect (a use after move)
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
cp .clang-tidy "$T/"
cat > "$T/bad.cpp" <<'CPP'
#include <string>
#include <utility>
std::size_t f(std::string s) {
    std::string t = std::move(s);
    return s.size() + t.size();
}
CPP
self=$(clang-tidy --quiet "$T/bad.cpp" -- -std=c++20 2>/dev/null)
if grep -q 'bugprone-use-after-move' <<<"$self"; then
  PASS=$((PASS + 1)); echo "ok   - self-check: a use after move is named"
else FAIL=$((FAIL + 1)); echo "FAIL - self-check: clang-tidy did not name a use after move"; fi
echo "$PASS passed, $FAIL failed"
[ "$FAIL" = 0 ]
