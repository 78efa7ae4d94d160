# Unit tests of the health part (probes on fake sysfs trees, flag store, scontrol
# parsing), its CLI test and its Slurm lab test. Included from tests/CMakeLists.txt.
file(GLOB TOPO_HEALTH_TEST_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/unit/health/*.cpp)
add_executable(topo_health_tests ${TOPO_HEALTH_TEST_SOURCES})
target_link_libraries(topo_health_tests PRIVATE topo_health topo_core GTest::gtest_main)
target_compile_definitions(topo_health_tests PRIVATE TOPO_FIXTURES="${TOPO_FIXTURES}")
topo_target_defaults(topo_health_tests)
gtest_discover_tests(topo_health_tests DISCOVERY_MODE PRE_TEST PROPERTIES LABELS unit)

# The ib probe's libibumad path on an ibsim-simulated port (skipped without ibsim).
add_test(NAME ibsim.health COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/unit/health/t-health-ibsim.sh
         $<TARGET_FILE:topoplace> ${TOPO_FIXTURES})
set_tests_properties(ibsim.health PROPERTIES LABELS ibsim SKIP_RETURN_CODE 77 TIMEOUT 120)

# Live Slurm 22.05 lab: drain / resume / manual drain / running job (root + Slurm).
add_test(NAME lab.health COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/lab/t-health.sh $<TARGET_FILE:topoplace>)
set_tests_properties(lab.health PROPERTIES LABELS lab TIMEOUT 600 RUN_SERIAL TRUE SKIP_RETURN_CODE 77)
