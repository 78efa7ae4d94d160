# Unit tests of slurm-conf (topology.conf generation) and the Slurm lab test.
# Included from tests/CMakeLists.txt.
if(TARGET topo_slurmconf)
  file(GLOB TOPO_SLURMCONF_TEST_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/unit/slurmconf/*.cpp)
  add_executable(topo_slurmconf_tests ${TOPO_SLURMCONF_TEST_SOURCES})
  target_link_libraries(topo_slurmconf_tests PRIVATE topo_slurmconf topo_core GTest::gtest_main)
  target_compile_definitions(topo_slurmconf_tests PRIVATE
    TOPO_FIXTURES="${CMAKE_CURRENT_SOURCE_DIR}/fixtures"
    TOPO_GOLDEN="${CMAKE_CURRENT_SOURCE_DIR}/golden/slurm-conf")
  topo_target_defaults(topo_slurmconf_tests)
  gtest_discover_tests(topo_slurmconf_tests DISCOVERY_MODE PRE_TEST PROPERTIES LABELS unit)
endif()

# Real Slurm 22.05 lab (slurmctld + 16 slurmd on this machine): root and the Debian
# slurm packages needed. Run with: ctest -L lab
add_test(NAME lab.tree COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/lab/t-tree.sh $<TARGET_FILE:topoplace>)
set_tests_properties(lab.tree PROPERTIES LABELS lab TIMEOUT 600 RUN_SERIAL TRUE SKIP_RETURN_CODE 77)
add_test(NAME lab.gres COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/lab/t-gres.sh $<TARGET_FILE:topoplace>)
set_tests_properties(lab.gres PROPERTIES LABELS lab TIMEOUT 600 RUN_SERIAL TRUE SKIP_RETURN_CODE 77
  ENVIRONMENT "LAB_DIR=/tmp/tplab-conf;LAB_CTLD_PORT=16967;LAB_SLURMD_PORT_BASE=18100")

# Stretch: the block output on a live Slurm 24.11 slurmctld (Debian 13 chroot made with
# debootstrap on first use, ~2 min, cached in /var/tmp/topoplace-trixie). Root and
# network to Debian's archive on the first run. Run with: ctest -L trixie
add_test(NAME trixie.block COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/lab/t-block-trixie.sh $<TARGET_FILE:topoplace>)
set_tests_properties(trixie.block PROPERTIES LABELS trixie TIMEOUT 900 RUN_SERIAL TRUE SKIP_RETURN_CODE 77)

# job_submit.lua under Lua 5.1 with a stand-in slurm table: what it logs of user-set text.
add_test(NAME lua.job_submit COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/lua/test_job_submit.sh ${PROJECT_SOURCE_DIR})
set_tests_properties(lua.job_submit PROPERTIES LABELS cli SKIP_RETURN_CODE 77 TIMEOUT 60)

# topoplace slurm-conf --check against a live slurmctld of each release (issue 28): every
# file the checker passes starts slurmctld, every fatal finding is fatal there too
# (tests/lab/t-topocheck.sh; one private slurmctld at a time on ports 7911-7913, no slurmd).
# 22.05 is this host's Slurm (label lab); 24.11 and 26.05 run in the release chroots of
# tests/lab/release.sh (label releases), with the CLI of this build tree.
file(RELATIVE_PATH _topocheck_build ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR})
foreach(_rel 22.05 24.11 26.05)
  if(_rel STREQUAL "22.05")
    set(_label lab)
    set(_cli $<TARGET_FILE:topoplace>)
  else()
    set(_label releases)
    set(_cli /opt/topoplace-host/topoplace)  # release.sh's wrapper of this tree's CLI
  endif()
  add_test(NAME release.${_rel}.topocheck
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/lab/release.sh ${_rel} run bash tests/lab/t-topocheck.sh ${_cli})
  set_tests_properties(release.${_rel}.topocheck PROPERTIES LABELS ${_label} TIMEOUT 240 RUN_SERIAL TRUE
    SKIP_RETURN_CODE 77 ENVIRONMENT "TOPO_BUILD_DIR=${_topocheck_build}")
endforeach()
