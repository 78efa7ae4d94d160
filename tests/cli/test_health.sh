#!/usr/bin/env bash
# topoplace health: check on fake sysfs trees (tests/fixtures/health), exit codes, the
# flag store commands, Prometheus output, and (as root) the store's trust rules against
# an unprivileged user (setpriv to nobody) and a tampered store.
#   test_health.sh TOPOPLACE FIXTURES
set -euo pipefail
T=$1
FIX=$2
. "$(dirname "$0")/lib.sh"
chmod 755 "$TMP"   # nobody must be able to reach the store: the refusals below are the store's, not the path's

"$T" discover --spec "$FIX/specs/dgx-h100-3tier.yaml" -o "$TMP/dgx.json" 2>/dev/null
cp -a "$FIX/health/dgx-h100-ndr" "$TMP/root"
STORE="$TMP/store"
chk() { "$T" health check --root "$TMP/root" --snapshot "$TMP/dgx.json" --node dgx001 --store "$STORE" "$@"; }

# ------------------------------------------------------------ usage and bad input
expect_rc 64 "health without a subcommand" "$T" health
expect_rc 64 "unknown option" "$T" health check --bogus
expect_rc 66 "missing snapshot" "$T" health check --root "$TMP/root" --node dgx001 --no-store --snapshot "$TMP/nope.json"
printf '{"schema": "topoplace.snapshot",\n "version": 1,\n oops\n' > "$TMP/bad.json"
expect_rc 65 "malformed snapshot" "$T" health check --root "$TMP/root" --node dgx001 --no-store --snapshot "$TMP/bad.json"
err_has "$TMP/bad.json:3"

# ------------------------------------------------------------ healthy / faults
expect_rc 0 "healthy DGX H100 tree" chk --json
check "JSON: ok, ib and gpu probes" grep -q '"reason": "8 HCAs, 8 ports ACTIVE/LinkUp >= 400 Gb/sec (sysfs)"' "$TMP/out"
check "JSON: gpu probe reason" grep -q '"reason": "8 GPUs expected; 8 PCI, 8 /dev/nvidiaN; no fatal XID"' "$TMP/out"

echo "200 Gb/sec (4X HDR)" > "$TMP/root/sys/class/infiniband/mlx5_6/ports/1/rate"
# up at half the rate: degraded (issue 16 item 5), not unhealthy: exit 0, never drained
expect_rc 0 "4X HDR where NDR expected: degraded" chk
check "reason names the port and rates" grep -q 'SLOW ib  *degraded: mlx5_6 port 1 rate 200 Gb/sec (4X HDR) below expected 400 Gb/sec' "$TMP/out"
check "summary line: DEGRADED with HPN's estimate" grep -q '^dgx001: DEGRADED (slowdown 1.07)' "$TMP/out"
expect_rc 0 "store: degraded record" "$T" health list --store "$STORE"
check "list: dgx001 degraded with its slowdown" grep -q '^dgx001 *degraded *check .*\[slowdown 1.07\] ib: degraded: mlx5_6' "$TMP/out"
check "record file: verdict and slowdown" grep -qx 'slowdown=1.067' "$STORE/dgx001"
expect_rc 0 "gate: a degraded node runs jobs" "$T" health gate dgx001 --store "$STORE"
expect_rc 0 "JSON: degraded and slowdown" chk --json --no-store
check "JSON: degraded" grep -q '"degraded": true' "$TMP/out"
check "JSON: slowdown" grep -q '"slowdown": 1.067' "$TMP/out"
echo "400 Gb/sec (4X NDR)" > "$TMP/root/sys/class/infiniband/mlx5_6/ports/1/rate"
expect_rc 0 "rate back: healthy" chk
check "summary line: healthy" grep -q '^dgx001: healthy' "$TMP/out"
check "record: healthy again" grep -qx 'verdict=healthy' "$STORE/dgx001"

