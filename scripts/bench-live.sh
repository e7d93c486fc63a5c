#!/usr/bin/env bash
# Live load test: N concurrent Seam sessions, each reloading its stitched media playlist every
# RELOAD seconds on its own open-loop schedule, against nginx serving one such playlist statically
# under the same paced load; side by side in one run, for each N in SESSIONS_LIST. Reports request
# rate achieved, p50/p99/p99.9 latency (from the scheduled send time) and the ratio to nginx,
# origin playlist fetches per second (Seam's counter and the origin's own view through a counting
# proxy), and Seam's memory per session. The load generator is Benchmarks/LiveLoad
# (LiveLoadBenchmark). Results: BENCHMARKS.md.
#
# With STORE=postgres REPLICAS=2, each N also runs the production topology under the same load:
# the demo origin and ad server on their own (`seam demo --upstreams-only`), REPLICAS `seam serve`
# replicas with sessions in PostgreSQL, and nginx in front with deploy/nginx/seam.conf's balancing
# (per-viewer affinity on X-Forwarded-For: the generator gives each session a viewer address of its
# own, so the sessions spread over the replicas the way viewers would). Reported next to the
# in-memory single replica of the same run: latency and the ratio, store queries per reload
# (seam_store_queries_total, summed over the replicas' /metrics) and PostgreSQL's own count of
# transactions (pg_stat_database.xact_commit) over the same window.
#
# Usage: scripts/bench-live.sh
#        CONTENT_URL=http://127.0.0.1:8081/media/content/master.m3u8 scripts/bench-live.sh   # VOD sessions
#        SESSIONS_LIST=10000 STORE=postgres REPLICAS=2 scripts/bench-live.sh               # + PostgreSQL, 2 replicas
# Knobs (environment):
#   CONTENT_URL   content the sessions are created for (default: the demo origin's live channel,
#                 http://127.0.0.1:8081/live/cueOutIn/master.m3u8; 127.0.0.1:8081 is rewritten to the
#                 origin's actual port when ORIGIN_PORT or PORTS=auto moves it)
#   SESSIONS_LIST="1000 10000"  DURATION=60 (measured seconds)  WARMUP=0  RELOAD=6 (seconds)
#   CONNECTIONS=1000 (keep-alive connections of the generator, capped at N)  CREATE_CONCURRENCY=16
#   SEAM_PORT=8080 ORIGIN_PORT=8081 AD_PORT=8082 (seam demo's defaults), or PORTS=auto for free ports
#   MAX_SESSIONS=20000 (passed as --set sessions.maxSessions)  SETTLE=2 (s before reading RSS)
#   ORIGIN_TAP=1 (put a counting nginx proxy between Seam and the origin; 0 to fetch the origin directly)
#   EXTERNAL_ADS=1 (Seam's ad tag is a static VAST served by nginx, like an external ADS; 0: the demo's VMAP)
#   SEAM_SET="key=value ..." (more configuration for seam demo, e.g. SEAM_SET="live.adRequestConcurrency=16")
#   LIVE_SCHEDULE="<channel URL prefix> every=<s> offset=<s> duration=<s>" (one live.schedules entry, for
#                 channels without cues, e.g. CONTENT_URL=http://127.0.0.1:8081/live/none/master.m3u8 ORIGIN_TAP=0
#                 LIVE_SCHEDULE="http://127.0.0.1:8081/live/none/ every=60 duration=24"; with
#                 SEAM_SET="live.prefetchSeconds=30 ..." its breaks are decided ahead)
#   DEMO_ARGS="--set debug.token=" (seam demo's debug story off, as in production; DEMO_ARGS="" for a
#                 seam from before debug.token existed, e.g. 042bd47)
#   SCRATCH=.build-bench (SwiftPM scratch path)  SEAM_BIN= (use this seam binary, skip the seam build)
#   KEEP_TMP=1 (keep the temp dir with every JSON and log)
#   ACCEPT_ENCODING=gzip (sent with every request, as players send it; nginx then compresses each
#                 answer too, gzip_comp_level 6 as Seam's zlib; default: none, plain answers)
#   STORE=memory|postgres REPLICAS=1: with anything but memory and 1, also run that configuration
#                 behind nginx (see above); TOPOLOGIES="postgres:2 memory:2" runs several (store:replicas);
#                 store postgres-poll is PostgreSQL with store.notifications=false (replicas confirm the
#                 sessions they hold every store.cacheSeconds instead of hearing of changes)
#   POSTGRES_URL= (use this server, a database is created per run in it; default: a throwaway
#                 cluster from scripts/test-postgres.sh)  STORE_SET="key=value ..." (more for the replicas)
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
helpers="$root/scripts/bench_live"
serve_helpers="$root/scripts/bench_serve"

