#!/usr/bin/env bash
# slurm-conf/lua/job_submit.lua outside slurmctld: Lua 5.1 (what Debian's Slurm 22.05
# embeds) with a stand-in `slurm` table that records what the script logs. The live labs run
# the same file in real slurmctlds (t-spank.sh); this checks what a lab cannot easily make:
# user-set TOPOPLACE_* text with newlines and 100 KB values (issue 17 finding 8).
#   test_job_submit.sh SOURCE_DIR
set -uo pipefail
SRC="$(readlink -f "$1")"
LUA=$(command -v lua5.1 || command -v lua5.4 || command -v lua || true)
[ -n "$LUA" ] || { echo "SKIP: no lua interpreter"; exit 77; }
pass=0; fail=0
ok()  { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; [ -n "${2:-}" ] && printf '%s\n' "$2" | sed 's/^/     /' | head -20; fail=$((fail + 1)); }

run() {  # run LUA_SNIPPET: the snippet builds job_desc and calls slurm_job_submit; logs on stdout
  "$LUA" - <<LUA
local logs = {}
slurm = { SUCCESS = 0, ERROR = -1,
  log_info = function(fmt, ...) table.insert(logs, "info " .. string.format(fmt, ...)) end,
  log_error = function(fmt, ...) table.insert(logs, "error " .. string.format(fmt, ...)) end,
  log_user = function(fmt, ...) end }
dofile("$SRC/slurm-conf/lua/job_submit.lua")
$1
for _, l in ipairs(logs) do io.write(string.format("%q", l), "\n") end
LUA
}

# a newline in TOPOPLACE_MODE / _HOSTS would forge a slurmctld.log line
out=$(run 'local jd = { spank_job_env = { "TOPOPLACE_MODE=pack\nslurmctld: _slurm_rpc_submit_batch_job: JobId=1 forged",
                                            "TOPOPLACE_HOSTS=n1\rx", "TOPOPLACE_CONSTRAINT=lg_g001" },
                       req_nodes = nil, features = nil, prefer = nil, req_switch = nil }
           print("rc", slurm_job_submit(jd, {}, 1000)); print("prefer", jd.prefer)')
logline=$(grep '^"info topoplace: uid 1000' <<<"$out")
if grep -q '^rc	0$' <<<"$out" && grep -q '^prefer	lg_g001$' <<<"$out" && [ -n "$logline" ] \
   && ! grep -q '\\n\|\\r\|\\$' <<<"$logline" && grep -q 'pack?slurmctld' <<<"$logline"; then
  ok "user-set TOPOPLACE_MODE/HOSTS are logged on one line (control characters as '?'), the plan applied"
else bad "TOPOPLACE_* with newlines logged on one line" "$out"; fi

# a 100 KB value is logged by its first 200 bytes and its size
out=$(run 'local jd = { spank_job_env = { "TOPOPLACE_MODE=" .. string.rep("p", 100000), "TOPOPLACE_CONSTRAINT=lg_g001" } }
           slurm_job_submit(jd, {}, 1000)')
l=$(grep '^"info topoplace: uid 1000' <<<"$out")
if [ -n "$l" ] && [ ${#l} -lt 400 ] && grep -q '...(100000 bytes)' <<<"$l"; then ok "a 100 KB TOPOPLACE_MODE is logged by 200 bytes and its size (${#l}-byte line)"
else bad "long value bounded in the log" "${out:0:600}"; fi

# -w with a newline (the user's own text) is logged on one line too
out=$(run 'local jd = { spank_job_env = { "TOPOPLACE_CONSTRAINT=lg_g001" }, req_nodes = "n1\nforged" }
           slurm_job_submit(jd, {}, 1000)')
if grep -q 'chose nodes (n1?forged)' <<<"$out"; then ok "a user's -w is logged on one line"
else bad "-w logged on one line" "$out"; fi

# decided at start (TopologyPlugin=topology/topoplace): nothing of a plan is applied, even
# variables a user set by hand next to TOPOPLACE_DECIDE=start
out=$(run 'local jd = { spank_job_env = { "TOPOPLACE_MODE=pack", "TOPOPLACE_DECIDE=start", "TOPOPLACE_CONSTRAINT=lg_g001",
                                            "TOPOPLACE_SWITCHES=1", "TOPOPLACE_EXCLUDE=n001" } }
           print("rc", slurm_job_submit(jd, {}, 1000)); print("set", jd.prefer, jd.req_switch, jd.exc_nodes)')
if grep -q '^rc	0$' <<<"$out" && grep -q '^set	nil	nil	nil$' <<<"$out" \
   && grep -q 'uid 1000 pack: nodes chosen at start by topology/topoplace' <<<"$out"; then
  ok "TOPOPLACE_DECIDE=start: no prefer, switch count or exclusion applied; said so"
else bad "decide=start applies nothing" "$out"; fi

# a job that got no plan (no fit at submission, or jobs queued ahead): only the health
# store's exclusions arrive; they are applied, no preference or switch count, and the log
# line says no plan (the live replay counts planned jobs by the "plan (predicted" line)
out=$(run 'local jd = { spank_job_env = { "TOPOPLACE_MODE=pack", "TOPOPLACE_EXCLUDE=n[006,023]" }, exc_nodes = "n001" }
           print("rc", slurm_job_submit(jd, {}, 1000)); print("set", jd.prefer, jd.req_switch, jd.exc_nodes)')
if grep -q '^rc	0$' <<<"$out" && grep -q '^set	nil	nil	n001,n\[006,023\]$' <<<"$out" \
   && grep -q "uid 1000 pack: no plan, Slurm's topology chooses at start: exclude+=n\[006,023\]" <<<"$out" \
   && ! grep -q 'plan (predicted' <<<"$out"; then
  ok "no plan: the exclusions alone are applied (added to the user's), logged as no plan"
else bad "no plan: exclusions alone" "$out"; fi

# a Lua error inside the plan (here: a job_desc whose field access raises) is logged on one line
out=$(run 'local jd = setmetatable({ spank_job_env = { "TOPOPLACE_CONSTRAINT=lg_g001" }, name = "job\nforged" },
                                  { __index = function(t, k) if k == "req_nodes" then error("boom\nforged") end end })
           print("rc", slurm_job_submit(jd, {}, 1000))')
el=$(grep '^"error topoplace: job_submit.lua' <<<"$out")
if grep -q '^rc	0$' <<<"$out" && [ -n "$el" ] && ! grep -q '\\n' <<<"$el" && grep -q 'job?forged' <<<"$el"; then
  ok "a Lua error is logged on one line and the job accepted"
else bad "Lua error logged on one line" "$out"; fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