rm "$TMP/root/dev/nvidia3"
expect_rc 1 "missing /dev/nvidia3" chk
check "reason: 7 of 8 device nodes" grep -q 'FAIL gpu  *7 of 8 /dev/nvidiaN device nodes' "$TMP/out"
: > "$TMP/root/dev/nvidia3"

# symbol error burst between two runs (state file in the store: .dgx001.counters)
expect_rc 0 "baseline run" chk
echo 2500 > "$TMP/root/sys/class/infiniband/mlx5_3/ports/1/counters/symbol_error"
expect_rc 0 "symbol error burst: degraded (corrected errors)" chk --error-threshold 100
check "reason: counter growth" grep -q 'SLOW ib .*mlx5_3 port 1 symbol_error grew by 2500 since the last check (0 -> 2500, threshold 100)' "$TMP/out"
check "summary: degraded, no estimate" grep -q '^dgx001: DEGRADED (slowdown 1.1 assumed)' "$TMP/out"
expect_rc 0 "no further growth: healthy again" chk

# site probes: a hung one is killed at its timeout
mkdir -p -m 755 "$TMP/probes"
printf '#!/bin/sh\necho "dcgmi diag -r 1: Pass"\n' > "$TMP/probes/10-dcgm"
printf '#!/bin/sh\nexec sleep 600\n' > "$TMP/probes/20-hang"
chmod 755 "$TMP/probes/10-dcgm" "$TMP/probes/20-hang"
expect_rc 1 "hung site probe" chk --probe-dir "$TMP/probes" --probe-timeout 0.3 --prometheus "$TMP/node.prom"
check "site probe reason" grep -q 'ok   site:10-dcgm  *dcgmi diag -r 1: Pass' "$TMP/out"
check "hung probe killed at its timeout" grep -q 'FAIL site:20-hang  *killed after 0.3 s (timeout)' "$TMP/out"
check "prometheus: one gauge per probe" bash -c "[ \$(grep -c '^topoplace_health_probe_ok{' '$TMP/node.prom') = 4 ]"
check "prometheus: failing probe is 0" grep -q '^topoplace_health_probe_ok{node="dgx001",probe="site:20-hang"} 0$' "$TMP/node.prom"
check "no sleep 600 left behind" bash -c "! pgrep -f '^sleep 600$' -P 1 >/dev/null"

# site probes run as root: the store's trust rules first; a refused probe is not run and fails
mk_probe() { printf '#!/bin/sh\ntouch "%s"\necho ran\n' "$2" > "$1"; chmod "${3:-755}" "$1"; }
nochk() { "$T" health check --root "$TMP/root" --snapshot "$TMP/dgx.json" --node dgx001 --no-store "$@"; }
mkdir -m 755 "$TMP/p-ww" "$TMP/p-gw" "$TMP/p-link" "$TMP/p-lib" "$TMP/p-above"
mk_probe "$TMP/p-ww/10-ok" "$TMP/ran-ww"
chmod 777 "$TMP/p-ww"
expect_rc 1 "world-writable probe directory refused" nochk --probe-dir "$TMP/p-ww"
check "refusal names the directory and the rule" grep -q "^FAIL site  *no site probe run: site probe: refusing $TMP/p-ww: mode 0777 is group/world writable" "$TMP/out"
check "nothing in it ran" test ! -e "$TMP/ran-ww"
chmod 1777 "$TMP/p-ww"
expect_rc 1 "sticky world-writable probe directory refused too" nochk --probe-dir "$TMP/p-ww"
check "nothing in it ran (sticky)" test ! -e "$TMP/ran-ww"
mk_probe "$TMP/p-gw/10-ok" "$TMP/ran-ok"
mk_probe "$TMP/p-gw/20-gw" "$TMP/ran-gw" 775
expect_rc 1 "group-writable probe refused" nochk --probe-dir "$TMP/p-gw"
check "the trusted probe still runs" grep -q '^ok   site:10-ok  *ran$' "$TMP/out"
check "refusal names the probe, its path and the rule" grep -q "^FAIL site:20-gw  *not run: site probe: refusing $TMP/p-gw/20-gw: mode 0775 is group/world writable" "$TMP/out"
check "the group-writable probe did not run" test ! -e "$TMP/ran-gw"
check "summary: unhealthy" grep -q '^dgx001: UNHEALTHY' "$TMP/out"
mk_probe "$TMP/p-lib/real" "$TMP/ran-link"
ln -s "$TMP/p-lib/real" "$TMP/p-link/30-link"
expect_rc 1 "probe that is a symlink to a trusted one refused" nochk --probe-dir "$TMP/p-link"
check "refusal: a symbolic link" grep -q "^FAIL site:30-link  *not run: site probe: refusing $TMP/p-link/30-link: a symbolic link" "$TMP/out"
check "the link's target did not run" test ! -e "$TMP/ran-link"
chmod 777 "$TMP/p-above"
mkdir -m 755 "$TMP/p-above/probes"
mk_probe "$TMP/p-above/probes/10-ok" "$TMP/ran-above"
expect_rc 1 "probe directory under a world-writable directory refused" nochk --probe-dir "$TMP/p-above/probes"
check "refusal names the directory above" grep -q "the directory $TMP/p-above above it: mode 0777 is group/world writable and not sticky" "$TMP/out"
check "nothing under it ran" test ! -e "$TMP/ran-above"

