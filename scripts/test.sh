#!/usr/bin/env bash
# Set up a fresh Debian 12 machine and run every test topoplace has:
#   1. unit + CLI tests (dev build)           ctest --preset dev
#      and the Debian package from scripts/package.sh (Release build), tests/package/test_deb.sh
#   2. scripts/demo.sh (the README's first command), then the live Slurm 22.05 lab tests
#      (real slurmctld + many slurmd), ctest label "lab",
#      topology/block on a live Slurm 24.11 slurmctld in a trixie chroot (label "trixie"),
#      and the labs of Slurm 24.11 and 26.05 in their chroots (label "releases")
#   3. meanwhile, in the background (scripts/test-cpu.sh, nice 10: the labs mostly wait on
#      Slurm, these stages mostly compile), the same unit + CLI tests under ASan+UBSan, each
#      libFuzzer target for a bounded time (clang), and the packages for Slurm 24.11 and 26.05
#      built and installed in their distributions' chroots; their output is printed after
#      the labs. With TOPO_SKIP_LAB=1 they run in the foreground instead.
# Exit status is non-zero when anything fails. TOPO_SKIP_ASAN=1 / TOPO_SKIP_FUZZ=1 /
# TOPO_SKIP_LAB=1 / TOPO_SKIP_RELEASE_PACKAGES=1 skip a stage (for quick local runs; CI runs
# them all). TOPO_REPLAY=1 adds the live replays of issue 31 (ctest label "replay", about
# 10 min per seed and layout; not in CI). The end prints each stage's wall time (also in
# build/test-times.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS="${JOBS:-2}"
export JOBS FUZZ_SECONDS="${FUZZ_SECONDS:-20}"
T_START=$(date +%s)
STAGE=""; STAGE_T0=$T_START; TIMES=()

stage_end() {
  [ -n "$STAGE" ] && TIMES+=("$(printf 'time: %5d s  %s' $(( $(date +%s) - STAGE_T0 )) "$STAGE")")
  STAGE=""
}
stage() { stage_end; printf '\n=== %s ===\n' "$*"; STAGE="$*"; STAGE_T0=$(date +%s); }

stage "setup (scripts/setup.sh: apt packages)"
bash scripts/setup.sh

stage "dev build"
cmake --preset dev >/dev/null
cmake --build --preset dev -j"$JOBS"
stage "unit + CLI tests (dev)"
ctest --preset dev -j"$JOBS"

stage "the Debian package as the README builds it (scripts/package.sh, Release), taken apart and checked"
JOBS="$JOBS" bash scripts/package.sh
bash tests/package/test_deb.sh build/release tests/fixtures

cpu=()
[ "${TOPO_SKIP_ASAN:-0}" = 1 ] || cpu+=(asan)
[ "${TOPO_SKIP_FUZZ:-0}" = 1 ] || cpu+=(fuzz)

if [ "${TOPO_SKIP_LAB:-0}" = 1 ]; then
  stage "ASan+UBSan and libFuzzer (scripts/test-cpu.sh ${cpu[*]:-nothing})"
  [ ${#cpu[@]} = 0 ] || bash scripts/test-cpu.sh "${cpu[@]}"
else
  # The packages for Slurm 24.11 and 26.05 are built in their own distributions (about 9 min
  # of compiling each on 2 cores); with ASan and the fuzzers that is about 40 min of
  # compiling, done while the labs below wait on Slurm (they used to run one after the other:
  # 82 min in all at stop 40). setsid: its own process group, stopped with this script.
  [ "${TOPO_SKIP_RELEASE_PACKAGES:-0}" = 1 ] || cpu+=(package-24.11 package-26.05)
  cpu_pid=""; prep_pid=""
  trap '[ -n "$cpu_pid" ] && kill -- -"$cpu_pid" 2>/dev/null; [ -n "$prep_pid" ] && kill -- -"$prep_pid" 2>/dev/null; true' EXIT
  if [ "${TOPO_SKIP_RELEASE_PACKAGES:-0}" != 1 ]; then
    # the Debian 13 and sid chroots (debootstrap) and the packages' build chroots (apt): mostly
    # downloads, made now while the stages below compile and run (chroot.sh and
    # package-release.sh lock them: a lab or a build that needs one waits for it)
    setsid bash -c 'for r in 24.11 26.05; do bash scripts/package-release.sh "$r" --prepare; done' \
      > build/package-prepare.log 2>&1 < /dev/null &
    prep_pid=$!
  fi
  if [ ${#cpu[@]} -gt 0 ]; then
    echo "background: scripts/test-cpu.sh ${cpu[*]} (nice 10; output in build/test-cpu.log, printed after the labs)"
    setsid nice -n 10 bash scripts/test-cpu.sh "${cpu[@]}" > build/test-cpu.log 2>&1 < /dev/null &
    cpu_pid=$!
  fi
  # The README's first command as written: the main job on the bundled examples, ending in two
  # live 22.05 labs (t-tree.sh, and t-spank.sh without its launch gate part). lab.tree is that
  # same t-tree.sh, so the lab stage below leaves it out; lab.spank runs t-spank.sh in full.
  stage "the main job: scripts/demo.sh (README command 1)"
  scripts/demo.sh
  stage "live Slurm lab tests"
  ctest --test-dir build/dev -L lab -E '^lab\.tree$' --output-on-failure --no-tests=ignore
  stage "topology/block on a live Slurm 24.11 (Debian 13 chroot; skipped without archive access)"
  ctest --test-dir build/dev -L trixie --output-on-failure --no-tests=ignore
  stage "Slurm 24.11 (Debian 13) and 26.05 (Debian sid): build per release in its chroot, live lab with the plugin"
  ctest --test-dir build/dev -L releases --output-on-failure --no-tests=ignore
  if [ "${TOPO_REPLAY:-0}" = 1 ]; then
    stage "the live replays (issue 31): seeded traces at load 0.9, per mode and release (about 10 min per seed and layout)"
    ctest --test-dir build/dev -L replay --output-on-failure --no-tests=ignore
  fi
  if [ -n "$prep_pid" ]; then
    wait "$prep_pid" || true   # a chroot it could not make is made (or its failure said) where it is used
    prep_pid=""
    cat build/package-prepare.log
  fi
  if [ -n "$cpu_pid" ]; then
    stage "waiting for the background stages (${cpu[*]})"
    rc=0; wait "$cpu_pid" || rc=$?
    cpu_pid=""; trap - EXIT
    cat build/test-cpu.log
    [ "$rc" = 0 ] || { echo "scripts/test-cpu.sh: $rc of its stages failed (above)"; exit 1; }
  fi
fi
stage_end
printf '%s\n' "${TIMES[@]}" | tee build/test-times.txt
grep '^time:' build/test-cpu.log 2>/dev/null | sed 's/^time: /time: (background) /' | tee -a build/test-times.txt || true
printf 'time: %5d s  all of scripts/test.sh\n' $(( $(date +%s) - T_START )) | tee -a build/test-times.txt
stage "all tests passed"
