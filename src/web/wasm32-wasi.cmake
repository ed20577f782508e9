# The toolchain of the page's WebAssembly (the web preset): Debian's clang with wasi-libc, and
# libc++ built for wasm32-wasi (packages clang, lld, wasi-libc, libc++-dev-wasm32 and
# libclang-rt-dev-wasm32, which scripts/bootstrap --web installs). The module is a reactor: no
# main, its functions called by the page's script; it imports nothing a browser lacks
# (docs/browser.md).
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR wasm32)
set(CMAKE_CXX_COMPILER clang++)
set(CMAKE_CXX_COMPILER_TARGET wasm32-wasi)
execute_process(COMMAND clang++ -print-resource-dir OUTPUT_VARIABLE clang_resources
                OUTPUT_STRIP_TRAILING_WHITESPACE)
# The headers of wasm32-wasi alone: libc++'s, clang's own, then wasi-libc's; none of this
# machine's. (The link is given these flags too, and has no use for them: it is told not to say
# so.)
set(CMAKE_CXX_FLAGS_INIT
    "-nostdlibinc -isystem /usr/include/wasm32-wasi/c++/v1 -isystem ${clang_resources}/include -isystem /usr/include/wasm32-wasi")
set(CMAKE_EXE_LINKER_FLAGS_INIT
    "-Wno-unused-command-line-argument -mexec-model=reactor -nostdlib++ -L/usr/lib/wasm32-wasi -lc++ -lc++abi -Wl,--strip-all")
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