# --timeout is a bound: a probe's helper that left the process group and keeps the pipe open
mkdir -m 755 "$TMP/p-esc"
printf '#!/bin/sh\nsetsid sh -c %s &\nexec sleep 600\n' \
  "'echo \$\$ > $TMP/helper.pid; while :; do echo tick; sleep 0.01; done'" > "$TMP/p-esc/10-escape"
chmod 755 "$TMP/p-esc/10-escape"
t0=$(date +%s)
expect_rc 1 "escaping helper: the check returns" timeout 60 "$T" health check --root "$TMP/root" --snapshot "$TMP/dgx.json" \
  --node dgx001 --no-store --probe-dir "$TMP/p-esc" --probe-timeout 0.5 --timeout 5
t1=$(date +%s)
[ -s "$TMP/helper.pid" ] && kill -9 "$(cat "$TMP/helper.pid")" 2>/dev/null || true
check "escaping helper: probe reported as timed out" grep -q '^FAIL site:10-escape  *killed after 0.5 s (timeout)' "$TMP/out"
check "escaping helper: within --timeout + 5 s (hang guard; took $((t1 - t0)) s)" test $((t1 - t0)) -lt 10
# out-of-range timeouts: usage errors, never converted
for v in 0 -1 nan inf -inf 1e300 3601 0.0001 abc; do
  expect_rc 64 "--timeout '$v' refused" nochk --timeout="$v"
  err_has "--timeout: must be a number of seconds from 0.001 to 3600, not '$v'"
done
expect_rc 64 "--timeout '' refused" nochk --timeout=
for v in 0 nan 1e300; do
  expect_rc 64 "--probe-timeout '$v' refused" nochk --probe-timeout="$v"
  err_has "--probe-timeout: must be a number of seconds from 0.001 to 3600, not '$v'"
done
expect_rc 0 "--timeout 3600 accepted" nochk --timeout 3600 --probe-timeout 0.5