declare -A defaults=([SESSIONS_LIST]="1000 10000" [DURATION]=60 [WARMUP]=0 [RELOAD]=6 [CONNECTIONS]=1000
                     [CREATE_CONCURRENCY]=16 [SEAM_PORT]=8080 [ORIGIN_PORT]=8081 [AD_PORT]=8082 [PORTS]=fixed
                     [MAX_SESSIONS]=20000 [SETTLE]=2 [ORIGIN_TAP]=1 [SCRATCH]=.build-bench [SEAM_BIN]=""
                     [CONTENT_URL]="http://127.0.0.1:8081/live/cueOutIn/master.m3u8" [STORE]=memory [REPLICAS]=1
                     [TOPOLOGIES]="" [POSTGRES_URL]="" [STORE_SET]="" [DEMO_ARGS]="--set debug.token="
                     [SEAM_SET]="" [LIVE_SCHEDULE]="" [EXTERNAL_ADS]=1 [ACCEPT_ENCODING]="")
command_line="scripts/bench-live.sh"
for knob in SESSIONS_LIST DURATION WARMUP RELOAD CONNECTIONS CREATE_CONCURRENCY SEAM_PORT ORIGIN_PORT AD_PORT PORTS \
            MAX_SESSIONS SETTLE ORIGIN_TAP SCRATCH SEAM_BIN CONTENT_URL STORE REPLICAS TOPOLOGIES POSTGRES_URL STORE_SET DEMO_ARGS \
            SEAM_SET LIVE_SCHEDULE EXTERNAL_ADS ACCEPT_ENCODING; do
  if [[ -n "${!knob+set}" && "${!knob}" != "${defaults[$knob]}" ]]; then command_line="$knob='${!knob}' $command_line"; fi
  # Set but empty counts for DEMO_ARGS (no extra arguments); for the others empty means the default.
  if [[ -z "${!knob+set}" || ( -z "${!knob}" && "$knob" != DEMO_ARGS ) ]]; then declare "$knob=${defaults[$knob]}"; fi
done
for tool in nginx curl python3; do
  command -v "$tool" >/dev/null || { echo "bench-live: $tool is required" >&2; exit 1; }
