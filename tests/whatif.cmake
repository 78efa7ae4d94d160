# What-if simulator: unit tests (trace readers, generator, failure tables, replay
# invariants, metrics) and the headless-Chromium check of the HTML report.
# Included from tests/CMakeLists.txt.
file(GLOB TOPO_WHATIF_TEST_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/unit/whatif/*.cpp)
add_executable(topo_whatif_tests ${TOPO_WHATIF_TEST_SOURCES})
target_link_libraries(topo_whatif_tests PRIVATE topo_whatif topo_placement topo_core GTest::gtest_main)
target_compile_definitions(topo_whatif_tests PRIVATE TOPO_FIXTURES="${TOPO_FIXTURES}")
topo_target_defaults(topo_whatif_tests)
gtest_discover_tests(topo_whatif_tests DISCOVERY_MODE PRE_TEST PROPERTIES LABELS unit)

# The report opens in headless Chromium and shows its plots; skipped (77) without chromium.
add_test(NAME whatif.report_renders_in_chromium
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/unit/whatif/report_chromium.sh
                 $<TARGET_FILE:topoplace> ${TOPO_FIXTURES})
set_tests_properties(whatif.report_renders_in_chromium PROPERTIES LABELS "cli;report" SKIP_RETURN_CODE 77
                     TIMEOUT 300)
