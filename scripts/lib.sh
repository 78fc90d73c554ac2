# Shared by the scripts in this folder: configure-once CMake builds.
# shellcheck shell=bash

# cmake_build DIR [CMAKE ARGS...]: configures DIR on first use, then builds it.
cmake_build() {
  local dir=$1
  shift
  if [[ ! -f "$dir/CMakeCache.txt" ]]; then
    cmake -S . -B "$dir" "$@" >/dev/null
  fi
  cmake --build "$dir" -j "$(nproc)"
}

build_native() { cmake_build build/native -DCMAKE_BUILD_TYPE=Release; }
build_native_sanitized() {
  cmake_build build/native-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUCKOO_SANITIZE=ON -DCUCKOO_BUILD_BENCH=OFF
}
