#!/usr/bin/env bash
# docs/architecture.md matches the tree: every module it names exists with its targets, and
# its arrows are exactly the project-internal arrows of the code, both kinds:
#   link arrows    target_link_libraries of the module's targets naming another module's target
#   include arrows `#include <topo/SUB/...>` in the module's sources naming another module's
#                  public header folder (placement, perf, slurmconf, health; <topo/X.hpp> is libtopo)
# An arrow in the code but not in the table, or in the table but not in the code, fails.
# A self-check then removes one arrow from a copy of the table and expects the checker to
# name it.   check_architecture.sh [REPO]
set -uo pipefail
REPO=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
DOC=$REPO/docs/architecture.md
PASS=0; FAIL=0
ok()  { PASS=$((PASS + 1)); echo "ok   - $*"; }
bad() { FAIL=$((FAIL + 1)); echo "FAIL - $*"; }

# module -> folder, targets, declared uses (from the table between the markers)
table() { sed -n '/<!-- arrows:begin -->/,/<!-- arrows:end -->/p' "$1" | grep '^| [a-z]' | grep -v '^| module'; }
declare -A FOLDER TARGETS USES OWNER HEADER
load() {
  FOLDER=(); TARGETS=(); USES=(); OWNER=()
  while IFS='|' read -r _ mod folder targets uses _; do
    mod=$(echo "$mod" | xargs); folder=$(echo "$folder" | tr -d '`' | xargs); folder=${folder%/}
    FOLDER[$mod]=$folder; TARGETS[$mod]=$(echo "$targets" | xargs); USES[$mod]=$(echo "$uses" | xargs)
    for t in ${TARGETS[$mod]}; do OWNER[$t]=$mod; done
  done < <(table "$1")
}
HEADER=([placement]=placement [whatif]=whatif [perf]=perf [slurmconf]=slurm-conf [health]=health)

# the arrows of the code, as "from to" lines
code_arrows() {
  for mod in "${!FOLDER[@]}"; do
    local dir=$REPO/${FOLDER[$mod]}
    # link arrows: every topo_* / topoplace name in the module's CMake files
    while read -r t; do
      local to=${OWNER[$t]:-}
      [ -n "$to" ] && [ "$to" != "$mod" ] && echo "$mod $to"
    done < <(find "$dir" -name CMakeLists.txt -exec grep -h 'target_link_libraries' {} + | grep -oE '\btopo_[a-z_]+\b' | sort -u)
    # include arrows
    while read -r sub; do
      local to=${HEADER[$sub]:-}
      [ -n "$to" ] && [ "$to" != "$mod" ] && echo "$mod $to"
    done < <(grep -rhoE '#include <topo/[a-z_]+/' "$dir" --include='*.cpp' --include='*.hpp' --include='*.c' --include='*.h' 2>/dev/null \
             | sed 's|#include <topo/||; s|/$||' | sort -u)
    if grep -rqE '#include <topo/[a-z_]+\.hpp>' "$dir" --include='*.cpp' --include='*.hpp' 2>/dev/null && [ "$mod" != libtopo ]; then
      echo "$mod libtopo"
    fi
  done | sort -u
}
doc_arrows() { for mod in "${!USES[@]}"; do for u in ${USES[$mod]}; do echo "$mod $u"; done; done | sort -u; }

check() {  # check DOCFILE -> prints differences, returns 1 when any
  load "$1"
  local diff_out rc=0
  for mod in "${!FOLDER[@]}"; do
    [ -d "$REPO/${FOLDER[$mod]}" ] || { echo "module $mod: no folder ${FOLDER[$mod]}"; rc=1; }
    for t in ${TARGETS[$mod]}; do
      grep -rqE "add_(library|executable)\(\s*$t\b" "$REPO/${FOLDER[$mod]}" --include=CMakeLists.txt || { echo "module $mod: no target $t"; rc=1; }
    done
  done
  diff_out=$(diff <(doc_arrows) <(code_arrows))
  if [ -n "$diff_out" ]; then
    echo "$diff_out" | sed -n 's/^< /in the table, not in the code: /p; s/^> /in the code, not in the table: /p'
    rc=1
  fi
  return $rc
}

out=$(check "$DOC"); rc=$?
load "$DOC"
if [ $rc = 0 ]; then ok "docs/architecture.md: modules, targets and arrows match the tree ($(doc_arrows | wc -l) arrows)"
else bad "docs/architecture.md differs from the tree:"; echo "$out"; fi
# the checker itself: drop each declared arrow in turn and expect it to be named
TMPD=$(mktemp -d); trap 'rm -rf "$TMPD"' EXIT
load "$DOC"
while read -r from to; do
  awk -v m="$from" -v u="$to" -F'|' 'BEGIN{OFS="|"} $2 ~ "^ "m" $" { n=split($5, a, " "); s=""; for (i=1;i<=n;i++) if (a[i]!=u) s=s" "a[i]; $5=s" " } {print}' "$DOC" > "$TMPD/a.md"
  out=$(check "$TMPD/a.md"); rc=$?
  if [ $rc != 0 ] && grep -q "in the code, not in the table: $from $to" <<<"$out"; then ok "self-check: a missing arrow $from -> $to is named"
  else bad "self-check: dropping $from -> $to was not noticed"; fi
  load "$DOC"
done < <(doc_arrows)
# ... and an arrow the code does not have (libtopo must use nothing of ours)
sed 's/^| libtopo | \(.*\) | |$/| libtopo | \1 | perf |/' "$DOC" > "$TMPD/b.md"
out=$(check "$TMPD/b.md"); rc=$?
if [ $rc != 0 ] && grep -q "in the table, not in the code: libtopo perf" <<<"$out"; then ok "self-check: an arrow the code lacks is named"
else bad "self-check: a made-up arrow libtopo -> perf was not noticed"; fi
echo "$PASS passed, $FAIL failed"
[ "$FAIL" = 0 ]
