# Shared by the scripts in this folder: configure-once CMake builds.
# shellcheck shell=bash

# cmake_build DIR [CMAKE ARGS...]: configures DIR on first use, then builds it.
cmake_build() {
  local dir=$1
  shift
  cmake_configure "$dir" "$@"
  cmake --build "$dir" -j "$(nproc)"
}

# cmake_configure DIR [CMAKE ARGS...]: configures DIR on first use.
cmake_configure() {
  local dir=$1
  shift
  if [[ ! -f "$dir/CMakeCache.txt" ]]; then
    cmake -S . -B "$dir" "$@" >/dev/null
  fi
}

build_native() { cmake_build build/native -DCMAKE_BUILD_TYPE=Release; }

# The Redis/Valkey module (bindings/redis-module), in the native tree: only
# its target, when that is all that is wanted.
REDIS_MODULE_FILE=build/native/bindings/redis-module/cuckoo-redis.so
build_redis_module() {
  cmake_configure build/native -DCMAKE_BUILD_TYPE=Release
  # A tree configured before the module existed learns of it (a full build would do this itself).
  [[ -d build/native/bindings/redis-module ]] || cmake -S . -B build/native >/dev/null
  cmake --build build/native --target cuckoo_redis -j "$(nproc)"
}
build_native_sanitized() {
  cmake_build build/native-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUCKOO_SANITIZE=ON -DCUCKOO_BUILD_BENCH=OFF
}

# emcmake_build DIR [CMAKE ARGS...]: cmake_build with Emscripten's toolchain.
# Debian's em++ finds its acorn in /usr/share/nodejs.
emcmake_build() {
  local dir=$1
  shift
  export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
  if [[ ! -f "$dir/CMakeCache.txt" ]]; then
    emcmake cmake -S . -B "$dir" "$@" >/dev/null
  fi
  cmake --build "$dir" -j "$(nproc)"
}

# The WebAssembly modules.
build_wasm() { emcmake_build build/wasm -DCMAKE_BUILD_TYPE=Release; }
# The GoogleTest suite compiled by em++, to run under Node; its own tree, so
# that the package's build never carries it.
build_wasm_tests() { emcmake_build build/wasm-tests -DCMAKE_BUILD_TYPE=Release -DCUCKOO_WASM_TESTS=ON; }

# The npm package contents in dist/: the lean module (cuckoo.wasm, no glue),
# the full module with its two glue files, and the TypeScript API compiled to
# ES modules (dist/esm, *.mjs) and CommonJS (dist/cjs, *.js), each with its
# platform files (the web one by default; the entries of the `node`
# condition, *.node.*, install Node's: ts/src/use-node.ts).
build_package() {
  build_wasm
  local out=build/wasm/bindings
  if ! cmp -s "$out/cuckoo-full.wasm" "$out/cjs/cuckoo-full.wasm"; then
    echo "build: the ES module and CommonJS links produced different cuckoo-full.wasm files" >&2
    return 1
  fi
  rm -rf dist
  mkdir -p dist/wasm
  cp "$out/cuckoo.wasm" "$out/cuckoo-patch.wasm" "$out/cuckoo-full.wasm" "$out/cuckoo-full.mjs" "$out/cjs/cuckoo-full.cjs" dist/wasm/
  # The JavaScript ships without comments (a browser downloads it); the .d.ts
  # files keep the TSDoc that editors show.
  local format
  for format in esm cjs; do
    npx tsc -p "ts/tsconfig.$format.json" --removeComments --declaration false
    npx tsc -p "ts/tsconfig.$format.json" --emitDeclarationOnly
  done
  node scripts/esm-extensions.mjs dist/esm
  cp ts/platform/esm/*.mjs dist/esm/
  cp ts/platform/cjs/*.js dist/cjs/
  # The command-line tool (ts/cli.ts and ts/cli/), CommonJS only, compiled with
  # Node's types against the declarations just emitted: it imports the library
  # as the built dist/cjs/index.node.js, so the library is not compiled again here.
  npx tsc -p ts/tsconfig.cli.json
  # The exports' short names (bindings/export-names.json), in the modules and
  # in the JavaScript that calls them: a smaller download.
  node scripts/export-names.mjs dist
  # Each module written once more with Binaryen's Stack IR optimized: the last
  # pass of Emscripten's own wasm-opt run (--strip-debug) discards the Stack IR
  # its -Oz or -O3 had made, so that the module is written without it (each
  # function a few local.set/local.get pairs longer). Nothing else changes but
  # the code of the exports export-names.mjs dropped, which goes: the lean
  # module 103 B gzip smaller, the full one 166 B.
  local module
  for module in dist/wasm/*.wasm; do
    wasm-opt "$module" --mvp-features --optimize-level 2 --shrink-level 2 \
      --remove-unused-module-elements --generate-stack-ir --optimize-stack-ir -o "$module"
  done
}