done
cores="$(nproc)"
# The configurations run after the in-memory single replica, as store:replicas.
if [[ -z "$TOPOLOGIES" && ( "$STORE" != memory || "$REPLICAS" != 1 ) ]]; then TOPOLOGIES="$STORE:$REPLICAS"; fi
max_replicas=0
for topology in $TOPOLOGIES; do
  [[ "$topology" =~ ^(memory|postgres|postgres-poll):([1-9][0-9]*)$ ]] || { echo "bench-live: TOPOLOGIES entry '$topology' is not memory:N, postgres:N or postgres-poll:N" >&2; exit 1; }
  (( BASH_REMATCH[2] > max_replicas )) && max_replicas="${BASH_REMATCH[2]}"
  if [[ "${BASH_REMATCH[1]}" == postgres && -z "$POSTGRES_URL" ]]; then
    ls -d /usr/lib/postgresql/*/bin >/dev/null 2>&1 || command -v pg_ctl >/dev/null \
      || { echo "bench-live: STORE=postgres needs PostgreSQL (apt-get install postgresql) or POSTGRES_URL" >&2; exit 1; }
  fi
done
[[ -z "$TOPOLOGIES" ]] || command -v psql >/dev/null || { echo "bench-live: psql is required for TOPOLOGIES" >&2; exit 1; }

log() { printf '[bench-live %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "$*"; exit 1; }

# File descriptors: the generator holds CONNECTIONS sockets, Seam the same plus its upstream ones.
hard="$(ulimit -Hn)"
if [[ "$hard" == unlimited ]]; then ulimit -n 65536; else ulimit -n "$hard"; fi
need=$((CONNECTIONS + 1024))
[[ "$(ulimit -n)" -ge "$need" ]] || die "ulimit -n is $(ulimit -n) (hard limit $hard); CONNECTIONS=$CONNECTIONS needs at least $need"

# --- processes and cleanup --------------------------------------------------------------------
tmp="$(mktemp -d /tmp/seam-bench-live.XXXXXX)"
chmod 755 "$tmp"                  # nginx workers may run as another user when started as root
results="$tmp/results"; mkdir -p "$results"
seam_pid="" nginx_pid="" tap_pid="" ads_pid="" gen_pid=""
upstreams_pid="" front_pid="" replica_pids=() pg_dir=""

stop() { # pid: TERM, up to 15 s to exit, then KILL
  local pid="$1"
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  stop "$gen_pid"
  stop "$nginx_pid"
  stop "$front_pid"
  local pid
  for pid in "${replica_pids[@]}"; do stop "$pid"; done
  stop "$upstreams_pid"
  stop "$tap_pid"
  stop "$ads_pid"
  stop "$seam_pid"
  [[ -z "$pg_dir" ]] || "$root/scripts/test-postgres.sh" stop "$pg_dir" || true
  if [[ -n "${KEEP_TMP:-}" || "$rc" -ne 0 ]]; then log "kept $tmp"; else rm -rf "$tmp"; fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

wait_http() { # url, seconds, pid that must stay alive
  local url="$1" seconds="$2" pid="$3"
  for _ in $(seq $((seconds * 10))); do
    kill -0 "$pid" 2>/dev/null || { log "process $pid exited while waiting for $url"; return 1; }
    curl -fsS -o /dev/null --max-time 1 "$url" 2>/dev/null && return 0
    sleep 0.1
  done
  log "timed out waiting for $url"; return 1
}

port_free() { python3 -c '
import socket, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
try: s.bind(("127.0.0.1", int(sys.argv[1])))
except OSError: sys.exit(1)' "$1"; }

# --- ports --------------------------------------------------------------------------------------
mapfile -t spare < <(python3 "$serve_helpers/free_ports.py" $((7 + max_replicas)))
if [[ "$PORTS" == auto ]]; then
  SEAM_PORT="${spare[0]}" ORIGIN_PORT="${spare[1]}" AD_PORT="${spare[2]}"
fi
nginx_port="${spare[3]}" tap_port="${spare[4]}" ads_port="${spare[5]}" front_port="${spare[6]}"
replica_ports=("${spare[@]:7}")
for name in SEAM_PORT ORIGIN_PORT AD_PORT; do
  port_free "${!name}" || die "port ${!name} ($name) is busy on 127.0.0.1 — is another seam demo running? Stop it, or run with PORTS=auto (free ports) or $name=<port>."
done
# The content URL names the demo origin's default port; follow the origin where it actually listens.
CONTENT_URL="${CONTENT_URL/127.0.0.1:8081\//127.0.0.1:$ORIGIN_PORT/}"
content_path="/${CONTENT_URL#http://*/}"
origin_authority="${CONTENT_URL#http://}"; origin_authority="${origin_authority%%/*}"

# --- build --------------------------------------------------------------------------------------
build() { # product
  for attempt in 1 2 3 4 5; do
    # Others may be editing the checkout: SwiftPM stops when a source changes mid-build; try again.
    if swift build -c release --product "$1" --scratch-path "$SCRATCH" >"$tmp/build-$1.log" 2>&1; then return 0; fi
    if [[ "$attempt" -lt 5 ]] && grep -q 'was modified during the build' "$tmp/build-$1.log"; then
      log "a source changed during the build; retrying"; sleep 5; continue
    fi
    tail -40 "$tmp/build-$1.log" >&2; die "building $1 failed (log: $tmp/build-$1.log)"
  done
}
if [[ -n "$SEAM_BIN" ]]; then what="LiveLoadBenchmark (seam: $SEAM_BIN as given)"; else what="LiveLoadBenchmark and seam"; fi
log "building $what (release, scratch path $SCRATCH)"
build LiveLoadBenchmark
[[ -n "$SEAM_BIN" ]] || build seam
bin="$(swift build -c release --scratch-path "$SCRATCH" --show-bin-path)"
gen_bin="$bin/LiveLoadBenchmark"
seam_bin="${SEAM_BIN:-$bin/seam}"
[[ -x "$seam_bin" ]] || die "no seam binary at $seam_bin"

