#!/usr/bin/env bash
# Serving benchmark: Seam's stitched media playlists against nginx serving the same bytes as a
# static file, side by side on this machine in one run; plus the time to create a session against
# the local ad server and the memory per idle session. Results: BENCHMARKS.md, "Serving".
#
# Usage: scripts/bench-serve.sh
# Knobs (environment): SEAM_BIN=path (a seam binary to measure instead of building this checkout,
#   e.g. an older release for a side-by-side run), THREADS=2 CONNECTIONS=64 DURATION=10 WARMUP=2 ROUNDS=2 (wrk, seconds),
#   CREATE_N=30 (sequential session creations timed), IDLE_M=1000 (sessions for the memory
#   figure), LONG_M=100 (sessions of a 2-hour title for its memory figure), DEMO_ARGS (extra
#   `seam demo` arguments; default "--set debug.token=": sessions without the debug story, as in
#   production; "" for a Seam older than the debug route), PARALLEL=8 (curls at once for those), SETTLE=3 (seconds before reading RSS again),
#   SCRATCH=.build-bench (SwiftPM scratch path of the release build), KEEP_TMP=1 (keep the temp dir),
#   FLOORS=1 (also measure the stack's floors on the same bytes, alternated with the others: a bare
#   SwiftNIO HTTP/1.1 server and a bare Hummingbird, scripts/bench_serve/hummingbird-floor, built
#   release; what Seam could reach at best without leaving its stack).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
helpers="$root/scripts/bench_serve"

declare -A defaults=([THREADS]=2 [CONNECTIONS]=64 [DURATION]=10 [WARMUP]=2 [ROUNDS]=2 [CREATE_N]=30
                     [IDLE_M]=1000 [LONG_M]=100 [DEMO_ARGS]="--set debug.token=" [PARALLEL]=8 [SETTLE]=3 [SCRATCH]=.build-bench [FLOORS]=0)
command_line="scripts/bench-serve.sh"
for knob in THREADS CONNECTIONS DURATION WARMUP ROUNDS CREATE_N IDLE_M LONG_M DEMO_ARGS PARALLEL SETTLE SCRATCH FLOORS; do
  if [[ -n "${!knob+set}" && "${!knob}" != "${defaults[$knob]}" ]]; then command_line="$knob='${!knob}' $command_line"; fi
  if [[ -z "${!knob+set}" ]]; then declare "$knob=${defaults[$knob]}"; fi
done
for tool in nginx wrk curl python3; do
  command -v "$tool" >/dev/null || { echo "bench-serve: $tool is required" >&2; exit 1; }
done
cores="$(nproc)"

log() { printf '[bench-serve %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

# --- processes and cleanup --------------------------------------------------------------------
tmp="$(mktemp -d /tmp/seam-bench-serve.XXXXXX)"
chmod 755 "$tmp"                  # nginx workers may run as another user when started as root
seam_pid="" nginx_pid="" long_pid="" nio_floor_pid="" hb_floor_pid=""

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
  stop "$nginx_pid"
  stop "${long_pid:-}"
  stop "${nio_floor_pid:-}"
  stop "${hb_floor_pid:-}"
  stop "$seam_pid"
  if [[ -n "${KEEP_TMP:-}" ]]; then log "kept $tmp"; else rm -rf "$tmp"; fi
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

vmrss_kib() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }

