#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds, runs every test;
# then builds the suite again with AddressSanitizer + UndefinedBehaviorSanitizer
# (the `asan` CMake preset, ./build-asan) and runs it there too. Set
# SANITIZERS=off to skip the second pass. Arguments go to both ctest runs.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
install_deps
install_node_deps
build
(cd "$BUILD_DIR" && ctest --output-on-failure -j "$(nproc)" --timeout 600 "$@")

if [[ "${SANITIZERS:-on}" != off ]]; then
  echo "==> the suite again under AddressSanitizer + UBSan (build-asan)"
  cd "$ROOT"
  if [[ ! -f build-asan/build.ninja ]]; then
    launcher=()
    command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    cmake --preset asan "${launcher[@]}" >/dev/null
  fi
  cmake --build build-asan -j "$(nproc)"
  cd build-asan
  # Instrumented code is slow: fewer random games in the property tests.
  CASSINO_PROPERTY_GAMES=150 \
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --output-on-failure -j "$(nproc)" --timeout 900 "$@"
fi
