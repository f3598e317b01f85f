#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds, runs every test.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
install_deps
install_node_deps
build
cd "$BUILD_DIR"
ctest --output-on-failure -j "$(nproc)" --timeout 600 "$@"
