# SPANK plugin (issue 4): unit tests of its Slurm-free core, module symbol check, and the
# live-lab test. Included from tests/CMakeLists.txt.
if(TARGET topo_spank_core)
  file(GLOB TOPO_SPANK_TEST_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/unit/spank/test_*.cpp)
  add_executable(topo_spank_tests ${TOPO_SPANK_TEST_SOURCES})
  target_link_libraries(topo_spank_tests PRIVATE topo_spank_core GTest::gtest_main)
  target_compile_definitions(topo_spank_tests PRIVATE TOPO_FIXTURES="${TOPO_FIXTURES}")
  topo_target_defaults(topo_spank_tests)
  gtest_discover_tests(topo_spank_tests DISCOVERY_MODE PRE_TEST PROPERTIES LABELS unit)
  # drives the health store and place() for the lab test (independent of the CLI)
  add_executable(topo_spank_labtool ${CMAKE_CURRENT_SOURCE_DIR}/unit/spank/labtool.cpp)
  target_link_libraries(topo_spank_labtool PRIVATE topo_spank_core)
  topo_target_defaults(topo_spank_labtool)
endif()

if(TARGET topoplace_spank)
  # Exactly the SPANK entry points leave the module; undefined symbols are Slurm's, libc's
  # or libm's only (libstdc++ is linked statically). Not in sanitizer builds: the
  # instrumentation adds __asan_*/__ubsan_* and operator new/delete imports by design.
  if(NOT TOPO_SANITIZE)
    add_test(NAME spank.symbols COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/unit/spank/check-symbols.sh
             $<TARGET_FILE:topoplace_spank>)
    set_tests_properties(spank.symbols PROPERTIES LABELS unit)
  endif()

  # Live Slurm 22.05 lab with the plugin, job_submit.lua and the launch gate.
  set(_nodefeed "")
  if(TARGET topoplace-nodefeed)
    set(_nodefeed $<TARGET_FILE:topoplace-nodefeed>)
  endif()
  add_test(NAME lab.spank COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/lab/t-spank.sh
           $<TARGET_FILE:topoplace> $<TARGET_FILE:topoplace_spank> $<TARGET_FILE:topo_spank_labtool> ${_nodefeed})
  set_tests_properties(lab.spank PROPERTIES LABELS lab TIMEOUT 1500 RUN_SERIAL TRUE SKIP_RETURN_CODE 77)
  # The live replay (issue 31 item 5): a seeded trace at load 0.9 under Slurm's tree alone and
  # the plugin's plan at submission (22.05), and under topology/topoplace on 24.11 (below).
  # About 3 min per mode: label "replay", run by `TOPO_REPLAY=1 scripts/test.sh` or
  # `ctest -L replay`, not in the 75-minute suite (docs/topology-plugin.md "Live replay").
  add_test(NAME lab.replay COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/lab/t-replay.sh
           $<TARGET_FILE:topoplace> $<TARGET_FILE:topoplace_spank> - 1 numbered tree,spank)
  set_tests_properties(lab.replay PROPERTIES LABELS replay TIMEOUT 3600 RUN_SERIAL TRUE SKIP_RETURN_CODE 77)
endif()

# The same lab on every Slurm release a site runs: the plugin, topoplace-nodefeed, the CLI
# and the lab tool built for that release inside its Debian chroot (tests/lab/release.sh:
# trixie = 24.11, sid = 26.05; made once with debootstrap, cached under /var/tmp), then
# t-spank.sh on a live 64-node cluster of that release. Label "releases".
foreach(_rel 24.11 26.05)
  add_test(NAME release.${_rel}.symbols COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/lab/release.sh ${_rel} test symbols)
  add_test(NAME release.${_rel}.spank COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/lab/release.sh ${_rel} test t-spank.sh)
  add_test(NAME release.${_rel}.place COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/lab/release.sh ${_rel} test t-place.sh)
  # NVLink racks as Slurm blocks: a GB200 lab with topology/block (and topology.yaml on 26.05)
  add_test(NAME release.${_rel}.native COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/lab/release.sh ${_rel} test t-native.sh)
  # topology/topoplace: topoplace's choice inside slurmctld's node selection (issue 31)
  add_test(NAME release.${_rel}.topology COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/lab/release.sh ${_rel} test t-topology.sh)
  # the job record as topology/topoplace's headers lay it out, against that release's build
  add_test(NAME release.${_rel}.layout COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/lab/t-layout.sh ${_rel})
  set_tests_properties(release.${_rel}.layout PROPERTIES LABELS releases TIMEOUT 300 SKIP_RETURN_CODE 77)
  set_tests_properties(release.${_rel}.symbols release.${_rel}.spank release.${_rel}.place release.${_rel}.native
    release.${_rel}.topology PROPERTIES
    LABELS releases TIMEOUT 2400 RUN_SERIAL TRUE SKIP_RETURN_CODE 77)
  foreach(_seed 1 2)
    foreach(_layout numbered shuffled)
      add_test(NAME release.${_rel}.replay.s${_seed}.${_layout}
               COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/lab/release.sh ${_rel} test t-replay.sh ${_seed} ${_layout} tree,topology)
      set_tests_properties(release.${_rel}.replay.s${_seed}.${_layout} PROPERTIES
        LABELS replay TIMEOUT 3600 RUN_SERIAL TRUE SKIP_RETURN_CODE 77)
    endforeach()
  endforeach()
endforeach()
# The README's quick start on a live lab of each release, then `topoplace doctor` with each part
# broken and fixed (issue 30).
foreach(_rel 22.05 24.11 26.05)
  add_test(NAME release.${_rel}.doctor COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/lab/release.sh ${_rel} test t-doctor.sh)
  set_tests_properties(release.${_rel}.doctor PROPERTIES LABELS releases TIMEOUT 900 RUN_SERIAL TRUE SKIP_RETURN_CODE 77)
endforeach()
# A plugin built for one release in another release's plugstack: refused by Slurm, no crash
# (after the builds above; each release is shown another release's build).
foreach(_rel 22.05 24.11 26.05)
  add_test(NAME release.${_rel}.mismatch COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/lab/release.sh ${_rel} test t-mismatch.sh)
  set_tests_properties(release.${_rel}.mismatch PROPERTIES LABELS releases TIMEOUT 300 RUN_SERIAL TRUE SKIP_RETURN_CODE 77)
endforeach()
