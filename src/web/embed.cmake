# Writes OUT: a script that sets IOIWARI_MODULE to the bytes of WASM (the module with SIMD) and
# IOIWARI_MODULE_PLAIN to those of WASM_PLAIN (without), each as base64 text, so that a page opened
# from a folder loads them with no request a browser would refuse.
set(lines "// The ioiwari modules (WebAssembly), made by src/web/embed.cmake: do not edit.\n")
foreach(pair "IOIWARI_MODULE;${WASM}" "IOIWARI_MODULE_PLAIN;${WASM_PLAIN}")
  list(GET pair 0 name)
  list(GET pair 1 file)
  execute_process(COMMAND base64 -w 0 ${file} OUTPUT_VARIABLE encoded RESULT_VARIABLE failed)
  if(failed)
    message(FATAL_ERROR "base64 failed on ${file}")
  endif()
  string(APPEND lines "var ${name} = \"${encoded}\";\n")
endforeach()
file(WRITE ${OUT} "${lines}")
