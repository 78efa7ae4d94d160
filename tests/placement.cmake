# Unit and property tests of placement/ (place(), ClusterState parsers).
# Included from tests/CMakeLists.txt.
file(GLOB TOPO_PLACEMENT_TEST_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/unit/placement/*.cpp)
add_executable(topo_placement_tests ${TOPO_PLACEMENT_TEST_SOURCES})
target_link_libraries(topo_placement_tests PRIVATE topo_placement topo_slurmconf topo_core GTest::gtest_main)
target_compile_definitions(topo_placement_tests PRIVATE TOPO_FIXTURES="${TOPO_FIXTURES}")
# white-box: test_slurm_view.cpp reads the Placer's index (placement/src/internal.hpp)
target_include_directories(topo_placement_tests PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/unit/placement
                           ${PROJECT_SOURCE_DIR}/placement/src)
topo_target_defaults(topo_placement_tests)
gtest_discover_tests(topo_placement_tests DISCOVERY_MODE PRE_TEST PROPERTIES LABELS unit)

# Live Slurm 22.05 lab (64 slurmd on this machine): the slurm-tree model against
# slurmctld's own choices on a 3-level tree, and jobs placed through topoplace.
# Root and the Debian slurm packages needed. Run with: ctest -L lab
# With the plugin built, every probe also goes through `sbatch --topo=pack` (t-place.sh part 4).
set(_place_so "")
if(TARGET topoplace_spank)
  set(_place_so $<TARGET_FILE:topoplace_spank>)
endif()
add_test(NAME lab.place COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/lab/t-place.sh $<TARGET_FILE:topoplace> ${_place_so})
set_tests_properties(lab.place PROPERTIES LABELS lab TIMEOUT 900 RUN_SERIAL TRUE SKIP_RETURN_CODE 77)
