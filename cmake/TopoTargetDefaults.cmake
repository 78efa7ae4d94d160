# One place for warnings, sanitizers and PIC.
function(topo_target_defaults tgt)
  target_compile_features(${tgt} PUBLIC cxx_std_20)
  set_target_properties(${tgt} PROPERTIES POSITION_INDEPENDENT_CODE ON CXX_EXTENSIONS OFF)
  target_compile_options(${tgt} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor>
    $<$<BOOL:${TOPO_WARNINGS_AS_ERRORS}>:-Werror>)
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
