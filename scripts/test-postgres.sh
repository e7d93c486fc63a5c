#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the session store tests (docs/store.md), on loopback only.
#
#   scripts/test-postgres.sh start DIR [PORT]   initdb in DIR, start it, print its URL
#   scripts/test-postgres.sh stop DIR           stop it (the caller removes DIR)
#
# Debian's postgresql package puts the server in /usr/lib/postgresql/<version>/bin. initdb refuses
# to run as root, so as root the cluster belongs to the postgres user (runuser).
set -euo pipefail

bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
if [ -z "$bin" ] && command -v pg_ctl >/dev/null; then bin="$(dirname "$(command -v pg_ctl)")"; fi
if [ -z "$bin" ]; then echo "test-postgres: no PostgreSQL server installed (apt-get install postgresql)" >&2; exit 1; fi

as_owner() {
  if [ "$(id -u)" = "0" ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "${1:-}" in
  start)
    dir="${2:?directory}"
    port="${3:-}"
    if [ -z "$port" ]; then
      port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
    fi
    mkdir -p "$dir"
    if [ "$(id -u)" = "0" ]; then chown postgres: "$dir"; fi
    as_owner "$bin/initdb" -D "$dir/data" -U seam --auth=trust --encoding=UTF8 --no-instructions >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; exit 1; }
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
      -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$dir -c max_connections=200 -c fsync=off" \
      start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
    echo "postgres://seam@127.0.0.1:$port/postgres"
    ;;
  stop)
    dir="${2:?directory}"
    if [ -d "$dir/data" ]; then as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null || true; fi
    ;;
  *)
    echo "usage: $0 start DIR [PORT] | stop DIR" >&2
    exit 2
    ;;
esac
