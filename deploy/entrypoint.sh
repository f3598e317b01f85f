#!/bin/bash
# cassino-entrypoint: the container image's entrypoint. Starts cassino-referee
# from the environment that the Kubernetes manifests (deploy/k8s/) or
# `docker run -e` give it, after checking that everything it names is there,
# so that a missing Secret or volume is a clear one-line error rather than a
# referee serving plaintext or writing its records where nobody keeps them.
#
# The referee replaces this script (exec): it is the container's main
# process, receives SIGTERM itself, ends open calls, flushes the record and
# exits 0. Arguments are passed on to the referee (e.g. --seat-rate 100).
#
# Environment (defaults in brackets):
#   CASSINO_DB                the database file [/var/lib/cassino/cassino.db];
#                             its directory must exist and be writable
#   CASSINO_LISTEN            the API's address [0.0.0.0:50051]
#   CASSINO_HEALTH_LISTEN     plaintext health-only address, for probes that
#                             cannot speak TLS [0.0.0.0:50052]; empty: none
#   CASSINO_DURABILITY        normal | full [full]
#   CASSINO_ADMIN_TOKEN_FILE  file holding the admin token (a mounted Secret);
#                             without it and without CASSINO_ADMIN_TOKEN the
#                             referee makes one and prints it in the log
#   CASSINO_TLS_CERT, CASSINO_TLS_KEY
#                             the server certificate and key (PEM; a
#                             kubernetes.io/tls Secret's tls.crt and tls.key)
#   CASSINO_TLS_CLIENT_CA     require client certificates signed by this CA
#   CASSINO_REQUIRE_TLS       1: refuse to start without a certificate [0]
#   CASSINO_REFEREE           the referee binary [/usr/local/bin/cassino-referee]
set -euo pipefail

fail() {
  echo "cassino-entrypoint: $*" >&2
  exit 2
}

# readable_file VARIABLE: the file the variable names exists, is readable and
# is not empty.
readable_file() {
  local name="$1" path="${!1}"
  [[ -f "$path" ]] || fail "$name: no file $path (is its Secret mounted?)"
  [[ -r "$path" ]] || fail "$name: $path is not readable by uid $(id -u)"
  [[ -s "$path" ]] || fail "$name: $path is empty"
}

referee="${CASSINO_REFEREE:-/usr/local/bin/cassino-referee}"
db="${CASSINO_DB:-/var/lib/cassino/cassino.db}"
listen="${CASSINO_LISTEN:-0.0.0.0:50051}"
health_listen="${CASSINO_HEALTH_LISTEN-0.0.0.0:50052}"
durability="${CASSINO_DURABILITY:-full}"

[[ -x "$referee" ]] || fail "CASSINO_REFEREE: $referee is not an executable"
data_dir="$(dirname "$db")"
[[ -d "$data_dir" ]] || fail "CASSINO_DB: no directory $data_dir (is the volume mounted?)"
[[ -w "$data_dir" ]] || fail "CASSINO_DB: $data_dir is not writable by uid $(id -u)"

args=(--listen "$listen" --db "$db" --durability "$durability")
[[ -n "$health_listen" ]] && args+=(--health-listen "$health_listen")

if [[ -n "${CASSINO_ADMIN_TOKEN_FILE:-}" ]]; then
  readable_file CASSINO_ADMIN_TOKEN_FILE
  args+=(--admin-token-file "$CASSINO_ADMIN_TOKEN_FILE")
elif [[ -z "${CASSINO_ADMIN_TOKEN:-}" ]]; then
  echo "cassino-entrypoint: no CASSINO_ADMIN_TOKEN_FILE: the referee makes" \
    "an admin token and prints it below" >&2
fi

if [[ -n "${CASSINO_TLS_CERT:-}${CASSINO_TLS_KEY:-}" ]]; then
  [[ -n "${CASSINO_TLS_CERT:-}" && -n "${CASSINO_TLS_KEY:-}" ]] ||
    fail "CASSINO_TLS_CERT and CASSINO_TLS_KEY go together"
  readable_file CASSINO_TLS_CERT
  readable_file CASSINO_TLS_KEY
  args+=(--tls-cert "$CASSINO_TLS_CERT" --tls-key "$CASSINO_TLS_KEY")
  if [[ -n "${CASSINO_TLS_CLIENT_CA:-}" ]]; then
    readable_file CASSINO_TLS_CLIENT_CA
    args+=(--tls-client-ca "$CASSINO_TLS_CLIENT_CA")
  fi
elif [[ "${CASSINO_REQUIRE_TLS:-0}" == 1 ]]; then
  fail "CASSINO_REQUIRE_TLS=1 but no CASSINO_TLS_CERT/CASSINO_TLS_KEY"
elif [[ -n "${CASSINO_TLS_CLIENT_CA:-}" ]]; then
  fail "CASSINO_TLS_CLIENT_CA needs CASSINO_TLS_CERT and CASSINO_TLS_KEY"
fi

echo "cassino-entrypoint: ${HOSTNAME:-referee}: database $db," \
  "durability $durability" >&2
exec "$referee" "${args[@]}" "$@"
