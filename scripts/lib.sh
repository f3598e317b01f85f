# Shared set-up steps for scripts/demo.sh and scripts/test.sh.
# Installs the Debian packages the project needs (only those missing), then
# configures and builds with CMake + Ninja into ./build (incremental).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
BUILD_TYPE="${BUILD_TYPE:-RelWithDebInfo}"

# What compiling the referee and the CLI needs; the container image's build
# stage (deploy/Dockerfile) installs only these.
BUILD_PACKAGES=(
  build-essential cmake ninja-build pkg-config
  libgrpc++-dev libprotobuf-dev protobuf-compiler protobuf-compiler-grpc
  libabsl-dev libsqlite3-dev libssl-dev libsodium-dev
  libcli11-dev nlohmann-json3-dev libcpp-httplib-dev grpc-proto
  golang-github-gogo-googleapis-dev libgoogle-perftools-dev
)

# Every Debian package the build, the tests and the example bots use.
PACKAGES=(
  "${BUILD_PACKAGES[@]}" git sqlite3
  libgtest-dev libgmock-dev libbenchmark-dev
  python3 python3-grpcio python3-protobuf python3-yaml shellcheck
  python3-venv python3-pip python3-setuptools python3-wheel
  python3-dev pybind11-dev python3-pybind11
  chromium libpng-dev ccache
  clang libclang-rt-14-dev clang-format
  haproxy
)

# install_deps [PACKAGE...]: installs those of the packages (default: all of
# PACKAGES) that are missing.
install_deps() {
  local missing=() wanted=("$@")
  ((${#wanted[@]})) || wanted=("${PACKAGES[@]}")
  for p in "${wanted[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$p")
    fi
  done
  if ((${#missing[@]})); then
    echo "==> installing missing packages: ${missing[*]}"
    local sudo=""
    [[ $(id -u) -ne 0 ]] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
}

# npm packages, as each package-lock.json pins them: the Node example bot's
# and the Node SDK's (@grpc/grpc-js, @grpc/proto-loader, protobufjs), buf for linting the API, and
# kubernetes-models for checking the deployment manifests against the
# Kubernetes API schema, and puppeteer-core for the web viewer's browser
# tests (with Debian's chromium; its own browser download is skipped). (`npm
# install`, not `npm ci`: npm's ci refuses lock files that, like buf's, list
# platform-specific optional packages for this platform only.)
install_node_deps() {
  local dir
  for dir in "$ROOT/tools/bots/node" "$ROOT/sdk/node" "$ROOT/proto" \
             "$ROOT/tests/deploy" "$ROOT/tests/viewer"; do
    if [[ ! -d "$dir/node_modules" ]] && command -v npm >/dev/null; then
      echo "==> installing npm packages in ${dir#$ROOT/}"
      (cd "$dir" && PUPPETEER_SKIP_DOWNLOAD=1 npm install --silent --no-audit --no-fund) || \
        echo "warning: npm install failed in $dir; the tests that need it are skipped" >&2
    fi
  done
}

# configure: configures BUILD_DIR once (CMAKE_ARGS, split on spaces, are
# added then). Debug information is line tables only (CASSINO_DEBUG_INFO,
# CMakeLists.txt: a quarter less compile time with GCC) unless
# DEBUG_INFO=full.
configure() {
  local launcher=() extra=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  read -r -a extra <<<"${CMAKE_ARGS:-}"
  if [[ ! -f "$BUILD_DIR/build.ninja" ]]; then
    cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE="$BUILD_TYPE" \
      -DCASSINO_DEBUG_INFO="${DEBUG_INFO:-lines}" "${launcher[@]}" "${extra[@]}"
  fi
}

# build [TARGET...]: configures (once) and builds.
build() {
  configure
  cmake --build "$BUILD_DIR" -j "$(nproc)" "$@"
}

# build_profiled [TARGET...]: like build, with the rules engine compiled
# from a profile of its own training run (docs/performance.md, *The
# profile-guided engine*; GCC only): instruments the engine, builds and runs
# engine_training (ENGINE_TRAINING_GAMES games, default 10000), then
# rebuilds the engine with the profile and builds TARGETs.
build_profiled() {
  local profile="$BUILD_DIR/engine-profile"
  configure
  cmake -S "$ROOT" -B "$BUILD_DIR" -DCASSINO_ENGINE_PROFILE=generate \
    -DCASSINO_ENGINE_PROFILE_DIR="$profile" >/dev/null
  cmake --build "$BUILD_DIR" -j "$(nproc)" --target engine_training
  rm -rf "$profile"
  echo "==> training the engine's profile (engine_training)"
  "$BUILD_DIR/tools/engine_training" --games "${ENGINE_TRAINING_GAMES:-10000}" \
    >/dev/null
  cmake -S "$ROOT" -B "$BUILD_DIR" -DCASSINO_ENGINE_PROFILE=use >/dev/null
  cmake --build "$BUILD_DIR" -j "$(nproc)" "$@"
}

# The libFuzzer targets (fuzz/) and their seed corpora.
FUZZ_TARGETS=(move_parser_fuzzer position_parser_fuzzer rules_parser_fuzzer
              record_import_fuzzer service_request_fuzzer session_fuzzer)

# run_fuzzers BUILD_DIR SECONDS: runs every fuzz target built in BUILD_DIR on
# a copy of its seed corpus (BUILD_DIR/fuzz-corpus/<target>, which grows
# between runs; the seeds in the tree are never modified) for SECONDS each.
# Crashing inputs go to BUILD_DIR/fuzz-artifacts/<target>/. Fails on the
# first target that finds a crash, leak or sanitizer report.
run_fuzzers() {
  local dir="$1" seconds="$2" target corpus artifacts max_len
  for target in "${FUZZ_TARGETS[@]}"; do
    corpus="$dir/fuzz-corpus/$target"
    artifacts="$dir/fuzz-artifacts/$target"
    mkdir -p "$corpus" "$artifacts"
    cp -n "$ROOT/fuzz/corpus/$target/"* "$corpus/" 2>/dev/null || true
    # Export files are larger than parser inputs: their seeds are whole games.
    max_len=1024
    [[ "$target" == record_import_fuzzer ]] && max_len=24576
    echo "==> fuzzing $target for ${seconds}s"
    local log="$dir/fuzz-artifacts/$target.log" status=0
    "$dir/fuzz/$target" "$corpus" -max_total_time="$seconds" \
      -max_len="$max_len" -timeout=10 -artifact_prefix="$artifacts/" \
      -print_final_stats=1 >"$log" 2>&1 || status=$?
    grep -E "^(Done|stat::number_of_executed_units|stat::new_units_added)" "$log" || true
    if ((status != 0)) || compgen -G "$artifacts/*" >/dev/null; then
      tail -n 60 "$log" >&2
      echo "fuzz: $target failed (exit $status); inputs: $(ls "$artifacts")" >&2
      return 1
    fi
  done
}
