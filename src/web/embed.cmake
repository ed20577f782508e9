# Writes OUT: a script that sets IOIWARI_MODULE to the bytes of WASM as base64 text, so that a
# page opened from a folder loads the module with no request a browser would refuse.
execute_process(COMMAND base64 -w 0 ${WASM} OUTPUT_VARIABLE encoded RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "base64 failed on ${WASM}")
endif()
file(WRITE ${OUT} "// The ioiwari module (WebAssembly), made by src/web/embed.cmake: do not edit.\nvar IOIWARI_MODULE = \"${encoded}\";\n")
