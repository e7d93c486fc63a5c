#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the session store tests (docs/store.md), on loopback only.
#
#   scripts/test-postgres.sh start DIR [PORT]   initdb in DIR, start it, print its URL
#   scripts/test-postgres.sh stop DIR           stop it (the caller removes DIR)
#
# The server also takes TLS (plain connections still work), with a certificate for 127.0.0.1 and
# localhost signed by a throwaway CA at DIR/tls/ca.pem: the store's sslrootcert test uses it
# (SEAM_TEST_POSTGRES_CA).
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
    tls="$dir/tls"
    mkdir -p "$tls"
    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=Seam test CA" -keyout "$tls/ca.key" -out "$tls/ca.pem" \
      -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" >"$dir/tls.log" 2>&1 \
      || { cat "$dir/tls.log" >&2; exit 1; }
    openssl req -newkey rsa:2048 -nodes -subj "/CN=localhost" -keyout "$tls/server.key" -out "$tls/server.csr" >>"$dir/tls.log" 2>&1
    printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n' >"$tls/server.ext"
    openssl x509 -req -in "$tls/server.csr" -CA "$tls/ca.pem" -CAkey "$tls/ca.key" -CAcreateserial -days 2 \
      -extfile "$tls/server.ext" -out "$tls/server.pem" >>"$dir/tls.log" 2>&1 || { cat "$dir/tls.log" >&2; exit 1; }
    chmod 600 "$tls/server.key" "$tls/ca.key"
    chmod 644 "$tls/ca.pem" "$tls/server.pem"
    chmod 755 "$tls"
    if [ "$(id -u)" = "0" ]; then chown postgres: "$tls/server.key" "$tls/server.pem"; fi
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
      -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$dir -c max_connections=400 -c fsync=off -c ssl=on -c ssl_cert_file=$tls/server.pem -c ssl_key_file=$tls/server.key" \
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
