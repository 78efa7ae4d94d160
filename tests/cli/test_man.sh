#!/usr/bin/env bash
# The man pages stay honest: docs/man/topoplace.1 and docs/man/topoplace-spank.8 render
# without a groff warning, and topoplace.1 has a section (.SS "topoplace SUB") and a
# SYNOPSIS line for every subcommand that `topoplace --help` / `topoplace health --help`
# list, and, in that section, a tagged paragraph (.TP) for every long option that the
# subcommand's --help prints (compared after turning troff's \- into -). A self-check
# deletes each option line in turn from a copy of the page and expects the checker to
# name exactly that option.
#   test_man.sh TOPOPLACE FIXTURES   (FIXTURES is not used)
set -euo pipefail
TP=$1
. "$(dirname "$0")/lib.sh"
MAN=$(cd "$(dirname "$0")/../../docs/man" && pwd)
PAGE=$MAN/topoplace.1

# ------------------------------------------------------------ rendering
for p in "$MAN/topoplace.1" "$MAN/topoplace-spank.8"; do
  n=$(basename "$p")
  if [ ! -f "$p" ]; then bad "$n: no such file in $MAN"; continue; fi
  if command -v groff >/dev/null 2>&1; then
    set +e; groff -man -Tutf8 -ww -z "$p" >"$TMP/groff.out" 2>&1; rc=$?; set -e
    if [ "$rc" = 0 ] && [ ! -s "$TMP/groff.out" ]; then ok "$n: groff -man -ww renders it without warnings"
    else bad "$n: groff -man -ww (exit $rc): $(head -c 800 "$TMP/groff.out")"; fi
  else
    bad "$n: groff is not installed (scripts/setup.sh installs groff-base)"
  fi
  if command -v man >/dev/null 2>&1; then
    set +e; LC_ALL=C MANWIDTH=80 man --warnings -l "$p" >"$TMP/man.out" 2>"$TMP/man.err"; rc=$?; set -e
    if [ "$rc" = 0 ] && [ ! -s "$TMP/man.err" ] && grep -q NAME "$TMP/man.out"; then ok "$n: man --warnings -l renders it without warnings"
    else bad "$n: man --warnings -l (exit $rc): $(head -c 800 "$TMP/man.err")"; fi
  fi
done
[ -f "$PAGE" ] || { finish; exit 1; }

# ------------------------------------------------------------ what the binary offers
# subcommands CMD...: the names under "Subcommands:" in `topoplace CMD... --help`
subcommands() { "$TP" "$@" --help | awk '/^Subcommands:/ { f = 1; next } f && /^  [a-z]/ { print $1 }'; }
# longopts CMD...: the long options (but --help) that `topoplace CMD... --help` prints,
# taken from the option column only ("  --json Excludes: --dot" gives --json)
longopts() {
  "$TP" "$@" --help | sed -nE 's/^  (-[A-Za-z0-9],)?(--[A-Za-z0-9][-A-Za-z0-9]*).*/\2/p' | { grep -vx -- '--help' || true; }
}

# The spec the checker reads, one line each:
#   sec<TAB>HEADING          the page has a section with this heading
#   syn<TAB>topoplace CMD    the SYNOPSIS shows this command
#   opt<TAB>HEADING<TAB>OPT  the section HEADING has a .TP entry whose tag names OPT
SPEC=$TMP/spec
: > "$SPEC"
declare -a CMDS=()
if ! "$TP" --help > /dev/null; then bad "topoplace --help fails"; fi
for o in $(longopts); do printf 'opt\tOPTIONS\t%s\n' "$o" >> "$SPEC"; done
for s in $(subcommands); do
  CMDS+=("$s")
  kids=$(subcommands "$s")
  for k in $kids; do CMDS+=("$s $k"); done
