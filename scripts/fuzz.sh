#!/usr/bin/env bash
# Builds the libFuzzer targets with clang in their own build dir and runs one.
#
#   bash scripts/fuzz.sh <target> [seconds] [extra libFuzzer flags...]
#
# <target>: move_parser_fuzzer, position_parser_fuzzer, rules_parser_fuzzer,
#           record_import_fuzzer, service_request_fuzzer or session_fuzzer.
# seconds:  how long to fuzz (default 60).
# The seed corpus fuzz/corpus/<target>/ is copied into the build dir's
# working corpus (FUZZ_BUILD_DIR/corpus/<target>/), which grows as the fuzzer
# finds new inputs; the seeds in the tree are never modified. Crashing inputs
# are written to FUZZ_BUILD_DIR/artifacts/<target>/. Exit status: 0 if no
# crash was found, non-zero otherwise.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

TARGETS=("${FUZZ_TARGETS[@]}")
target="${1:-}"
seconds="${2:-60}"
if [[ -z "$target" || ! " ${TARGETS[*]} " =~ " $target " ]]; then
  echo "usage: $0 <${TARGETS[*]// /|}> [seconds] [libFuzzer flags...]" >&2
  exit 2
fi
shift $(($# >= 2 ? 2 : 1))

FUZZ_BUILD_DIR="${FUZZ_BUILD_DIR:-$ROOT/build-fuzz}"

install_deps
if ! command -v clang++ >/dev/null || ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
  echo "==> installing clang and its libFuzzer runtime"
  sudo=""
  [[ $(id -u) -ne 0 ]] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends clang libclang-rt-14-dev
fi

if [[ ! -f "$FUZZ_BUILD_DIR/build.ninja" ]]; then
  cmake -S "$ROOT" -B "$FUZZ_BUILD_DIR" -G Ninja \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
    -DCASSINO_BUILD_FUZZERS=ON -DCASSINO_BUILD_TESTS=OFF \
    -DCASSINO_BUILD_BENCHMARKS=OFF
fi
cmake --build "$FUZZ_BUILD_DIR" -j "$(nproc)" --target "$target"

corpus="$FUZZ_BUILD_DIR/corpus/$target"
artifacts="$FUZZ_BUILD_DIR/artifacts/$target"
mkdir -p "$corpus" "$artifacts"
cp -n "$ROOT/fuzz/corpus/$target/"* "$corpus/" 2>/dev/null || true

# Export files are larger than parser inputs: their seeds are whole games.
max_len=1024
[[ "$target" == record_import_fuzzer ]] && max_len=24576

echo "==> fuzzing $target for ${seconds}s (corpus $corpus)"
exec "$FUZZ_BUILD_DIR/fuzz/$target" "$corpus" \
  -max_total_time="$seconds" -max_len="$max_len" -timeout=10 \
  -artifact_prefix="$artifacts/" -print_final_stats=1 "$@"
