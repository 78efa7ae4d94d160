# The libraries for other programs: `cmake --install BUILD --component topoplace-dev
# --prefix P` installs the static libraries, their headers and a CMake package, so that a
# consumer writes
#     find_package(topoplace REQUIRED)
#     target_link_libraries(app PRIVATE topoplace::placement)
# (targets topoplace::core, ::perf, ::placement, ::whatif, ::health, ::slurmconf, and
# ::hwloc / ::ibnd where built). The component is EXCLUDE_FROM_ALL: a plain install and
# the Debian package carry the programs only. tests/consumer/ builds a program against an
# installed tree (ctest install.consumer).
set(TOPO_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/topoplace)

# topo_install_library(TARGET INCLUDE_DIR): the library into the export set, its public
# headers (INCLUDE_DIR/topo/...) beside the others.
function(topo_install_library tgt include_dir)
  string(REGEX REPLACE "^topo_" "" _short ${tgt})
  set_target_properties(${tgt} PROPERTIES EXPORT_NAME ${_short})
  install(TARGETS ${tgt} EXPORT topoplaceTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT topoplace-dev EXCLUDE_FROM_ALL)
  install(DIRECTORY ${include_dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
          COMPONENT topoplace-dev EXCLUDE_FROM_ALL)
endfunction()

# After every library: the export file, the package config and its version.
function(topo_install_export)
  include(CMakePackageConfigHelpers)
  install(EXPORT topoplaceTargets NAMESPACE topoplace:: DESTINATION ${TOPO_CMAKE_DIR}
          COMPONENT topoplace-dev EXCLUDE_FROM_ALL)
  set(TOPO_CONFIG_WITH_HWLOC OFF)
  set(TOPO_CONFIG_WITH_IBND OFF)
  if(TARGET topo_hwloc)
    set(TOPO_CONFIG_WITH_HWLOC ON)
  endif()
  if(TARGET topo_ibnd)
    set(TOPO_CONFIG_WITH_IBND ON)
  endif()
  configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/topoplaceConfig.cmake.in
                                ${PROJECT_BINARY_DIR}/topoplaceConfig.cmake INSTALL_DESTINATION ${TOPO_CMAKE_DIR})
  write_basic_package_version_file(${PROJECT_BINARY_DIR}/topoplaceConfigVersion.cmake
                                   COMPATIBILITY SameMinorVersion)
  install(FILES ${PROJECT_BINARY_DIR}/topoplaceConfig.cmake ${PROJECT_BINARY_DIR}/topoplaceConfigVersion.cmake
          DESTINATION ${TOPO_CMAKE_DIR} COMPONENT topoplace-dev EXCLUDE_FROM_ALL)
endfunction()