done
for c in "${CMDS[@]}"; do
  # shellcheck disable=SC2086  # word splitting of "health check" is wanted
  if ! "$TP" $c --help > /dev/null; then bad "topoplace $c --help fails"; continue; fi
  printf 'sec\ttopoplace %s\n' "$c" >> "$SPEC"
  # shellcheck disable=SC2086
  [ -n "$(subcommands $c)" ] || printf 'syn\ttopoplace %s\n' "$c" >> "$SPEC"
  # shellcheck disable=SC2086
  for o in $(longopts $c); do printf 'opt\ttopoplace %s\t%s\n' "$c" "$o" >> "$SPEC"; done
done
nsec=$(grep -c '^sec' "$SPEC" || true)
nopt=$(grep -c '^opt' "$SPEC" || true)
# Guard against a vacuous pass (help output in a format this parser no longer reads).
check "topoplace --help lists the subcommands (found ${#CMDS[@]}, health's included)" test "${#CMDS[@]}" -ge 12
check "the subcommands' --help print long options (found $nopt)" test "$nopt" -ge 80
for c in discover show compile slurm-conf place whatif "health check" "health list" "health flag" "health clear" "health gate"; do
  check "the binary has 'topoplace $c'" grep -qxF "$(printf 'sec\ttopoplace %s' "$c")" "$SPEC"
done

