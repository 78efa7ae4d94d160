# The performance model: published anchors, properties, the parameter file, nccl-tests
# output and the calibration fit. Included from tests/CMakeLists.txt.
file(GLOB TOPO_PERF_TEST_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/unit/perf/*.cpp)
add_executable(topo_perf_tests ${TOPO_PERF_TEST_SOURCES})
target_link_libraries(topo_perf_tests PRIVATE topo_perf topo_core GTest::gtest_main)
target_compile_definitions(topo_perf_tests PRIVATE TOPO_FIXTURES="${TOPO_FIXTURES}")
target_include_directories(topo_perf_tests PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/unit)
topo_target_defaults(topo_perf_tests)
gtest_discover_tests(topo_perf_tests DISCOVERY_MODE PRE_TEST PROPERTIES LABELS unit)
