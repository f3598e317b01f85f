#!/usr/bin/env bash
# The README's `buf curl ... --list-methods` against a real referee exits 0
# and lists the API and the health service (issue #14: reflection listed
# grpc.health.v1.Health but could not describe it); and every `buf curl`
# example of docs/referee.md, run as written from the repository root (with
# the test's port and $ADMIN), exits 0 (issue #25). Exit 77 (skipped) when
# buf is not installed (proto/package.json, scripts/lib.sh install_node_deps).
# Usage: buf_curl_test.sh REFEREE_BINARY PROTO_DIR
set -euo pipefail
referee="$1"
buf="$2/node_modules/.bin/buf"
[[ -x "$buf" ]] || exit 77
dir="$(mktemp -d)"
pid=""
cleanup() {
  [[ -n "$pid" ]] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  rm -rf "$dir"
}
trap cleanup EXIT
CASSINO_ADMIN_TOKEN=buf-curl-test "$referee" --listen 127.0.0.1:0 \
  --db "$dir/r.db" --port-file "$dir/port" >"$dir/log" 2>&1 &
pid=$!
for _ in $(seq 1 200); do
  [[ -s "$dir/port" ]] && break
  sleep 0.05
done
port="$(cat "$dir/port")"
out="$("$buf" curl --protocol grpc --http2-prior-knowledge --list-methods \
  "http://127.0.0.1:$port")"
echo "$out"
grep -qx 'cassino.v1.RefereeService/CreateGame' <<<"$out"
grep -qx 'grpc.health.v1.Health/Check' <<<"$out"

# The documented examples, each with its continuation lines joined, from
# the repository root. npm is kept offline: an example that would fetch a
# package (plain `npx buf` resolves to an unrelated npm package) fails.
root="$(cd "$2/.." && pwd)"
mapfile -t examples < <(awk '
  /^ +npx .*buf curl/ { cmd = $0
    while (cmd ~ /\\$/) { sub(/\\$/, "", cmd); getline more; cmd = cmd more }
    print cmd }' "$root/docs/referee.md")
[[ ${#examples[@]} -ge 3 ]]
for example in "${examples[@]}"; do
  example="${example//127.0.0.1:50051/127.0.0.1:$port}"
  echo "+ $example"
  (cd "$root" && ADMIN=buf-curl-test npm_config_offline=true \
    bash -c "$example") </dev/null
done
