#!/usr/bin/env bash
# The server's load measurements on both databases (issue 17): `target/release/load` with the
# embedded SQLite file, then on a PostgreSQL cluster this script starts in a temporary
# directory (loopback, a free port; as the `postgres` user when run as root) and stops at the
# end, with the multi-node throughput scenario. Report: benches/reports/README.md.
#
#   bash benches/load-postgres.sh [SCENARIOS...]   (default: overhead poll, and nodes on PostgreSQL)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build -q --release -p folio-server -p folio-bench --bin folio --bin load
scenarios=("$@")
[ ${#scenarios[@]} -gt 0 ] || scenarios=(overhead poll)
pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
dir=$(mktemp -d)
run=()
if [ "$(id -u)" = 0 ]; then
    chown postgres:postgres "$dir"
    run=(runuser -u postgres --)
fi
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cleanup() { "${run[@]}" "$pgbin/pg_ctl" -D "$dir/data" stop -m fast >/dev/null 2>&1 || true; rm -rf "$dir"; }
trap cleanup EXIT
"${run[@]}" "$pgbin/initdb" -D "$dir/data" -A trust -U postgres --no-locale -E UTF8 >/dev/null
# Durable settings (fsync on): what a deployment runs; only the connection limit is raised.
"${run[@]}" "$pgbin/pg_ctl" -D "$dir/data" -l "$dir/log" -w \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=200" start >/dev/null
sqlite=()
for x in "${scenarios[@]}"; do [ "$x" = nodes ] || sqlite+=("$x"); done
if [ ${#sqlite[@]} -gt 0 ]; then
    echo "== embedded SQLite" >&2
    target/release/load "${sqlite[@]}"
fi
echo "== PostgreSQL $(basename "$(dirname "$pgbin")") on 127.0.0.1:$port" >&2
if [ $# -eq 0 ]; then scenarios+=(nodes); fi
target/release/load --postgres "postgres://postgres@127.0.0.1:$port/postgres" "${scenarios[@]}"