# --- the counting proxy in front of the origin (the origin's own view of fetches) ----------------
mkdir -p "$tmp/logs" "$tmp/temp" "$tmp/www"
nginx_common="
    client_body_temp_path $tmp/temp/body;
    proxy_temp_path $tmp/temp/proxy;
    fastcgi_temp_path $tmp/temp/fastcgi;
    uwsgi_temp_path $tmp/temp/uwsgi;
    scgi_temp_path $tmp/temp/scgi;"
seam_content_url="$CONTENT_URL"
if [[ "$ORIGIN_TAP" == 1 ]]; then
  cat >"$tmp/tap.conf" <<EOF
# Generated by scripts/bench-live.sh: logs every request Seam makes to the origin, with its time.
worker_processes 1;
daemon off;
pid $tmp/tap.pid;
error_log $tmp/logs/tap-error.log warn;
events { worker_connections 4096; }
http {
    $nginx_common
    log_format tap '\$msec \$status \$request_method \$request_uri';
    access_log $tmp/logs/tap-access.log tap;
    upstream origin { server $origin_authority; keepalive 64; }
    server {
        listen 127.0.0.1:$tap_port;
        location / {
            proxy_pass http://origin;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host \$http_host;
            proxy_buffering off;
        }
    }
}
EOF
  nginx -e "$tmp/logs/tap-error.log" -p "$tmp/" -c "$tmp/tap.conf" &
  tap_pid=$!
  seam_content_url="http://127.0.0.1:$tap_port$content_path"
fi

# --- the ad server ------------------------------------------------------------------------------
# In production the ADS is another service. With EXTERNAL_ADS=1 (default) Seam's ad tag is a VAST
# answer (Samples/vast/vast-midroll.xml: one 20 s ad, creatives on the demo ad server) served by
# nginx, so the measurement is Seam's work for every viewer's ad request, not the demo ad server's
# templating and logging, which run in Seam's process. EXTERNAL_ADS=0 keeps the demo's VMAP.
ad_settings=()
extra_settings=()
for setting in ${SEAM_SET:-}; do extra_settings+=(--set "$setting"); done
[[ -z "${LIVE_SCHEDULE:-}" ]] || extra_settings+=(--set "live.schedules=$LIVE_SCHEDULE")
if [[ "${EXTERNAL_ADS:-1}" == 1 ]]; then
  mkdir -p "$tmp/ads"
  sed -e "s#{{ADS_BASE}}#http://127.0.0.1:$AD_PORT#g" -e "s#{{TRACK_BASE}}#http://127.0.0.1:$AD_PORT#g" \
    "$root/Samples/vast/vast-midroll.xml" >"$tmp/ads/vast.xml"
  cat >"$tmp/ads.conf" <<EOF
# Generated by scripts/bench-live.sh: the ad decision server, a static VAST answer.
worker_processes 1;
daemon off;
pid $tmp/ads.pid;
error_log $tmp/logs/ads-error.log warn;
events { worker_connections 4096; }
http {
    $nginx_common
    # One line per ad request, its time: the ad server's view of Seam's request rate (ad_view.py).
    log_format ads '\$msec';
    access_log $tmp/logs/ads-access.log ads buffer=64k flush=1s;
    server {
        listen 127.0.0.1:$ads_port backlog=4096;
        location / { root $tmp/ads; default_type application/xml; }
    }
}
EOF
  nginx -e "$tmp/logs/ads-error.log" -p "$tmp/" -c "$tmp/ads.conf" &
  ads_pid=$!
  ad_settings=(--set "ads.adTagURL=http://127.0.0.1:$ads_port/vast.xml")
  wait_http "http://127.0.0.1:$ads_port/vast.xml" 20 "$ads_pid" || { cat "$tmp/logs/ads-error.log" >&2; die "the ad server nginx does not answer"; }
fi

# Lines in the ad server's access log so far (0 without EXTERNAL_ADS=1: the demo's ad server keeps no such log).
ads_lines() { if [[ -f "$tmp/logs/ads-access.log" ]]; then wc -l <"$tmp/logs/ads-access.log"; else echo 0; fi; }

