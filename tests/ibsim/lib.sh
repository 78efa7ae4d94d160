# shellcheck shell=bash
# Shared start of the ibsim tests (tests/ibsim/t-ibsim-live.sh,
# tests/unit/health/t-health-ibsim.sh). Source it; do not run it.
#   ibsim_start NAME NETFILE   work dir $W (/tmp/topoplace-NAME.XXXXXX) and ibsim simulating
#                              NETFILE on a private port and socket; both gone on exit
#   ok / bad                   count passed and failed checks ($pass, $fail)
#   sim CMD...                 CMD with libumad2sim.so preloaded (talks to the simulator)
SIM_SO=/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so

ibsim_cleanup() {
  if [ -n "$SIM_PID" ] && kill -0 "$SIM_PID" 2>/dev/null; then kill "$SIM_PID"; wait "$SIM_PID" 2>/dev/null || true; fi
  rm -rf "$W"
}
ibsim_start() { # NAME NETFILE
  W=$(mktemp -d "/tmp/topoplace-$1.XXXXXX")
  SIM_PID=
  trap ibsim_cleanup EXIT
  # A private port and socket name, so parallel runs do not meet.
  export IBSIM_SERVER_PORT=$(( 20000 + ($$ % 20000) ))
  export IBSIM_SOCKNAME="tp-$1-$$"
  ibsim -s -n -l "$IBSIM_SERVER_PORT" "$2" > "$W/ibsim.log" 2>&1 &
  SIM_PID=$!
  for _ in $(seq 50); do grep -q "MaxMcastCap" "$W/ibsim.log" 2>/dev/null && break; sleep 0.1; done
}

pass=0; fail=0
ok() { echo "ok: $*"; pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
sim() { LD_PRELOAD=$SIM_SO timeout 60 "$@"; }
