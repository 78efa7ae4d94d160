# shellcheck shell=bash
# Tiny assertion helpers for CLI tests. Each test script ends with `finish`, which
# prints "N passed, N failed" and exits non-zero on any failure.
PASS=0
FAIL=0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
ok()   { PASS=$((PASS + 1)); echo "ok   - $*"; }
bad()  { FAIL=$((FAIL + 1)); echo "FAIL - $*"; }
check() { local what=$1; shift; if "$@"; then ok "$what"; else bad "$what"; fi; }
# expect_rc WANT WHAT cmd...   (stdout/stderr saved in $TMP/out $TMP/err)
expect_rc() {
  local want=$1 what=$2; shift 2
  set +e; "$@" >"$TMP/out" 2>"$TMP/err"; local rc=$?; set -e
  if [ "$rc" = "$want" ]; then ok "$what (exit $rc)"; else bad "$what: exit $rc, wanted $want; stderr: $(head -c 400 "$TMP/err")"; fi
}
err_has() { if grep -qF -- "$1" "$TMP/err"; then ok "stderr has '$1'"; else bad "stderr lacks '$1': $(head -c 400 "$TMP/err")"; fi; }
eq() { if [ "$2" = "$3" ]; then ok "$1 = $3"; else bad "$1: got '$2', wanted '$3'"; fi; }
finish() { echo "$PASS passed, $FAIL failed"; [ "$FAIL" = 0 ]; }
