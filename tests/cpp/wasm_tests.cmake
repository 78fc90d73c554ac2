# The suite compiled by em++ and run under Node (scripts/lib.sh's
# build_wasm_tests configures it, with CUCKOO_WASM_TESTS, in its own build
# tree): it runs what the wasm build compiles differently from the native one,
# the shapes WebAssembly carries (kernels.cpp), kCompactCode (kernel.hpp), the
# batches' loads in place of prefetches (batch_memory.hpp), all with a 32-bit
# size_t. Included by CMakeLists.txt under Emscripten.

# Debian ships no WebAssembly libgtest, only its sources (package googletest,
# which libgtest-dev depends on): built here with em++, without threads,
# which the suite does not use and Node would need workers for.
set(CUCKOO_GOOGLETEST_SOURCE /usr/src/googletest CACHE PATH "GoogleTest's sources, for the WebAssembly test build")
if(NOT EXISTS "${CUCKOO_GOOGLETEST_SOURCE}/CMakeLists.txt")
  message(FATAL_ERROR "GoogleTest's sources not found in ${CUCKOO_GOOGLETEST_SOURCE}: install Debian's googletest")
endif()
set(BUILD_GMOCK OFF CACHE BOOL "" FORCE)
set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
set(gtest_disable_pthreads ON CACHE BOOL "" FORCE)
add_subdirectory("${CUCKOO_GOOGLETEST_SOURCE}" "${CMAKE_BINARY_DIR}/googletest" EXCLUDE_FROM_ALL)

# Memory as the modules have it (bindings/CMakeLists.txt): growing to 4 GiB,
# with a malloc that returns null. The fixtures are read from the real file
# system (NODERAWFS). Compiled synchronously: Emscripten 3.1.6's asynchronous
# path fetch()es the .wasm by its file name once Node has a fetch (18+),
# which fails.
set(CUCKOO_WASM_TEST_LINK_OPTIONS -sENVIRONMENT=node -sNODERAWFS=1 -sEXIT_RUNTIME=1 -sWASM_ASYNC_COMPILATION=0
  -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=4GB -sABORTING_MALLOC=0 -sMALLOC=emmalloc)

# Every test, over the full module's kernels (cuckoo-full.wasm's).
cuckoo_test_program(cuckoo_tests ${CUCKOO_TEST_SOURCES})
target_link_libraries(cuckoo_tests PRIVATE cuckoo cuckoo_kernels_full cuckoo_kernels_generic_full GTest::gtest_main)
target_link_options(cuckoo_tests PRIVATE ${CUCKOO_WASM_TEST_LINK_OPTIONS})

# The kernel tests again over the lean module's (cuckoo.wasm's: the generic
# kernels alone, compiled for size); test_kernels.cpp expects them by the
# same CUCKOO_LEAN_KERNELS.
cuckoo_test_program(cuckoo_kernel_tests_lean test_kernels.cpp)
target_compile_definitions(cuckoo_kernel_tests_lean PRIVATE CUCKOO_LEAN_KERNELS)
target_link_libraries(cuckoo_kernel_tests_lean PRIVATE cuckoo cuckoo_kernels_lean cuckoo_kernels_generic_lean
  GTest::gtest_main)
target_link_options(cuckoo_kernel_tests_lean PRIVATE ${CUCKOO_WASM_TEST_LINK_OPTIONS})

# Each program in one Node process (the toolchain's emulator): Node's
# start-up and the module's compilation once, not once per test.
add_test(NAME CoreOverTheFullModulesKernels COMMAND cuckoo_tests)
add_test(NAME KernelsOfTheLeanModule COMMAND cuckoo_kernel_tests_lean)
