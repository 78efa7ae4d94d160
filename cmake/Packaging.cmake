# SPDX-License-Identifier: Apache-2.0
# The Debian package: `cpack -G DEB` in a build directory (scripts/package.sh does the whole
# thing) writes topoplace_<version>_<arch>.deb with the CLI, the SPANK plugin, the
# plugstack.conf.d snippet (a conffile), job_submit.lua and the slurm.conf lines, the man
# pages and the docs. Runtime dependencies come from dpkg-shlibdeps; the plugin is tied to
# the Slurm major.minor it was built against (Slurm refuses any other).

# Files that are not targets: Slurm snippets, man pages (gzip -9n, as Debian policy wants),
# docs, the copyright file.
include(GNUInstallDirs)
set(TOPO_DATA_DIR ${CMAKE_INSTALL_DATADIR}/topoplace)
set(TOPO_DOC_DIR ${CMAKE_INSTALL_DATADIR}/doc/topoplace)
install(FILES slurm-conf/lua/job_submit.lua slurm-conf/snippets/slurm.conf.topoplace
        DESTINATION ${TOPO_DATA_DIR})
install(FILES README.md docs/cluster-spec.md docs/health.md docs/placement.md docs/slurm-conf.md
              docs/security.md docs/snapshot.md docs/spank.md docs/whatif.md
        DESTINATION ${TOPO_DOC_DIR})
install(FILES packaging/copyright DESTINATION ${TOPO_DOC_DIR})
# The health store the plugstack snippet names (health=/var/lib/topoplace/health), there from
# installation on every node, login nodes included (issue 17 finding 2): root's, 0755.
install(DIRECTORY DESTINATION /var/lib/topoplace/health
        DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)

find_program(TOPO_GZIP gzip)
set(_man_gz "")
foreach(page docs/man/topoplace.1 docs/man/topoplace-spank.8 docs/man/topoplace-nodefeed.8)
  get_filename_component(_name ${page} NAME)
  string(REGEX REPLACE ".*\\.([0-9])$" "\\1" _sec ${_name})
  set(_gz ${CMAKE_CURRENT_BINARY_DIR}/man/${_name}.gz)
  add_custom_command(OUTPUT ${_gz}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/man
    COMMAND ${TOPO_GZIP} -9n -c ${CMAKE_CURRENT_SOURCE_DIR}/${page} > ${_gz}
    DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${page} VERBATIM)
  list(APPEND _man_gz ${_gz})
  install(FILES ${_gz} DESTINATION ${CMAKE_INSTALL_MANDIR}/man${_sec})
endforeach()
add_custom_target(topo_man ALL DEPENDS ${_man_gz})

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME topoplace)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "topoplace")
set(CPACK_PACKAGE_CONTACT "topoplace maintainers <maintainers@users.noreply.a-seed-059937e5.example>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
if(TOPO_SLURM_MAJOR_MINOR)
  # the release the plugin is for, in the file name: topoplace_0.1.0+slurm22.05_amd64.deb
  execute_process(COMMAND dpkg --print-architecture OUTPUT_VARIABLE _deb_arch OUTPUT_STRIP_TRAILING_WHITESPACE
                  ERROR_QUIET)
  if(_deb_arch)
    set(CPACK_DEBIAN_FILE_NAME "topoplace_${PROJECT_VERSION}+slurm${TOPO_SLURM_MAJOR_MINOR}_${_deb_arch}.deb")
  endif()
endif()
set(CPACK_DEBIAN_PACKAGE_SECTION admin)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "topology-aware placement for GPU training clusters on Slurm")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "topology-aware placement for GPU training clusters on Slurm
 topoplace models a GPU cluster (hosts, GPUs, NICs, NVLink domains, InfiniBand fat
 trees and rails) from ibnetdiscover dumps, hwloc XML, nvidia-smi topo matrices,
 Slurm topology.conf or a cluster file; generates topology.conf, features and
 gres.conf; places jobs on the fewest switches; replays traces under several
 policies (what-if); checks node health and drains bad nodes.
 .
 This package holds the topoplace command, the SPANK plugin topoplace.so
 (sbatch/salloc/srun --topo=pack, a launch health gate in the job prolog, per-task
 NCCL_IB_HCA/UCX_NET_DEVICES), built for Slurm ${TOPO_SLURM_MAJOR_MINOR}, and the
 topoplace-nodefeed service that keeps the plugin's node-state file fresh.
 .
 A SPANK plugin loads only into the Slurm major.minor it was built for: on another
 Slurm release install the topoplace package built for that release
 (topoplace_VERSION+slurmX.Y_ARCH.deb; README \"Slurm releases\").")