ad_view() { # result prefix, ad-log lines before the run, Seam /metrics URLs...: breaks decided, the ad server's view
  local prefix="$1" before="$2"; shift 2
  python3 "$helpers/ad_view.py" metrics "$prefix.avails.json" "$@" || log "could not read break decisions from $*"
  if [[ -f "$tmp/logs/ads-access.log" ]]; then
    sleep 1.2  # the access log's flush interval
    python3 "$helpers/ad_view.py" log "$tmp/logs/ads-access.log" "$before" "$prefix.adlog.json"
  fi
}

# --- one run per N ------------------------------------------------------------------------------
start_seam() {
  log "starting seam demo: proxy $SEAM_PORT, origin $ORIGIN_PORT, ad server $AD_PORT (sessions.maxSessions=$MAX_SESSIONS)"
  "$seam_bin" demo --host 127.0.0.1 --port "$SEAM_PORT" --origin-port "$ORIGIN_PORT" --ad-server-port "$AD_PORT" \
    --samples "$root/Samples" --set "sessions.maxSessions=$MAX_SESSIONS" "${ad_settings[@]}" "${extra_settings[@]}" \
    $DEMO_ARGS >"$tmp/seam-$1.log" 2>&1 &
  seam_pid=$!
  wait_http "http://127.0.0.1:$SEAM_PORT/healthz" 60 "$seam_pid" || { tail -30 "$tmp/seam-$1.log" >&2; die "seam demo did not start"; }
  curl -fsS -o /dev/null "$CONTENT_URL" || die "the origin does not serve $CONTENT_URL (is the live channel built yet? try CONTENT_URL=http://127.0.0.1:8081/media/content/master.m3u8)"
  if [[ -n "$tap_pid" ]]; then
    wait_http "$seam_content_url" 20 "$tap_pid" || { cat "$tmp/logs/tap-error.log" >&2; die "the counting proxy does not answer"; }
  fi
}

heap_bytes() { # [port...]: Seam's seam_heap_in_use_bytes gauge (summed over the ports; default SEAM_PORT), or null
  local port total=0 one
  for port in "${@:-$SEAM_PORT}"; do
    one="$(curl -fsS "http://127.0.0.1:$port/metrics" 2>/dev/null | awk '$1 == "seam_heap_in_use_bytes" { printf "%d", $2; found = 1 } END { if (!found) printf "null" }')"
    [[ "$one" != null ]] || { printf null; return; }
    total=$((total + one))
  done
  printf '%s' "$total"
}

start_nginx() { # directory to serve
  local nginx_gzip=""
  [[ -n "$ACCEPT_ENCODING" ]] && nginx_gzip="gzip on; gzip_types application/vnd.apple.mpegurl; gzip_comp_level 6; gzip_min_length 1024; gzip_vary on;"
  cat >"$tmp/nginx.conf" <<EOF
# Generated by scripts/bench-live.sh: static baseline for Seam's stitched playlists.
worker_processes $cores;
worker_rlimit_nofile $(ulimit -n);
daemon off;
pid $tmp/nginx.pid;
error_log $tmp/logs/error.log warn;
events { worker_connections 16384; }
http {
    $nginx_common
    access_log off;
    sendfile on;
    tcp_nopush on;
    tcp_nodelay on;
    keepalive_timeout 65;
    keepalive_requests 1000000;
    types { application/vnd.apple.mpegurl m3u8; }
    default_type application/octet-stream;
    $nginx_gzip
    server {
        listen 127.0.0.1:$nginx_port backlog=4096;
        root $1;
        add_header Cache-Control no-cache;
    }
}
EOF
  nginx -e "$tmp/logs/error.log" -p "$tmp/" -c "$tmp/nginx.conf" &
  nginx_pid=$!
}

run_gen() { # output file, arguments...
  local out="$1"; shift
  local encoding=()
  [[ -n "$ACCEPT_ENCODING" ]] && encoding=(--accept-encoding "$ACCEPT_ENCODING")
  "$gen_bin" "$@" "${encoding[@]}" --output "$out" >/dev/null 2>"$out.log" &
  gen_pid=$!
  if ! wait "$gen_pid"; then gen_pid=""; cat "$out.log" >&2; die "LiveLoadBenchmark failed"; fi
  gen_pid=""
  cat "$out.log" >&2
}