cpu_ticks() { # user+system clock ticks of a process and its live children (nginx's workers)
  local total=0 pid ticks
  for pid in "$1" $(cat /proc/"$1"/task/*/children 2>/dev/null); do
    ticks="$(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null || echo 0)"
    total=$((total + ticks))
  done
  echo "$total"
}

# --- 1. build and start seam demo ---------------------------------------------------------------
if [[ -n "${SEAM_BIN:-}" ]]; then
  seam_bin="$SEAM_BIN"
  command_line="SEAM_BIN=$SEAM_BIN $command_line"
  seam_version="$("$seam_bin" --version 2>/dev/null | head -1 || echo '?') ($SEAM_BIN)"
else
log "building seam (release, scratch path $SCRATCH)"
for attempt in 1 2 3 4 5; do
  # Others may be editing the checkout: SwiftPM stops when a source changes mid-build; try again.
  if swift build -c release --product seam --scratch-path "$SCRATCH" >"$tmp/build.log" 2>&1; then break; fi
  if [[ "$attempt" -lt 5 ]] && grep -q 'was modified during the build' "$tmp/build.log"; then
    log "a source changed during the build; retrying"; sleep 5; continue
  fi
  cat "$tmp/build.log" >&2; exit 1
done
seam_bin="$(swift build -c release --scratch-path "$SCRATCH" --show-bin-path)/seam"
seam_version="$(git rev-parse --short HEAD 2>/dev/null || echo '?') (working tree as built)"
fi

mapfile -t ports < <(python3 "$helpers/free_ports.py" 4)
seam_port="${ports[0]}" origin_port="${ports[1]}" ads_port="${ports[2]}" nginx_port="${ports[3]}"
seam="http://127.0.0.1:$seam_port"
log "starting seam demo: proxy $seam_port, origin $origin_port, ad server $ads_port"
"$seam_bin" demo --host 127.0.0.1 --port "$seam_port" --origin-port "$origin_port" --ad-server-port "$ads_port" \
  --samples "$root/Samples" $DEMO_ARGS >"$tmp/seam.log" 2>&1 &
seam_pid=$!
wait_http "$seam/healthz" 60 "$seam_pid" || { tail -30 "$tmp/seam.log" >&2; exit 1; }

# --- 5 (first). time session creation: the first one has a cold creative cache -------------------
results="$tmp/results"; mkdir -p "$results"
content_url="http://127.0.0.1:$origin_port/media/content/master.m3u8"
session_body="{\"url\":\"$content_url\"}"
create() { # writes the answer to $1, prints "status seconds"
  curl -sS -o "$1" -w '%{http_code} %{time_total}\n' -X POST -H 'content-type: application/json' \
    --data "$session_body" "$seam/v1/sessions"
}
log "timing session creation: 1 cold + $CREATE_N sequential"
create "$tmp/session.json" >"$results/create-cold.txt"
read -r status _ <"$results/create-cold.txt"
[[ "$status" == 201 ]] || { log "POST /v1/sessions answered $status: $(cat "$tmp/session.json")"; exit 1; }
for _ in $(seq "$CREATE_N"); do create /dev/null; done >"$results/create-warm.txt"

# --- 2. the session's playlists ----------------------------------------------------------------
read -r session_id manifest_url tracking_url < <(python3 -c '
import json, sys; s = json.load(open(sys.argv[1])); print(s["sessionId"], s["manifestUrl"], s["trackingUrl"])' "$tmp/session.json")
www="$tmp/www"; mkdir -p "$www"
python3 "$helpers/playlists.py" "$manifest_url" "$www" >"$tmp/sizes-playlists.json"
tracking_bytes="$(curl -fsS "$tracking_url" | wc -c)"
python3 -c 'import json, sys; s = json.load(open(sys.argv[1])); s["tracking"] = int(sys.argv[2]); print(json.dumps(s))' \
  "$tmp/sizes-playlists.json" "$tracking_bytes" >"$results/sizes.json"
playlist="v0.m3u8"
[[ -s "$www/$playlist" ]] || { log "the session's master names no $playlist: $(ls "$www")"; exit 1; }
seam_url="$seam/v1/sessions/$session_id/media/$playlist"
chmod -R a+rX "$www"

# --- 3. nginx serving the same bytes -------------------------------------------------------------
mkdir -p "$tmp/logs" "$tmp/temp"
cat >"$tmp/nginx.conf" <<EOF
# Generated by scripts/bench-serve.sh: static baseline for Seam's stitched playlists.
worker_processes $cores;
daemon off;
pid $tmp/nginx.pid;
error_log $tmp/logs/error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    sendfile on;
    tcp_nopush on;
    tcp_nodelay on;
    keepalive_timeout 65;
    keepalive_requests 1000000;
    client_body_temp_path $tmp/temp/body;
    proxy_temp_path $tmp/temp/proxy;
    types { application/vnd.apple.mpegurl m3u8; }
    default_type application/octet-stream;
    server {
        listen 127.0.0.1:$nginx_port;
        root $www;
        add_header Cache-Control no-cache;
        gzip_static on;
    }
}
EOF
log "starting nginx on $nginx_port ($cores workers)"
nginx -e "$tmp/logs/error.log" -p "$tmp/" -c "$tmp/nginx.conf" &
nginx_pid=$!
nginx_url="http://127.0.0.1:$nginx_port/$playlist"
wait_http "$nginx_url" 20 "$nginx_pid" || { cat "$tmp/logs/error.log" >&2; exit 1; }

curl -fsS -o "$tmp/from-seam" "$seam_url"
curl -fsS -o "$tmp/from-nginx" "$nginx_url"
cmp -s "$tmp/from-seam" "$tmp/from-nginx" || { log "nginx and seam serve different bytes"; exit 1; }
for url in "$seam_url" "$nginx_url"; do
  type="$(curl -fsS -o /dev/null -w '%{content_type}' "$url")"
  [[ "$type" == application/vnd.apple.mpegurl* ]] || { log "$url has Content-Type $type"; exit 1; }
done
log "both serve the same $(wc -c <"$tmp/from-seam") bytes of $playlist"
# Seam's gzip copy, as nginx's gzip_static file: both answer a gzip-accepting player the same bytes.
curl -fsS -H 'Accept-Encoding: gzip' -o "$www/$playlist.gz" "$seam_url"
chmod a+r "$www/$playlist.gz"
curl -fsS -H 'Accept-Encoding: gzip' -o "$tmp/gz-from-nginx" "$nginx_url"
cmp -s "$www/$playlist.gz" "$tmp/gz-from-nginx" || { log "nginx and seam serve different gzip bytes"; exit 1; }
gzip -t <"$www/$playlist.gz" || { log "seam's gzip answer does not inflate"; exit 1; }
log "both serve the same $(wc -c <"$www/$playlist.gz") gzip bytes to Accept-Encoding: gzip"

# The stack's floors: the same bytes from a bare SwiftNIO server and a bare Hummingbird.
servers=(nginx seam)
if [[ "$FLOORS" == 1 ]]; then
  floors="$helpers/hummingbird-floor"
  log "building the floors (release, $floors)"
  cp "$root/Package.resolved" "$floors/" 2>/dev/null || true
  (cd "$floors" && swift build -c release >"$tmp/floors-build.log" 2>&1) || { cat "$tmp/floors-build.log" >&2; exit 1; }
  floors_bin="$(cd "$floors" && swift build -c release --show-bin-path)"
  mapfile -t floor_ports < <(python3 "$helpers/free_ports.py" 2)
  "$floors_bin/NIOFloor" "${floor_ports[0]}" "$www/$playlist" "$www/$playlist.gz" >"$tmp/nio-floor.log" 2>&1 &
  nio_floor_pid=$!
  "$floors_bin/HBFloor" "${floor_ports[1]}" "$www/$playlist" "$www/$playlist.gz" >"$tmp/hb-floor.log" 2>&1 &
  hb_floor_pid=$!
  nio_floor_url="http://127.0.0.1:${floor_ports[0]}/v0.m3u8"
  hb_floor_url="http://127.0.0.1:${floor_ports[1]}/v1/sessions/floor/media/$playlist"
  for url in "$nio_floor_url" "$hb_floor_url"; do
    pid="$nio_floor_pid"; [[ "$url" == "$hb_floor_url" ]] && pid="$hb_floor_pid"
    wait_http "$url" 20 "$pid" || exit 1
    curl -fsS -o "$tmp/from-floor" "$url"
    cmp -s "$tmp/from-seam" "$tmp/from-floor" || { log "$url serves other bytes than seam"; exit 1; }
    curl -fsS -H 'Accept-Encoding: gzip' -o "$tmp/gz-from-floor" "$url"
    cmp -s "$www/$playlist.gz" "$tmp/gz-from-floor" || { log "$url serves other gzip bytes than seam"; exit 1; }
  done
  servers+=(nio-floor hb-floor)
fi

load_before="$(cut -d' ' -f1-3 /proc/loadavg)"

# --- 4. wrk, alternating ----------------------------------------------------------------------
for encoding in plain gzip; do
  headers=()
  [[ "$encoding" == gzip ]] && headers=(-H 'Accept-Encoding: gzip')
  for round in $(seq "$ROUNDS"); do
    for server in "${servers[@]}"; do
      case "$server" in
        nginx) url="$nginx_url" pid="$nginx_pid" ;;
        seam) url="$seam_url" pid="$seam_pid" ;;
        nio-floor) url="$nio_floor_url" pid="$nio_floor_pid" ;;
        hb-floor) url="$hb_floor_url" pid="$hb_floor_pid" ;;
      esac
      log "$encoding round $round: $server (warm-up ${WARMUP}s, then ${DURATION}s)"
      wrk -t"$THREADS" -c"$CONNECTIONS" -d"${WARMUP}s" "${headers[@]}" "$url" >/dev/null
      ticks_before="$(cpu_ticks "$pid")"
      wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --latency "${headers[@]}" "$url" \
        >"$results/wrk-$encoding-$server-$round.txt"
      ticks_after="$(cpu_ticks "$pid")"
      # The server's own CPU time during the measured run (all its threads; nginx: master + workers).
      python3 "$helpers/wrk_parse.py" --cpu-ticks "$((ticks_after - ticks_before))" --clock-ticks "$(getconf CLK_TCK)" \
        <"$results/wrk-$encoding-$server-$round.txt" >"$results/wrk-$encoding-$server-$round.json"
    done
  done
done
stop "$nginx_pid"; nginx_pid=""
stop "$nio_floor_pid"; nio_floor_pid=""
stop "$hb_floor_pid"; hb_floor_pid=""

# --- 6. memory per idle session -----------------------------------------------------------------
heap_bytes() { curl -fsS "$seam/metrics" | awk '$1 == "seam_heap_in_use_bytes" { printf "%d", $2; found = 1 } END { if (!found) printf "null" }'; }
# measure_sessions NAME BODY COUNT: creates COUNT sessions of BODY, reads VmRSS and the heap, deletes
# them, reads the heap again. What deleting frees is what the sessions held; what creating added
# also holds what the demo's own servers (same process) log of each ad request.
measure_sessions() {
  local name="$1" body="$2" count="$3" dir="$tmp/sessions-$1"
  mkdir -p "$dir"
  log "memory ($name): creating $count sessions, $PARALLEL at a time"
  sleep 1
  local before_kib heap_before after_kib heap_after heap_deleted created
  before_kib="$(vmrss_kib "$seam_pid")"
  heap_before="$(heap_bytes)"
  seq "$count" | xargs -P "$PARALLEL" -I{} curl -sS -o "$dir/{}.json" -w '%{http_code}\n' -X POST \
    -H 'content-type: application/json' --data "$body" "$seam/v1/sessions" >"$dir/status.txt" || true
  created="$(grep -c '^201$' "$dir/status.txt" || true)"
  [[ "$created" -gt 0 ]] || { log "no session was created: $(sort "$dir/status.txt" | uniq -c) $(head -c 300 "$dir/1.json")"; exit 1; }
  [[ "$created" == "$count" ]] || log "only $created of $count sessions created: $(sort "$dir/status.txt" | uniq -c | tr '\n' ' ')"
  sleep "$SETTLE"
  after_kib="$(vmrss_kib "$seam_pid")"
  heap_after="$(heap_bytes)"
  python3 -c 'import json, sys, glob
for p in glob.glob(sys.argv[1] + "/*.json"):
    try: print(json.load(open(p))["sessionId"])
    except Exception: pass' "$dir" | xargs -P "$PARALLEL" -I{} curl -sS -o /dev/null -X DELETE "$seam/v1/sessions/{}"
  sleep "$SETTLE"
  heap_deleted="$(heap_bytes)"
  printf '{"name": "%s", "before_kib": %s, "after_kib": %s, "heap_before": %s, "heap_after": %s, "heap_deleted": %s, "created": %s, "requested": %s, "parallel": %s, "settle_s": %s}\n' \
    "$name" "$before_kib" "$after_kib" "$heap_before" "$heap_after" "$heap_deleted" "$created" "$count" "$PARALLEL" \
    "$SETTLE" >"$results/mem-$name.json"
}
measure_sessions demo "$session_body" "$IDLE_M"

# A 2-hour title: the demo title's renditions looped to 1,200 six-second segments, each with a URI
# of its own (the demo origin's files, by query), served as static files, with the demo's ads.
long="$tmp/long"; mkdir -p "$long"
python3 - "$root/Samples/media/content" "$long" "http://127.0.0.1:$origin_port/media/content" <<'PY'
import os, sys
source, target, origin = sys.argv[1:4]
master = open(os.path.join(source, "master.m3u8")).read()
open(os.path.join(target, "master.m3u8"), "w").write(master)
for line in master.splitlines():
    if line and not line.startswith("#"):
        rendition = os.path.dirname(line)
        segments = [l for l in open(os.path.join(source, line)).read().splitlines() if l and not l.startswith("#")]
        out = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:6", "#EXT-X-MEDIA-SEQUENCE:0",
               "#EXT-X-PLAYLIST-TYPE:VOD"]
        for k in range(1200):
            # Every segment its own URI, as a packager writes them (the demo's files, by query).
            out += ["#EXTINF:6.000000,", f"{origin}/{rendition}/{segments[k % len(segments)]}?n={k:05d}"]
        out.append("#EXT-X-ENDLIST")
        os.makedirs(os.path.join(target, rendition), exist_ok=True)
        open(os.path.join(target, line), "w").write("\n".join(out) + "\n")
PY
long_port="$(python3 "$helpers/free_ports.py" 1)"
python3 -m http.server "$long_port" --bind 127.0.0.1 --directory "$long" >"$tmp/long-server.log" 2>&1 &
long_pid=$!
wait_http "http://127.0.0.1:$long_port/master.m3u8" 20 "$long_pid" || exit 1
measure_sessions two-hour "{\"url\":\"http://127.0.0.1:$long_port/master.m3u8\"}" "$LONG_M"
stop "$long_pid"; long_pid=""

# --- 7. report ----------------------------------------------------------------------------------
python3 - "$results/meta.json" <<EOF
import json, sys
meta = {
    "command": """$command_line""",
    "playlist": "$playlist",
    "playlist_bytes": $(wc -c <"$tmp/from-seam"),
    "wrk": {"threads": $THREADS, "connections": $CONNECTIONS, "duration": $DURATION, "warmup": $WARMUP},
    "machine": {"nproc": $cores, "cpu": """$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')""",
                "kernel": "$(uname -r)", "mem": "$(awk '/^MemTotal:/ { printf "%.0f GiB RAM", $2 / 1048576 }' /proc/meminfo)"},
    "loadavg": {"before_wrk": "$load_before", "end": "$(cut -d' ' -f1-3 /proc/loadavg)"},
    "versions": """$(nginx -v 2>&1 | sed 's/^nginx version: //'), $(wrk -v 2>&1 | head -1 | awk '{print "wrk " $2}'), $(swift --version 2>/dev/null | grep -m1 -o 'Swift version [0-9.]*'), seam $seam_version""",
}
json.dump(meta, open(sys.argv[1], "w"), indent=2)
EOF
echo
python3 "$helpers/report.py" "$results"
