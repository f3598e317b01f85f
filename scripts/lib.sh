# Shared set-up steps for scripts/demo.sh and scripts/test.sh.
# Installs the Debian packages the project needs (only those missing), then
# configures and builds with CMake + Ninja into ./build (incremental).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
BUILD_TYPE="${BUILD_TYPE:-RelWithDebInfo}"

# Every Debian package the build, the tests and the example bots use.
PACKAGES=(
  build-essential cmake ninja-build pkg-config git
  libgrpc++-dev libprotobuf-dev protobuf-compiler protobuf-compiler-grpc
  libabsl-dev libsqlite3-dev libssl-dev sqlite3
  libgtest-dev libgmock-dev libbenchmark-dev
  libcli11-dev nlohmann-json3-dev
  python3 python3-grpcio python3-protobuf
  chromium zlib1g-dev ccache
)

install_deps() {
  local missing=()
  for p in "${PACKAGES[@]}"; do
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
# (@grpc/grpc-js, @grpc/proto-loader) and buf for linting the API. (`npm
# install`, not `npm ci`: npm's ci refuses lock files that, like buf's, list
# platform-specific optional packages for this platform only.)
install_node_deps() {
  local dir
  for dir in "$ROOT/tools/bots/node" "$ROOT/proto"; do
    if [[ ! -d "$dir/node_modules" ]] && command -v npm >/dev/null; then
      echo "==> installing npm packages in ${dir#$ROOT/}"
      (cd "$dir" && npm install --silent --no-audit --no-fund) || \
        echo "warning: npm install failed in $dir; the tests that need it are skipped" >&2
    fi
  done
}

build() {
  local launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  if [[ ! -f "$BUILD_DIR/build.ninja" ]]; then
    cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE="$BUILD_TYPE" "${launcher[@]}"
  fi
  cmake --build "$BUILD_DIR" -j "$(nproc)" "$@"
}