# --- a store and replicas behind nginx (TOPOLOGIES) ------------------------------------------------
id_secret="$(python3 -c 'import secrets; print(secrets.token_hex(32))')"
pg_admin_url="$POSTGRES_URL"
postgres_database() { # name: (re)creates it, in a throwaway cluster started on first use; sets db_url
  # (not a $(...) subshell: the cluster's directory must reach cleanup)
  if [[ -z "$pg_admin_url" ]]; then
    pg_dir="$tmp/postgres"
    log "starting PostgreSQL (scripts/test-postgres.sh) in $pg_dir"
    pg_admin_url="$("$root/scripts/test-postgres.sh" start "$pg_dir")" || die "PostgreSQL did not start"
  fi
  psql "$pg_admin_url" -XAtq -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $1" -c "CREATE DATABASE $1" >/dev/null \
    || die "could not create database $1 in $pg_admin_url"
  local base="${pg_admin_url%%\?*}" query=""
  [[ "$pg_admin_url" == *\?* ]] && query="?${pg_admin_url#*\?}"
  db_url="${base%/*}/$1$query"
}

start_front() { # replica ports...: nginx with deploy/nginx/seam.conf, its servers and listen mapped to loopback
  mkdir -p "$tmp/front"
  python3 "$helpers/front_conf.py" "$root/deploy/nginx/seam.conf" "$tmp/front/seam.conf" "$front_port" "$@" \
    || die "could not map deploy/nginx/seam.conf"
  cat >"$tmp/front/nginx.conf" <<EOF
# Generated by scripts/bench-live.sh: the balancer in front of the replicas (deploy/nginx/seam.conf).
worker_processes $cores;
worker_rlimit_nofile $(ulimit -n);
daemon off;
pid $tmp/front/nginx.pid;
error_log $tmp/logs/front-error.log warn;
events { worker_connections 16384; }
http {
    $nginx_common
    access_log off;
    include $tmp/front/seam.conf;
}
EOF
  nginx -e "$tmp/logs/front-error.log" -p "$tmp/" -c "$tmp/front/nginx.conf" &
  front_pid=$!
}

