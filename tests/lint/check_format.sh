#!/usr/bin/env bash
# Every C/C++ source of the tree is formatted as .clang-format says (clang-format, the
# version the setup installs). A self-check then misformats a copy of one file and expects
# it to be named.   check_format.sh [REPO]
set -uo pipefail
REPO=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$REPO" || exit 1
command -v clang-format >/dev/null || { echo "FAIL - clang-format not installed (scripts/setup.sh installs it)"; exit 1; }
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.h' '*.c')
else
  mapfile -t files < <(find . -path ./build -prune -o -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' -o -name '*.c' \) -print)
fi
# spank/topology/ is Slurm's code and style (a GPL derivative: Slurm's own sources copied
# unchanged, and the plugin written in Slurm's C style): not ours to reformat
mapfile -t files < <(printf '%s\n' "${files[@]}" | grep -v '^\(\./\)\?spank/topology/')
PASS=0; FAIL=0
bad=()
for f in "${files[@]}"; do
  [ -f "$f" ] || continue
  clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if [ ${#bad[@]} = 0 ]; then PASS=$((PASS + 1)); echo "ok   - ${#files[@]} files formatted as .clang-format says ($(clang-format --version | grep -o 'version [0-9.]*'))"
else FAIL=$((FAIL + 1)); echo "FAIL - not formatted (clang-format -i FILE fixes each):"; printf '       %s\n' "${bad[@]}"; fi
# self-check: a misformatted copy is caught
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
cp .clang-format "$T/"
printf 'int  f( int a ){return a+1;}\n' > "$T/x.cpp"
if ! clang-format --dry-run --Werror "$T/x.cpp" >/dev/null 2>&1; then PASS=$((PASS + 1)); echo "ok   - self-check: a misformatted file is named"
else FAIL=$((FAIL + 1)); echo "FAIL - self-check: a misformatted file passed"; fi
echo "$PASS passed, $FAIL failed"
[ "$FAIL" = 0 ]
