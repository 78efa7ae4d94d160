# One place for warnings, sanitizers, PIC and hardening.
# Hardening (issue 17; Debian's hardening=+all and pyxis build the same way): every target is
# compiled with -fstack-protector-strong -fstack-clash-protection (and -D_FORTIFY_SOURCE=2
# where the optimiser runs, which FORTIFY needs), linked with full RELRO (-z relro -z now)
# and a non-executable stack, executables as PIE. Sanitizer and fuzz builds skip FORTIFY (it
# hides the accesses ASan checks) but keep the rest. tests/package/test_deb.sh checks the
# shipped binaries with readelf.
# -Wno-missing-field-initializers: a designated initializer (Nic{.name = n, .rail = r}) names
# the fields it sets on purpose; g++ 12 warns about the others anyway (g++ 13 and clang do not).
function(topo_target_defaults tgt)
  target_compile_features(${tgt} PUBLIC cxx_std_20)
  set_target_properties(${tgt} PROPERTIES POSITION_INDEPENDENT_CODE ON CXX_EXTENSIONS OFF)
  target_compile_options(${tgt} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wno-missing-field-initializers>
    $<$<BOOL:${TOPO_WARNINGS_AS_ERRORS}>:-Werror>
    -fstack-protector-strong -fstack-clash-protection)
  if(NOT TOPO_SANITIZE AND NOT TOPO_FUZZ)
    target_compile_definitions(${tgt} PRIVATE $<$<NOT:$<CONFIG:Debug>>:_FORTIFY_SOURCE=2>)
  endif()
  get_target_property(_type ${tgt} TYPE)
  if(_type STREQUAL "EXECUTABLE" OR _type STREQUAL "SHARED_LIBRARY" OR _type STREQUAL "MODULE_LIBRARY")
    target_link_options(${tgt} PRIVATE -Wl,-z,relro -Wl,-z,now -Wl,-z,noexecstack)
  endif()
  if(_type STREQUAL "EXECUTABLE")
    target_compile_options(${tgt} PRIVATE -fPIE)
    target_link_options(${tgt} PRIVATE -pie)
  endif()
  if(TOPO_SANITIZE)
    list(JOIN TOPO_SANITIZE "," _san)
    target_compile_options(${tgt} PRIVATE -fsanitize=${_san} -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
    target_link_options(${tgt} PRIVATE -fsanitize=${_san})
  endif()
  if(TOPO_FUZZ)
    # coverage for libFuzzer in the libraries too, not only in the harnesses
    target_compile_options(${tgt} PRIVATE -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer)
  endif()
endfunction()
