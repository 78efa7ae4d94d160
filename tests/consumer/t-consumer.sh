#!/usr/bin/env bash
# The installed libraries are usable by another program (issue 18): install the topoplace-dev
# component of this build into a fresh prefix, build tests/consumer/ against it with
# find_package(topoplace) alone, run it, and check its placement equals `topoplace place` on
# the same spec. Also: nothing installed points back into the source or build tree, and the
# plain install (what the package carries) has no library or header.
#   t-consumer.sh BUILD_DIR SOURCE_DIR TOPOPLACE FIXTURES
set -uo pipefail
BUILD=$(cd "$1" && pwd) SRC=$(cd "$2" && pwd) CLI=$3 FIX=$4
PASS=0; FAIL=0
ok()  { PASS=$((PASS + 1)); echo "ok   - $*"; }
bad() { FAIL=$((FAIL + 1)); echo "FAIL - $*"; }
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
SPEC=$FIX/specs/dgx-h100-3tier.yaml

if cmake --install "$BUILD" --component topoplace-dev --prefix "$T/prefix" >"$T/install.log" 2>&1; then
  ok "cmake --install --component topoplace-dev ($(find "$T/prefix" -type f | wc -l) files)"
else bad "install failed:"; cat "$T/install.log"; fi
for f in libtopo_core.a libtopo_placement.a libtopo_whatif.a libtopo_perf.a libtopo_health.a libtopo_slurmconf.a \
         cmake/topoplace/topoplaceConfig.cmake cmake/topoplace/topoplaceTargets.cmake; do
  found=$(find "$T/prefix" -path "*/$f" | head -1)
  [ -n "$found" ] && ok "installed $f" || bad "not installed: $f"
done
for h in topo/topology.hpp topo/placement/place.hpp topo/whatif/whatif.hpp topo/perf/model.hpp topo/health/store.hpp; do
  [ -f "$T/prefix/include/$h" ] && ok "header $h" || bad "header missing: $h"
done
if grep -rlF -e "$SRC" -e "$BUILD" "$T/prefix" --include='*.cmake' >"$T/leaks"; then
  bad "installed CMake files name the source or build tree: $(cat "$T/leaks")"
else ok "no installed CMake file names the source or build tree"; fi

# the default install (what cpack packages) carries programs, not the libraries
cmake --install "$BUILD" --prefix "$T/plain" >/dev/null 2>&1
if find "$T/plain" -name '*.a' -o -name 'topoplaceConfig.cmake' | grep -q .; then
  bad "a plain install carries the development files"
else ok "a plain install carries no library, header or CMake package"; fi

gen=(); command -v ninja >/dev/null && gen=(-G Ninja)
if cmake -S "$SRC/tests/consumer" -B "$T/build" "${gen[@]}" -DCMAKE_PREFIX_PATH="$T/prefix" >"$T/cfg.log" 2>&1 \
   && cmake --build "$T/build" >"$T/build.log" 2>&1; then
  ok "tests/consumer builds against the installed tree"
else bad "consumer does not build:"; tail -30 "$T/cfg.log" "$T/build.log"; fi

out=$("$T/build/consumer" "$SPEC" 4 8 2>&1); rc=$?
[ $rc = 0 ] && ok "consumer runs (exit 0)" || bad "consumer exit $rc: $out"
got=$(grep -v '^load ' <<<"$out" | paste -sd, -)
"$CLI" discover --spec "$SPEC" -o "$T/snap.json" >/dev/null 2>&1
want=$("$CLI" place "$T/snap.json" --nodes 4 --gpus-per-node 8 --json 2>/dev/null \
       | python3 -c 'import json,sys; print(",".join(json.load(sys.stdin)["hosts"]))')
if [ -n "$got" ] && [ "$got" = "$want" ]; then ok "consumer's placement equals topoplace place: $got"
else bad "consumer placed '$got', topoplace place '$want'"; fi
grep -qE '^load 0\.[0-9]+' <<<"$out" && ok "the what-if library runs in the consumer ($(grep '^load' <<<"$out"))" \
  || bad "no load line from the what-if library"

echo "# $PASS passed, $FAIL failed"
[ $FAIL = 0 ]