run_topology() { # N, store:replicas
  local n="$1" store="${2%%:*}" replicas="${2##*:}" tag="${2/:/x}"
  local conns=$((CONNECTIONS < n ? CONNECTIONS : n)) db_url="" pg_pid="" i
  local ports=("${replica_ports[@]:0:$replicas}")
  log "N=$n: $store store, $replicas replica(s) behind nginx; the demo origin and ad server on their own"
  "$seam_bin" demo --upstreams-only --host 127.0.0.1 --origin-port "$ORIGIN_PORT" --ad-server-port "$AD_PORT" \
    --samples "$root/Samples" >"$tmp/upstreams-$tag-$n.log" 2>&1 &
  upstreams_pid=$!
  wait_http "$CONTENT_URL" 30 "$upstreams_pid" || { tail -30 "$tmp/upstreams-$tag-$n.log" >&2; die "seam demo --upstreams-only did not start"; }
  if [[ -n "$tap_pid" ]]; then wait_http "$seam_content_url" 20 "$tap_pid" || die "the counting proxy does not answer"; fi

  # What seam demo gives its proxy (DemoCommand), plus the shared id secret replicas need.
  local settings=(--set "domains.mode=all" --set "upstream.allowPrivateNetworks=true" --set "ads.trackingMode=server"
                  --set "ads.adTagURL=http://127.0.0.1:$AD_PORT/vmap"
                  --set "live.slateURL=http://127.0.0.1:$ORIGIN_PORT/media/slate/master.m3u8"
                  --set "sessions.maxSessions=$MAX_SESSIONS" --set "sessions.idSecret=$id_secret"
                  "${ad_settings[@]}" "${extra_settings[@]}")
  local setting
  for setting in $STORE_SET; do settings+=(--set "$setting"); done
  if [[ "$store" == postgres* ]]; then
    postgres_database "seam_bench_${tag//-/_}_$n"
    [[ "$store" == postgres-poll ]] && settings+=(--set "store.notifications=false")
    settings+=(--set "store.postgresURL=$db_url")
    [[ -n "$pg_dir" ]] && pg_pid="$(head -1 "$pg_dir/data/postmaster.pid")"
  fi
  replica_pids=()
  for i in "${!ports[@]}"; do
    "$seam_bin" serve --host 127.0.0.1 --port "${ports[$i]}" "${settings[@]}" >"$tmp/replica-$tag-$n-$((i + 1)).log" 2>&1 &
    replica_pids+=($!)
  done
  for i in "${!ports[@]}"; do
    wait_http "http://127.0.0.1:${ports[$i]}/readyz" 60 "${replica_pids[$i]}" \
      || { tail -30 "$tmp/replica-$tag-$n-$((i + 1)).log" >&2; die "replica $((i + 1)) did not start"; }
  done
  start_front "${ports[@]}"
  local front="http://127.0.0.1:$front_port"
  wait_http "$front/readyz" 20 "$front_pid" || { cat "$tmp/logs/front-error.log" >&2; die "the nginx in front does not answer"; }

  local args=(--seam "$front" --content-url "$seam_content_url" --forwarded-for --sessions "$n" --duration "$DURATION"
              --warmup "$WARMUP" --reload-seconds "$RELOAD" --connections "$conns" --create-concurrency "$CREATE_CONCURRENCY"
              --settle "$SETTLE" --timeline)
  for i in "${!ports[@]}"; do args+=(--server-pid "${replica_pids[$i]}" --metrics-url "http://127.0.0.1:${ports[$i]}/metrics"); done
  local metric
  for metric in seam_origin_playlist_fetches_total seam_origin_playlist_cache_hits_total seam_origin_playlist_stale_served_total \
                seam_http_requests_total seam_store_queries_total seam_store_cache_lookups_total \
                seam_store_live_writes_total; do args+=(--metric "$metric"); done
  args+=(--metric-series seam_store_queries_total --metric-series seam_store_cache_lookups_total
         --metric-series seam_store_live_writes_total)
  # PostgreSQL's own counters and the CPU of what runs besides the replicas, at the window's ends.
  local snapshot="python3 '$helpers/snapshot.py' --pid front=$front_pid --pid upstreams=$upstreams_pid"
  [[ -n "$db_url" ]] && snapshot+=" --postgres '$db_url'"
  [[ -n "$pg_pid" ]] && snapshot+=" --pid postgres=$pg_pid"
  args+=(--snapshot-command "$snapshot")

  local tap_before=0 heap_before rows=null ads_before
  ads_before="$(ads_lines)"
  [[ -f "$tmp/logs/tap-access.log" ]] && tap_before="$(wc -l <"$tmp/logs/tap-access.log")"
  heap_before="$(heap_bytes "${ports[@]}")"
  log "N=$n: $store x$replicas — $n sessions through nginx, a reload each every ${RELOAD}s for ${DURATION}s, $conns connections"
  run_gen "$results/topology-$tag-$n.json" "${args[@]}"
  if [[ -n "$tap_pid" ]]; then
    python3 "$helpers/tap_count.py" "$tmp/logs/tap-access.log" "$results/topology-$tag-$n.json" "$tap_before" >"$results/topology-$tag-$n.tap.json"
  fi
  local metrics_urls=()
  for i in "${!ports[@]}"; do metrics_urls+=("http://127.0.0.1:${ports[$i]}/metrics"); done
  ad_view "$results/breaks-$tag-$n" "$ads_before" "${metrics_urls[@]}"
  [[ -n "$db_url" ]] && rows="$(psql "$db_url" -XAtq -c "SELECT count(*) FROM seam_sessions" 2>/dev/null || echo null)"
  local cluster='"POSTGRES_URL"'
  [[ -n "$pg_dir" ]] && cluster='"throwaway (scripts/test-postgres.sh: fsync=off, max_connections=200)"'
  printf '{"store": "%s", "replicas": %s, "sessions": %s, "heap_before": %s, "heap_end": %s, "session_rows": %s, "postgres": %s}\n' \
    "$store" "$replicas" "$n" "${heap_before:-null}" "$(heap_bytes "${ports[@]}")" "${rows:-null}" \
    "$([[ -n "$db_url" ]] && echo "$cluster" || echo null)" >"$results/topology-$tag-$n.meta.json"
  for i in "${!ports[@]}"; do
    grep -hE '\b(error|critical)\b' "$tmp/replica-$tag-$n-$((i + 1)).log" | head -3 | sed "s/^/[replica $((i + 1))] /" >&2 || true
  done

  stop "$front_pid"; front_pid=""
  for i in "${!replica_pids[@]}"; do stop "${replica_pids[$i]}"; done
  replica_pids=()
  stop "$upstreams_pid"; upstreams_pid=""
}

