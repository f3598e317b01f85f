#!/usr/bin/env bash
# One default port everywhere (issue #25, 7a): the referee started without
# --listen and the bots started without --address (and without
# $CASSINO_ADDRESS) find each other on 127.0.0.1:50051. cassino-bot plays
# the Python and Node examples (where they can run here: Debian's
# python3-grpcio, protoc and grpc_python_plugin; node with
# tools/bots/node/node_modules), or itself, through `cassino tournament`,
# and every game ends without a forfeit. Exit 77 (skipped) when the port is
# taken on this machine.
# Usage: default_port_test.sh REFEREE CASSINO CASSINO_BOT SOURCE_DIR
set -euo pipefail
referee="$1"
cli="$2"
bot="$3"
src="$4"
dir="$(mktemp -d)"
pid=""
cleanup() {
  [[ -n "$pid" ]] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  rm -rf "$dir"
}
trap cleanup EXIT
export CASSINO_ADMIN_TOKEN=default-port-test
"$referee" --db "$dir/r.db" --port-file "$dir/port" >"$dir/log" 2>&1 &
pid=$!
for _ in $(seq 1 200); do
  [[ -s "$dir/port" ]] && break
  if ! kill -0 "$pid" 2>/dev/null; then
    pid=""
    if grep -q "cannot listen" "$dir/log"; then
      echo "127.0.0.1:50051 is taken on this machine: skipped"
      exit 77
    fi
    cat "$dir/log"
    exit 1
  fi
  sleep 0.05
done
[[ "$(cat "$dir/port")" == 50051 ]] || { cat "$dir/log"; exit 1; }

no_address="env -u CASSINO_ADDRESS"
bots=(--bot "cpp=$no_address $bot -q --strategy greedy")
if [[ -x /usr/bin/grpc_python_plugin ]] && command -v protoc >/dev/null &&
  /usr/bin/python3 -c 'import grpc, google.protobuf' 2>/dev/null; then
  bots+=(--bot "python=$no_address /usr/bin/python3 $src/tools/bots/python/cassino_bot.py")
else
  echo "the Python example cannot run here: not part of this test"
fi
if command -v node >/dev/null &&
  [[ -d "$src/tools/bots/node/node_modules/@grpc/grpc-js" ]]; then
  bots+=(--bot "node=$no_address node $src/tools/bots/node/cassino_bot.js")
else
  echo "the Node example cannot run here: not part of this test"
fi
if [[ ${#bots[@]} -eq 2 ]]; then
  bots+=(--bot "cpp2=$no_address $bot -q --strategy random")
fi
out="$("$cli" tournament --address 127.0.0.1:50051 "${bots[@]}" \
  --schedule gauntlet --games 1 --per-move-ms 20000 -q 2>&1)"
echo "$out"
# Every bot's row: no forfeit (the 7th column).
rows="$(awk '/^rank bot/ {table = 1; next} table && NF >= 7' <<<"$out")"
[[ -n "$rows" ]]
awk '$7 != 0 {bad = 1} END {exit bad}' <<<"$rows"
