# Shared by the scripts in this folder: configure-once CMake builds.
# shellcheck shell=bash

# cmake_build DIR [CMAKE ARGS...]: configures DIR on first use, then builds it.
cmake_build() {
 as the built dist/cjs/index.js, so the library is not compiled again here.local dir=$1
 as the built dist/cjs/index.js, so the library is not compiled again here.shift
 as the built dist/cjs/index.js, so the library is not compiled again here.if [[ ! -f "$dir/CMakeCache.txt" ]]; then
 as the built dist/cjs/index.js, so the library is not compiled again here.  cmake -S . -B "$dir" "$@" >/dev/null
 as the built dist/cjs/index.js, so the library is not compiled again here.fi
 as the built dist/cjs/index.js, so the library is not compiled again here.cmake --build "$dir" -j "$(nproc)"
}

build_native() { cmake_build build/native -DCMAKE_BUILD_TYPE=Release; }
build_native_sanitized() {
 as the built dist/cjs/index.js, so the library is not compiled again here.cmake_build build/native-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUCKOO_SANITIZE=ON -DCUCKOO_BUILD_BENCH=OFF
}

# The WebAssembly module (Emscripten). Debian's em++ finds its acorn in /usr/share/nodejs.
build_wasm() {
 as the built dist/cjs/index.js, so the library is not compiled again here.export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
 as the built dist/cjs/index.js, so the library is not compiled again here.if [[ ! -f build/wasm/CMakeCache.txt ]]; then
 as the built dist/cjs/index.js, so the library is not compiled again here.  emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release >/dev/null
 as the built dist/cjs/index.js, so the library is not compiled again here.fi
 as the built dist/cjs/index.js, so the library is not compiled again here.cmake --build build/wasm -j "$(nproc)"
}

# The npm package contents in dist/: the lean module (cuckoo.wasm, no glue),
# the full module with its two glue files, and the TypeScript API compiled to
# ES modules (dist/esm, *.mjs) and CommonJS (dist/cjs, *.js), each with its
# platform files (the web one by default; the entries of the `node`
# condition, *.node.*, install Node's: ts/src/use-node.ts).
build_package() {
 as the built dist/cjs/index.js, so the library is not compiled again here.build_wasm
 as the built dist/cjs/index.js, so the library is not compiled again here.local out=build/wasm/bindings
 as the built dist/cjs/index.js, so the library is not compiled again here.if ! cmp -s "$out/cuckoo-full.wasm" "$out/cjs/cuckoo-full.wasm"; then
 as the built dist/cjs/index.js, so the library is not compiled again here.  echo "build: the ES module and CommonJS links produced different cuckoo-full.wasm files" >&2
 as the built dist/cjs/index.js, so the library is not compiled again here.  return 1
 as the built dist/cjs/index.js, so the library is not compiled again here.fi
 as the built dist/cjs/index.js, so the library is not compiled again here.rm -rf dist
 as the built dist/cjs/index.js, so the library is not compiled again here.mkdir -p dist/wasm
 as the built dist/cjs/index.js, so the library is not compiled again here.cp "$out/cuckoo.wasm" "$out/cuckoo-full.wasm" "$out/cuckoo-full.mjs" "$out/cjs/cuckoo-full.cjs" dist/wasm/
 as the built dist/cjs/index.js, so the library is not compiled again here.# The JavaScript ships without comments (a browser downloads it); the .d.ts
 as the built dist/cjs/index.js, so the library is not compiled again here.# files keep the TSDoc that editors show.
 as the built dist/cjs/index.js, so the library is not compiled again here.local format
 as the built dist/cjs/index.js, so the library is not compiled again here.for format in esm cjs; do
 as the built dist/cjs/index.js, so the library is not compiled again here.  npx tsc -p "ts/tsconfig.$format.json" --removeComments --declaration false
 as the built dist/cjs/index.js, so the library is not compiled again here.  npx tsc -p "ts/tsconfig.$format.json" --emitDeclarationOnly
 as the built dist/cjs/index.js, so the library is not compiled again here.done
 as the built dist/cjs/index.js, so the library is not compiled again here.node scripts/esm-extensions.mjs dist/esm
 as the built dist/cjs/index.js, so the library is not compiled again here.cp ts/platform/esm/*.mjs dist/esm/
 as the built dist/cjs/index.js, so the library is not compiled again here.cp ts/platform/cjs/*.js dist/cjs/
 as the built dist/cjs/index.js, so the library is not compiled again here.# The command-line tool (ts/cli.ts and ts/cli/), CommonJS only, compiled with
 as the built dist/cjs/index.js, so the library is not compiled again here.# Node's types against the declarations just emitted: it imports the library
 as the built dist/cjs/index.js, so the library is not compiled again here.# as the built dist/cjs/index.js, so the library is not compiled again here.
 as the built dist/cjs/index.js, so the library is not compiled again here.npx tsc -p ts/tsconfig.cli.json
}
