#!/usr/bin/env bash
# The main job: installs what is missing, builds, and plays a batch of seeded
# games, printing the results.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
install_deps
build
"$BUILD_DIR/tools/cassino" simulate --seed 0000000000000000000000000000000000000000000000000000000000000000 --games 1000 --players 2 "$@"