if(TOPO_SLURM_MAJOR_MINOR)
  # A SPANK plugin loads only into the Slurm major.minor it was built for.
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "slurm-client (>= ${TOPO_SLURM_MAJOR_MINOR}), slurm-client (<< ${TOPO_SLURM_NEXT})")
  set(CPACK_DEBIAN_PACKAGE_ENHANCES "slurm-client, slurmd, slurmctld")
  set(CPACK_DEBIAN_PACKAGE_BREAKS "slurm-client (>= ${TOPO_SLURM_NEXT}), slurmd (>= ${TOPO_SLURM_NEXT}), slurm-client (<< ${TOPO_SLURM_MAJOR_MINOR}), slurmd (<< ${TOPO_SLURM_MAJOR_MINOR})")
endif()
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${CMAKE_CURRENT_SOURCE_DIR}/packaging/conffiles)
if(TOPO_TOPOLOGY_SLURM_VERSION)
  # Two packages: topoplace (everything but the topology plugin: the install() calls without a
  # component) and topoplace-topology (topology/topoplace, for the controller). The plugin
  # is compiled with slurmctld's internal structures of one micro release (spank/topology/
  # slurm-X.Y/VERSION): its Depends admits exactly that upstream release, any Debian revision.
  string(REPLACE "." ";" _tv "${TOPO_TOPOLOGY_SLURM_VERSION}")
  list(GET _tv 2 _tmicro)
  math(EXPR _tnext "${_tmicro} + 1")
  set(_tnext_v "${TOPO_SLURM_MAJOR_MINOR}.${_tnext}")
  set(_tshim "")
  if(TOPO_TOPOLOGY_SHIM)
    set(_tshim " For everything but the node choice it\n calls that release's own topology/tree (topology_tree.so of slurm-wlm-basic-plugins).")
  endif()
  set(CPACK_DEB_COMPONENT_INSTALL ON)
  set(CPACK_COMPONENTS_ALL Unspecified topology)
  set(CPACK_DEBIAN_UNSPECIFIED_PACKAGE_NAME topoplace)
  set(CPACK_DEBIAN_UNSPECIFIED_DESCRIPTION "${CPACK_DEBIAN_PACKAGE_DESCRIPTION}")
  set(CPACK_DEBIAN_UNSPECIFIED_FILE_NAME "${CPACK_DEBIAN_FILE_NAME}")
  set(CPACK_DEBIAN_UNSPECIFIED_PACKAGE_CONTROL_EXTRA ${CMAKE_CURRENT_SOURCE_DIR}/packaging/conffiles)
  unset(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA)
  set(CPACK_DEBIAN_TOPOLOGY_PACKAGE_NAME topoplace-topology)
  if(_deb_arch)
    set(CPACK_DEBIAN_TOPOLOGY_FILE_NAME
        "topoplace-topology_${PROJECT_VERSION}+slurm${TOPO_TOPOLOGY_SLURM_VERSION}_${_deb_arch}.deb")
  else()
    set(CPACK_DEBIAN_TOPOLOGY_FILE_NAME DEB-DEFAULT)
  endif()
  set(CPACK_DEBIAN_TOPOLOGY_PACKAGE_DEPENDS
      "slurmctld (>= ${TOPO_TOPOLOGY_SLURM_VERSION}), slurmctld (<< ${_tnext_v}~)")
  set(CPACK_DEBIAN_TOPOLOGY_PACKAGE_RECOMMENDS "topoplace (= ${PROJECT_VERSION})")
  set(CPACK_DEBIAN_TOPOLOGY_PACKAGE_BREAKS "")
  set(CPACK_DEBIAN_TOPOLOGY_PACKAGE_ENHANCES "slurmctld")
  set(CPACK_DEBIAN_TOPOLOGY_PACKAGE_SECTION admin)
  set(CPACK_DEBIAN_TOPOLOGY_DESCRIPTION "topology/topoplace: topoplace's node choice inside slurmctld (Slurm ${TOPO_TOPOLOGY_SLURM_VERSION})
 A Slurm topology plugin (TopologyPlugin=topology/topoplace in slurm.conf) that is
 topology/tree with one change: at every scheduling attempt it narrows the nodes Slurm
 offers to topoplace's choice (the cost policy by default) and lets topology/tree
 allocate inside it, falling back to topology/tree on the whole offer. It reads the
 topoplace snapshot next to slurm.conf (topoplace discover).
 .
 It is compiled with slurmctld's internal structures of Slurm ${TOPO_TOPOLOGY_SLURM_VERSION} exactly,
 so it depends on that upstream release.${_tshim} Derived from Slurm's topology/tree:
 GPL-2.0-or-later (/usr/share/doc/topoplace-topology/COPYING.slurm).")
endif()
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_RESOURCE_FILE_LICENSE ${CMAKE_CURRENT_SOURCE_DIR}/LICENSE)
set(CPACK_WARN_ON_ABSOLUTE_INSTALL_DESTINATION OFF)
include(CPack)