# ------------------------------------------------------------ the checker
# Troff text as a reader sees it: \- is -, no font escapes, no \& or \(dq.
NORM='function norm(s) { gsub(/\\-/, "-", s); gsub(/\\f[BIRP1-4]/, "", s); gsub(/\\f\(../, "", s);
                         gsub(/\\&/, "", s); gsub(/\\\(dq/, "\"", s); return s }
      function heading(s) { sub(/^\.S[HS][ \t]+/, "", s); gsub(/"/, "", s); sub(/[ \t]+$/, "", s); return s }
      # An option tag starts with the option (".BI \-\-hca \" REGEX\"", ".BR \-h \", \" \-\-help"):
      # its text without the macro and quotes begins with "-"; a description line does not.
      function opttag(s) { sub(/^\.[A-Za-z]+[ \t]*/, "", s); gsub(/"/, "", s); return s ~ /^-/ ? s : "" }'
# check_page PAGE: print what the page lacks against $SPEC, one line each; fail if anything.
check_page() {
  awk -F '\t' "$NORM"'
    FNR == NR { spec[++n] = $0; next }
    { line = norm($0) }
    line ~ /^\.S[HS][ \t]/ { sec = heading(line); heads[sec] = 1; tag = 0; next }
    sec == "SYNOPSIS" && line !~ /^\.(br|PP|P|LP)?$/ { s = line; sub(/^\.[A-Za-z]+[ \t]*/, "", s); gsub(/"/, "", s); syn = syn " " s }
    line ~ /^\.TP/ { tag = 1; next }
    tag {
      s = opttag(line)
      while (match(s, /--[A-Za-z0-9][-A-Za-z0-9]*/)) { have[sec SUBSEP substr(s, RSTART, RLENGTH)] = 1; s = substr(s, RSTART + RLENGTH) }
      tag = 0
    }
    END {
      bad = 0
      for (i = 1; i <= n; i++) {
        split(spec[i], f, "\t")
        if (f[1] == "sec" && !(f[2] in heads)) { print "no section .SS \"" f[2] "\""; bad = 1 }
        if (f[1] == "syn" && index(syn " ", " " f[2] " ") == 0) { print "SYNOPSIS lacks \"" f[2] "\""; bad = 1 }
        if (f[1] == "opt" && !((f[2] SUBSEP f[3]) in have)) { print f[2] ": no .TP entry for " f[3]; bad = 1 }
      }
      exit bad
    }' "$SPEC" "$1"
}

set +e; check_page "$PAGE" > "$TMP/missing"; rc=$?; set -e
page_ok=no
if [ "$rc" = 0 ] && [ ! -s "$TMP/missing" ]; then
  page_ok=yes
  ok "topoplace.1 has every subcommand ($nsec sections, SYNOPSIS lines) and every long option ($nopt) in its section"
else
  while IFS= read -r l; do bad "topoplace.1: $l"; done < "$TMP/missing"
  [ -s "$TMP/missing" ] || bad "topoplace.1: checker failed (exit $rc)"
fi
# The page documents only options the binary has (a removed option must leave the page too).
set +e
awk "$NORM"'
  { line = norm($0) }
  line ~ /^\.S[HS][ \t]/ { sec = heading(line); tag = 0; next }
  line ~ /^\.TP/ { tag = 1; next }
  tag && (sec == "OPTIONS" || sec ~ /^topoplace /) {
    s = opttag(line)
    while (match(s, /--[A-Za-z0-9][-A-Za-z0-9]*/)) { print sec "\t" substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH) }
  }
  { tag = 0 }' "$PAGE" | sort -u > "$TMP/page-opts"
set -e
awk -F '\t' '$1 == "opt" { print $2 "\t" $3 } $1 == "sec" { print $2 "\t--help" }' "$SPEC" | sort -u > "$TMP/help-opts"
printf 'OPTIONS\t--help\n' >> "$TMP/help-opts"; sort -u -o "$TMP/help-opts" "$TMP/help-opts"
extra=$(comm -23 "$TMP/page-opts" "$TMP/help-opts" | tr '\t' ' ')
if [ -z "$extra" ]; then ok "topoplace.1 documents no option the binary lacks"
else while IFS= read -r l; do bad "topoplace.1 documents an option --help does not print: $l"; done <<< "$extra"; fi

# ------------------------------------------------------------ self-check of the checker
# For every option: a copy of the page without the .TP tag line naming it in its section
# must make the checker report exactly that option, and nothing else. It needs a page
# that passes (above) as its baseline.
if [ "$page_ok" != yes ]; then
  echo "note - self-check of the checker skipped: topoplace.1 itself fails the check"
  finish
  exit 1
fi
declare -A tried=() caught=()
declare -a heads=()
while IFS=$'\t' read -r kind head opt; do
  [ "$kind" = opt ] || continue
  [ -n "${tried[$head]:-}" ] || heads+=("$head")
  tried[$head]=$(( ${tried[$head]:-0} + 1 ))
  awk -v H="$head" -v O="$opt" "$NORM"'
    { line = norm($0) }
    line ~ /^\.S[HS][ \t]/ { sec = heading(line); tag = 0; print; next }
    line ~ /^\.TP/ { tag = 1; print; next }
    tag {
      tag = 0; s = opttag(line); hit = 0
      while (match(s, /--[A-Za-z0-9][-A-Za-z0-9]*/)) { if (substr(s, RSTART, RLENGTH) == O) hit = 1; s = substr(s, RSTART + RLENGTH) }
      if (sec == H && hit && !done) { done = 1; next }
    }
    { print }
    END { exit done ? 0 : 2 }' "$PAGE" > "$TMP/mutant.1" || { bad "self-check: no .TP line for $opt in \"$head\" to delete"; continue; }
  if [ "$(wc -l < "$TMP/mutant.1")" -ne $(( $(wc -l < "$PAGE") - 1 )) ]; then bad "self-check: deleting $opt in \"$head\" did not delete one line"; continue; fi
  want="$head: no .TP entry for $opt"
  set +e; got=$(check_page "$TMP/mutant.1"); rc=$?; set -e
  if [ "$rc" != 0 ] && [ "$got" = "$want" ]; then caught[$head]=$(( ${caught[$head]:-0} + 1 ))
  else bad "self-check: page without the $opt line of \"$head\": checker exit $rc, said '$got', wanted '$want'"; fi
done < "$SPEC"
for head in "${heads[@]}"; do
  if [ "${caught[$head]:-0}" = "${tried[$head]}" ]; then ok "self-check: \"$head\": a copy without any one of its ${tried[$head]} option line(s) is reported"; fi
done
# A deleted section heading is reported too.
grep -vxF '.SS "topoplace show"' "$PAGE" > "$TMP/mutant.1"
set +e; got=$(check_page "$TMP/mutant.1"); rc=$?; set -e
if [ "$rc" != 0 ] && grep -qxF 'no section .SS "topoplace show"' <<< "$got"; then ok "self-check: a page without the 'topoplace show' section is reported"
else bad "self-check: page without .SS \"topoplace show\": checker exit $rc, said '$got'"; fi
finish
