#!/usr/bin/env bash
# The front door (issue 30): README.md is under 200 lines; every command in its sh blocks is
# one the test suite runs as written (the two set-up commands are the README's own and CI's,
# and scripts/test.sh runs the first one;
# the quick start block is run on each release's live lab by tests/lab/t-doctor.sh); its
# picture is what `topoplace show --dot` draws of the real fabric it names, and renders in
# headless Chromium; every local link resolves.
#   test_readme.sh TOPOPLACE FIXTURES
set -uo pipefail
TP=$1; FX=$2
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
README="$ROOT/README.md"
pass=0; fail=0
ok()  { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ $# -gt 1 ] && printf '%s\n' "$2" | sed 's/^/     /' | head -20; }
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT

n=$(wc -l < "$README")
[ "$n" -lt 200 ] && ok "README.md: $n lines (< 200)" || bad "README.md under 200 lines ($n)"

# every line of every sh block: a set-up command, or a quick-start line (comments aside)
awk '/^```sh$/{on=1; next} /^```/{on=0} on' "$README" | grep -v '^[[:space:]]*#' | grep -v '^[[:space:]]*$' > "$TMP/cmds"
qs=$(sed -n '/<!-- quickstart:begin -->/,/<!-- quickstart:end -->/p' "$README" | sed '/^```/d; /^<!--/d' | grep -v '^#')
unaccounted=""
while IFS= read -r c; do
  case "$c" in
    "scripts/demo.sh "*|"scripts/test.sh "*) ;;
    *) grep -qxF -- "$c" <<<"$qs" || unaccounted+="$c"$'\n' ;;
  esac
done < "$TMP/cmds"
[ -z "$unaccounted" ] && ok "every README command is a set-up command or a quick-start line ($(wc -l < "$TMP/cmds") lines)" \
  || bad "README commands the suite does not run" "$unaccounted"
grep -q 'test t-doctor.sh' "$ROOT/tests/spank.cmake" && grep -q 'quickstart:begin' "$ROOT/tests/lab/t-doctor.sh" \
  && ok "the quick start block is the one tests/lab/t-doctor.sh runs (release.*.doctor)" || bad "t-doctor.sh runs the quick start"
grep -qx 'exec bash scripts/test.sh' "$ROOT/.ci/run" && ok ".ci/run runs the README's test command" || bad ".ci/run runs scripts/test.sh"
grep -qx '  scripts/demo.sh' "$ROOT/scripts/test.sh" && ok "scripts/test.sh runs the README's first command as written (scripts/demo.sh)" \
  || bad "scripts/test.sh runs scripts/demo.sh"
grep -q '^topoplace doctor$' <<<"$qs" && grep -q '^sbatch --topo=pack' <<<"$qs" \
  && ok "the quick start runs topoplace doctor and ends with sbatch --topo=pack" || bad "quick start: doctor, then sbatch --topo=pack"

# local links
missing=""
while IFS= read -r l; do
  l=${l%%#*}; [ -z "$l" ] && continue
  [ -e "$ROOT/$l" ] || missing+="$l "
done < <(grep -o '](\([^)]*\))' "$README" | sed 's/^](//; s/)$//' | grep -v '^http')
[ -z "$missing" ] && ok "every local link in README.md resolves" || bad "README links to missing files" "$missing"

# the picture: topoplace's own drawing of the fabric it names
"$TP" discover --ibnetdiscover "$FX/ibnetdiscover/plafrim-voltaire-qdr.ibnetdiscover-s-p.txt" -o "$TMP/p.json" 2>/dev/null
"$TP" show "$TMP/p.json" --dot > "$TMP/p.dot"
cmp -s "$TMP/p.dot" "$ROOT/docs/img/fabric-plafrim.dot" && ok "docs/img/fabric-plafrim.dot is topoplace show --dot of PlaFRIM's fabric today" \
  || bad "docs/img/fabric-plafrim.dot is not what show --dot draws now (regenerate it and the SVG)" "$(diff "$TMP/p.dot" "$ROOT/docs/img/fabric-plafrim.dot" | head)"
# every label of the drawing is in the SVG (dot -Tsvg of that file)
labels_dot=$(grep -o 'label="[^"]*"' "$ROOT/docs/img/fabric-plafrim.dot" | sed 's/label="//; s/"$//; s/\\n/\n/g' | grep -v '^$' | sort -u)
labels_svg=$(grep -o '<text[^>]*>[^<]*</text>' "$ROOT/docs/img/fabric-plafrim.svg" | sed -e 's/<[^>]*>//g' -e 's/&#45;/-/g' -e 's/&amp;/\&/g' | sort -u)
[ "$labels_dot" = "$labels_svg" ] && ok "the SVG draws every label of the .dot ($(wc -l <<<"$labels_svg") labels)" \
  || bad "the SVG is not dot -Tsvg of the .dot" "$(diff <(echo "$labels_dot") <(echo "$labels_svg") | head)"
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -n "$CHROMIUM" ]; then
  FLAGS=(--headless --no-sandbox --disable-gpu --no-first-run --disable-dev-shm-usage --user-data-dir="$TMP/profile")
  if timeout 120 "$CHROMIUM" "${FLAGS[@]}" --dump-dom "file://$ROOT/docs/img/fabric-plafrim.svg" > "$TMP/dom.html" 2>"$TMP/chromium.err"; then
    nt=$(grep -o '<text' "$TMP/dom.html" | wc -l); ng=$(grep -o 'class="node"' "$TMP/dom.html" | wc -l)
    [ "$nt" -ge 20 ] && [ "$ng" -ge 16 ] && ok "the README's picture renders in headless Chromium ($ng nodes, $nt texts in the DOM)" \
      || bad "Chromium's DOM of the picture" "$(head -c 600 "$TMP/dom.html")"
    timeout 120 "$CHROMIUM" "${FLAGS[@]}" --screenshot="$TMP/shot.png" --window-size=1800,420 "file://$ROOT/docs/img/fabric-plafrim.svg" >/dev/null 2>&1
    sz=$(stat -c %s "$TMP/shot.png" 2>/dev/null || echo 0)
    [ "$sz" -gt 20000 ] && ok "screenshot of the picture is not blank ($sz bytes PNG)" || bad "screenshot of the picture ($sz bytes)"
  else
    bad "chromium --dump-dom of the picture" "$(tail -5 "$TMP/chromium.err")"
  fi
else
  echo "skip Chromium rendering: chromium not installed"
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
