#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run calls exactly this):
#   1. installs what is missing (Debian and npm packages);
#   2. checks the C++ formatting (scripts/check_format.sh);
#   3. builds with gcc (./build, RelWithDebInfo, warnings are errors) and
#      runs every test; builds the profile-guided engine (./build-pgo,
#      Release) and checks that it plays the pinned games;
#   4. builds everything again with clang (the `asan` preset, ./build-asan:
#      Debug, AddressSanitizer + UndefinedBehaviorSanitizer, -Wthread-safety
#      -Werror, and the libFuzzer targets), so that a member read without
#      its lock, or a clang-only warning, fails CI; runs the whole suite
#      again there (leak detection on, fewer random games in the property
#      tests); then runs each fuzz target on its seed corpus for
#      FUZZ_SECONDS (default 20), under ASan and UBSan.
# SANITIZERS=off skips step 4; ASAN_TESTS=off keeps its build and fuzzers
# but skips the suite under ASan (817 tests in 15 minutes on 2 cores,
# 2026-12-01; the gcc suite: 831 in 6 minutes). A cold run is mostly
# compiling (docs/performance.md, *CI's build time*); the builds carry
# line tables only as debug information (scripts/lib.sh). Arguments go to
# the ctest runs (e.g. `bash scripts/test.sh -R Referee`).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
install_deps
install_node_deps
bash "$ROOT/scripts/check_format.sh"
build
(cd "$BUILD_DIR" && ctest --output-on-failure -j "$(nproc)" --timeout 600 "$@")

# The profile-guided engine (docs/performance.md, *The profile-guided
# engine*): trained, rebuilt with its profile, and playing the pinned games
# move for move.
echo "==> the profile-guided engine (build-pgo): trained, rebuilt, checked"
BUILD_DIR="$ROOT/build-pgo" BUILD_TYPE=Release \
  CMAKE_ARGS="-DCASSINO_BUILD_TESTS=OFF -DCASSINO_BUILD_SDK=OFF" \
  build_profiled --target engine_training
"$ROOT/build-pgo/tools/engine_training" --games 2000 |
  diff -u "$ROOT/tests/tools/engine_training.out" -

if [[ "${SANITIZERS:-on}" != off ]]; then
  echo "==> the suite again with clang: ASan + UBSan, -Wthread-safety (build-asan)"
  cd "$ROOT"
  if [[ ! -f build-asan/build.ninja ]]; then
    launcher=()
    command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    cmake --preset asan "${launcher[@]}" >/dev/null
  fi
  cmake --build build-asan -j "$(nproc)"
  if [[ "${ASAN_TESTS:-on}" == on ]]; then
    (
      cd build-asan
      # Instrumented code is slow: fewer random games in the property tests.
      CASSINO_PROPERTY_GAMES=150 \
        ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
        UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        ctest --output-on-failure -j "$(nproc)" --timeout 900 "$@"
    )
  fi
  run_fuzzers "$ROOT/build-asan" "${FUZZ_SECONDS:-20}"
fi