# ------------------------------------------------------------ store commands
expect_rc 0 "list of a store never created" "$T" health list --store "$TMP/never" --json
check "empty JSON list" grep -qx '\[\]' "$TMP/out"
err_has "no health store at $TMP/never yet"
expect_rc 0 "list" "$T" health list --store "$STORE"
check "list: dgx001 unhealthy from the check" grep -q '^dgx001 *unhealthy *check .*site:20-hang: killed after 0.3 s' "$TMP/out"
if [ "$(id -u)" = 0 ]; then
  expect_rc 0 "flag" "$T" health flag dgx002 --reason "GPU 5 thermal slowdown" --store "$STORE"
  expect_rc 0 "list --json" "$T" health list --store "$STORE" --json
  check "flagged record" grep -q '"reason": "GPU 5 thermal slowdown"' "$TMP/out"
  expect_rc 1 "gate denies the flagged node" "$T" health gate dgx002 --store "$STORE"
  expect_rc 0 "gate allows a node without record" "$T" health gate dgx003 --store "$STORE"
  expect_rc 0 "clear" "$T" health clear dgx002 --store "$STORE"
  expect_rc 0 "gate allows the cleared node" "$T" health gate dgx002 --store "$STORE"
  # an operator's degraded flag: jobs run there, multi-node placements leave it out
  expect_rc 0 "flag degraded" "$T" health flag dgx003 --reason "fan at 100 %" --degraded --slowdown 1.2 --store "$STORE"
  check "flag degraded: says so" grep -q '^dgx003: flagged degraded (slowdown 1.2): fan at 100 %' "$TMP/out"
  expect_rc 0 "gate allows the degraded node" "$T" health gate dgx003 --store "$STORE"
  expect_rc 0 "place 4 nodes with the store" "$T" place "$TMP/dgx.json" --nodes 4 --health-store "$STORE" --explain
  check "place: the degraded node kept out" grep -q 'degraded: kept 1 degraded host(s) out (dgx003)' "$TMP/out"
  expect_rc 0 "place 1 node with the store" "$T" place "$TMP/dgx.json" --nodes 1 --health-store "$STORE" --explain
  check "place: a one-node job takes it" grep -q 'dgx003' "$TMP/out"
  expect_rc 64 "flag --slowdown out of range" "$T" health flag dgx003 --reason x --degraded --slowdown 0.5 --store "$STORE"
  expect_rc 0 "clear the degraded node" "$T" health clear dgx003 --store "$STORE"
  expect_rc 64 "flag with a path as node name" "$T" health flag ../../etc/passwd --reason x --store "$STORE"

  # -------------------------------------------------------- security: nobody
  NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)
  "$T" health flag dgx004 --reason "real flag" --store "$STORE" >/dev/null
  expect_rc 69 "nobody cannot flag" "${NOBODY[@]}" "$T" health flag dgx005 --reason forged --store "$STORE"
  err_has "only uid 0 may write records (running as uid 65534)"
  expect_rc 69 "nobody cannot clear" "${NOBODY[@]}" "$T" health clear dgx004 --store "$STORE"
  expect_rc 69 "nobody cannot record a check" "${NOBODY[@]}" "$T" health check --root "$TMP/root" --node dgx004 --store "$STORE"
  set +e; "${NOBODY[@]}" sh -c "printf 'topoplace-health 1\nnode=dgx006\nverdict=unhealthy\n' > '$STORE/dgx006'" 2>/dev/null; set -e
  check "nobody cannot write a file into the store" test ! -e "$STORE/dgx006"
  expect_rc 0 "nobody can read (list)" "${NOBODY[@]}" "$T" health list --store "$STORE"
  expect_rc 1 "real flag still there (gate denies dgx004)" "$T" health gate dgx004 --store "$STORE"
  # -------------------------------------------------------- untidy store: stray entries ignored and named
  cp -p "$STORE/dgx004" "$STORE/dgx004.bak"
  printf 'Written by topoplace health check; do not edit.\n' > "$STORE/README"
  chmod 644 "$STORE/README"
  mkdir -m 755 "$STORE/old"
  expect_rc 0 "list with stray entries" "$T" health list --store "$STORE"
  check "list: the records are still there" grep -q '^dgx004 *unhealthy *operator' "$TMP/out"
  check "list: no stray listed" bash -c "! grep -qE '^(README|old|dgx004.bak) ' '$TMP/out'"
  err_has "topoplace: warning: health store: ignoring $STORE/README: not a topoplace health record"
  err_has "topoplace: warning: health store: ignoring $STORE/dgx004.bak: holds the record of node 'dgx004', not of 'dgx004.bak'"
  err_has "topoplace: warning: health store: ignoring $STORE/old: a directory, not a record"
  expect_rc 0 "list --json with stray entries" "$T" health list --store "$STORE" --json
  check "JSON: the flagged record" grep -q '"node": "dgx004"' "$TMP/out"
  expect_rc 1 "gate with stray entries: still denies dgx004" "$T" health gate dgx004 --store "$STORE"
  expect_rc 0 "gate of a stray's name: allow, named" "$T" health gate dgx004.bak --store "$STORE"
  err_has "ignoring $STORE/dgx004.bak"
  expect_rc 0 "check with stray entries records the node" chk
  chmod 666 "$STORE/README"
  expect_rc 69 "an untrusted stray is refused (whoever can write it could hide a record)" "$T" health list --store "$STORE"
  err_has "README: mode 0666 is group/world writable"
  rm -rf "$STORE/README" "$STORE/old" "$STORE/dgx004.bak"
  expect_rc 0 "gate on a store never created: allow" "$T" health gate dgx001 --store "$TMP/never"
  err_has "topoplace: warning: no health store at $TMP/never yet"
  # the whole path of the store is checked
  mkdir -m 777 "$TMP/ww"
  install -d -m 755 "$TMP/ww/health"
  expect_rc 69 "store under a world-writable directory refused" "$T" health list --store "$TMP/ww/health"
  err_has "the directory $TMP/ww above it: mode 0777 is group/world writable and not sticky"
  expect_rc 1 "... and the gate fails closed" "$T" health gate dgx001 --store "$TMP/ww/health"
  # a probe owned by another uid is refused
  mkdir -m 755 "$TMP/p-nobody"
  mk_probe "$TMP/p-nobody/10-nobody" "$TMP/ran-nobody"
  chown 65534:65534 "$TMP/p-nobody/10-nobody"
  expect_rc 1 "probe owned by nobody refused" nochk --probe-dir "$TMP/p-nobody"
  check "refusal: owner" grep -q "^FAIL site:10-nobody  *not run: site probe: refusing $TMP/p-nobody/10-nobody: owned by uid 65534, not by uid 0" "$TMP/out"
  check "nobody's probe did not run" test ! -e "$TMP/ran-nobody"

  # a forged store of nobody's own
  install -d -o 65534 -g 65534 "$TMP/home-nobody"
  "${NOBODY[@]}" sh -c "mkdir -m 755 '$TMP/home-nobody/forged' && printf 'topoplace-health 1\nnode=dgx004\nverdict=healthy\n' > '$TMP/home-nobody/forged/dgx004'"
  expect_rc 69 "forged store (owned by nobody) refused" "$T" health list --store "$TMP/home-nobody/forged"
  err_has "owned by uid 65534, not by uid 0 (tampered or forged"

  # -------------------------------------------------------- security: tampered store
  chmod o+w "$STORE/dgx004"
  expect_rc 69 "tampered record (o+w) refused by list" "$T" health list --store "$STORE"
  err_has "is group/world writable (tampered; fix with chmod go-w)"
  expect_rc 0 "tampered + fail-open: allowed" "$T" health gate dgx004 --store "$STORE" --fail-mode open
  err_has "(fail-open)"
  expect_rc 1 "tampered + fail-closed: denied" "$T" health gate dgx004 --store "$STORE" --fail-mode closed
  err_has "(fail-closed)"
  chmod o-w "$STORE/dgx004"
  chmod o+w "$STORE"
  expect_rc 69 "world-writable store directory refused by check" chk
  err_has "mode 0757 is group/world writable"
  chmod o-w "$STORE"
else
  echo "# not root: store write and security checks skipped"
fi

finish