load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
for n in $SESSIONS_LIST; do
  conns=$((CONNECTIONS < n ? CONNECTIONS : n))
  start_seam "$n"
  tap_lines_before=0
  [[ -f "$tmp/logs/tap-access.log" ]] && tap_lines_before="$(wc -l <"$tmp/logs/tap-access.log")"

  log "N=$n: seam — $n sessions, a reload each every ${RELOAD}s for ${DURATION}s, $conns connections"
  heap_before="$(heap_bytes)"
  ads_lines_before="$(ads_lines)"
  run_gen "$results/seam-$n.json" --seam "http://127.0.0.1:$SEAM_PORT" --content-url "$seam_content_url" \
    --sessions "$n" --duration "$DURATION" --warmup "$WARMUP" --reload-seconds "$RELOAD" --connections "$conns" \
    --create-concurrency "$CREATE_CONCURRENCY" --settle "$SETTLE" --server-pid "$seam_pid" --timeline \
    --metric seam_origin_playlist_fetches_total --metric seam_origin_playlist_cache_hits_total \
    --metric seam_origin_playlist_stale_served_total --metric seam_http_connections_closed_total \
    --metric-series seam_http_connections_closed_total

  # The origin's view: requests the counting proxy saw during the measured reload window.
  if [[ -n "$tap_pid" ]]; then
    python3 "$helpers/tap_count.py" "$tmp/logs/tap-access.log" "$results/seam-$n.json" "$tap_lines_before" >"$results/tap-$n.json"
  fi

  ad_view "$results/breaks-seam-$n" "$ads_lines_before" "http://127.0.0.1:$SEAM_PORT/metrics"

  # Heap in use (malloc'd, not freed) with every session alive, against before the first one.
  printf '{"before": %s, "end": %s, "sessions": %s}\n' "${heap_before:-null}" "$(heap_bytes)" "$n" >"$results/heap-$n.json"

  # The baseline's bytes: one stitched media playlist of a session, as Seam serves it now.
  target="$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["reload"]["exampleTarget"])' "$results/seam-$n.json")"
  www="$tmp/www/$n"; mkdir -p "$www"
  curl -fsS -o "$www/playlist.m3u8" "http://127.0.0.1:$SEAM_PORT$target" || die "could not copy $target from seam"
  chmod -R a+rX "$tmp/www"
  stop "$seam_pid"; seam_pid=""

  start_nginx "$www"
  nginx_url="http://127.0.0.1:$nginx_port/playlist.m3u8"
  wait_http "$nginx_url" 20 "$nginx_pid" || { cat "$tmp/logs/error.log" >&2; die "nginx did not start"; }
  log "N=$n: nginx — the same paced load on one static copy ($(wc -c <"$www/playlist.m3u8") bytes)"
  run_gen "$results/nginx-$n.json" --static-url "$nginx_url" --sessions "$n" --duration "$DURATION" --warmup "$WARMUP" \
    --reload-seconds "$RELOAD" --connections "$conns" --server-pid "$nginx_pid" --timeline
  stop "$nginx_pid"; nginx_pid=""

  for topology in $TOPOLOGIES; do run_topology "$n" "$topology"; done
done

python3 - "$results/meta.json" <<EOF
import json, sys
meta = {
    "command": """$command_line""",
    "content_url": "$CONTENT_URL",
    "seam_content_url": "$seam_content_url",
    "topologies": """$TOPOLOGIES""".split(),
    "origin_tap": "$ORIGIN_TAP" == "1",
    "machine": {"nproc": $cores, "cpu": """$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')""",
                "kernel": "$(uname -r)", "mem": "$(awk '/^MemTotal:/ { printf "%.0f GiB RAM", $2 / 1048576 }' /proc/meminfo)"},
    "loadavg": {"start": "$load_before", "end": "$(cut -d' ' -f1-3 /proc/loadavg)"},
    "versions": """$(nginx -v 2>&1 | sed 's/^nginx version: //'), $(swift --version 2>/dev/null | grep -m1 -o 'Swift version [0-9.]*'), seam $(git rev-parse --short HEAD 2>/dev/null || echo '?') (working tree as built${SEAM_BIN:+; seam binary $SEAM_BIN})""",
}
json.dump(meta, open(sys.argv[1], "w"), indent=2)
EOF
echo
python3 "$helpers/report.py" "$results"
