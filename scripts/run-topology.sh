#!/usr/bin/env bash
# Runs deploy/compose.yaml's topology as plain processes on loopback, as CI has no container
# engine: the demo origin and ad server (`seam demo --upstreams-only`), two `seam serve` replicas
# with the environment compose gives them, and nginx with deploy/nginx/seam.conf in front (its
# upstream names replaced by the replicas' loopback ports, nothing else changed). PostgreSQL only
# when SEAM_STORE_POSTGRES_URL is given; without it the replicas keep sessions in memory, as
# compose does when that variable is dropped.
#
# Then, through nginx: /readyz; sessions created for several viewers (X-Forwarded-For), each one's
# multivariant and media playlists fetched and checked for the demo's ads; an implicit session
# (/v1/hls/...) followed; the viewers spread over both replicas. With PostgreSQL, every session
# also answers on the replica that did not create it. Everything is torn down at the end.
#
# Usage: scripts/run-topology.sh     Knobs: SEAM_BIN (default: swift build --product seam),
#   SEAM_STORE_POSTGRES_URL, KEEP_TMP=1 (keep logs and configs).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
started=$SECONDS

log() { printf '[run-topology %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "FAIL: $*"; exit 1; }
for tool in nginx curl python3; do
  command -v "$tool" >/dev/null || {
    if [[ "${CI:-}" == "true" ]]; then die "$tool is required"; fi
    log "skipped: $tool is not installed"; exit 0
  }
done

if [[ -z "${SEAM_BIN:-}" ]]; then
  log "building seam"
  swift build --product seam >/dev/null
  SEAM_BIN="$(swift build --show-bin-path)/seam"
fi
[[ -x "$SEAM_BIN" ]] || die "no seam binary at $SEAM_BIN"

tmp="$(mktemp -d /tmp/seam-topology.XXXXXX)"
chmod 755 "$tmp"
pids=()
stop() { # pid: TERM, up to 12 s to exit (Seam's shutdown grace is 10 s), then KILL
  local pid="$1"
  kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 120); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  local pid
  for pid in "${pids[@]}"; do stop "$pid" & done
  wait
  if [[ $rc != 0 ]]; then
    for file in "$tmp"/*.log; do [[ -f "$file" ]] && { echo "--- $file (last 20 lines)"; tail -20 "$file"; } >&2; done
  fi
  if [[ -n "${KEEP_TMP:-}" ]]; then log "kept $tmp"; else rm -rf "$tmp"; fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Free loopback ports: nginx, replica 1, replica 2, origin, ad server.
read -r port_nginx port_seam1 port_seam2 port_origin port_ads < <(python3 - <<'PY'
import socket
socks = [socket.socket() for _ in range(5)]
for s in socks: s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in socks))
for s in socks: s.close()
PY
)
secret="$(python3 -c 'import secrets; print(secrets.token_hex(32))')"

# Each compose service as a command line or environment, with compose's names and ports mapped
# to loopback: demo:8081 -> the origin's port, demo:8082 -> the ad server's, the compose network
# -> 127.0.0.1.
python3 - "$tmp" "$port_origin" "$port_ads" "$secret" "${SEAM_STORE_POSTGRES_URL:-}" <<'PY'
import re, shlex, sys, yaml
tmp, origin, ads, secret, postgres = sys.argv[1:]
compose = yaml.safe_load(open("deploy/compose.yaml"))
services = compose["services"]
def local(value):
    value = str(value).replace("demo:8081", f"127.0.0.1:{origin}").replace("demo:8082", f"127.0.0.1:{ads}")
    return value
for name in ("seam-1", "seam-2"):
    env = {}
    for key, value in services[name]["environment"].items():
        if key == "SEAM_SESSIONS_ID_SECRET":
            value = secret                        # compose takes it from the caller's environment
        elif key == "SEAM_STORE_POSTGRES_URL":
            if not postgres:
                continue                          # no PostgreSQL: the in-memory default
            value = postgres
        elif key == "SEAM_UPSTREAM_ALLOWED_HOSTS":
            value = ",".join("127.0.0.1" if h == "demo" else h for h in str(value).split(","))
        elif key == "SEAM_UPSTREAM_ALLOWED_NETWORKS":
            value = "127.0.0.1/32"                # the compose network is loopback here
        env[key] = local(value)
    env["SEAM_SERVER_HOST"] = "127.0.0.1"
    with open(f"{tmp}/{name}.env", "w") as out:
        for key, value in env.items():
            out.write(f"export {key}={shlex.quote(value)}\n")
demo = services["demo"]["entrypoint"][1:]
args = []
for word in demo:
    if word.startswith("--public-host"):
        continue                                  # players and Seam reach the demo at 127.0.0.1
    word = re.sub(r"^--host=.*", "--host=127.0.0.1", word)
    word = re.sub(r"^--origin-port=.*", f"--origin-port={origin}", word)
    word = re.sub(r"^--ad-server-port=.*", f"--ad-server-port={ads}", word)
    word = re.sub(r"^--samples=.*", "--samples=Samples", word)
    args.append(word)
open(f"{tmp}/demo.args", "w").write(" ".join(shlex.quote(a) for a in args) + "\n")
PY

wait_http() { # url, seconds, pid that must stay alive
  local url="$1" seconds="$2" pid="$3"
  for _ in $(seq $((seconds * 10))); do
    kill -0 "$pid" 2>/dev/null || die "process $pid exited while waiting for $url"
    curl -fsS -o /dev/null --max-time 1 "$url" 2>/dev/null && return 0
    sleep 0.1
  done
  die "$url did not answer within $seconds s"
}

# --- the demo upstreams -------------------------------------------------------------------------
eval "demo_args=($(cat "$tmp/demo.args"))"
"$SEAM_BIN" "${demo_args[@]}" >"$tmp/demo.log" 2>&1 &
pids+=($!); demo_pid=$!
wait_http "http://127.0.0.1:$port_origin/media/content/master.m3u8" 20 "$demo_pid"
log "demo origin on $port_origin, ad server on $port_ads"

# --- the replicas ---------------------------------------------------------------------------------
seam_pids=()
for replica in 1 2; do
  port_var="port_seam$replica"
  (
    # shellcheck disable=SC1090
    source "$tmp/seam-$replica.env"
    export SEAM_SERVER_PORT="${!port_var}"
    exec "$SEAM_BIN" serve
  ) >"$tmp/seam-$replica.log" 2>&1 &
  pids+=($!); seam_pids+=($!)
done
wait_http "http://127.0.0.1:$port_seam1/readyz" 20 "${seam_pids[0]}"
wait_http "http://127.0.0.1:$port_seam2/readyz" 20 "${seam_pids[1]}"
log "replicas ready on $port_seam1 and $port_seam2${SEAM_STORE_POSTGRES_URL:+ (sessions in PostgreSQL)}"

# --- nginx with deploy/nginx/seam.conf ---------------------------------------------------------------
mkdir -p "$tmp/nginx"
sed -e "s/server seam-1:8080/server 127.0.0.1:$port_seam1/" -e "s/server seam-2:8080/server 127.0.0.1:$port_seam2/" \
    -e "s/listen 8080;/listen 127.0.0.1:$port_nginx;/" deploy/nginx/seam.conf >"$tmp/nginx/seam.conf"
grep -q "127.0.0.1:$port_seam1" "$tmp/nginx/seam.conf" && grep -q "127.0.0.1:$port_nginx" "$tmp/nginx/seam.conf" \
  || die "deploy/nginx/seam.conf no longer has the upstream/listen lines this script maps"
cat >"$tmp/nginx/nginx.conf" <<EOF
worker_processes 1;
daemon off;
pid $tmp/nginx/nginx.pid;
error_log $tmp/nginx.log warn;
events { worker_connections 256; }
http {
    access_log $tmp/nginx-access.log;
    client_body_temp_path $tmp/nginx/body;
    proxy_temp_path $tmp/nginx/proxy;
    fastcgi_temp_path $tmp/nginx/fastcgi;
    uwsgi_temp_path $tmp/nginx/uwsgi;
    scgi_temp_path $tmp/nginx/scgi;
    include $tmp/nginx/seam.conf;
}
EOF
nginx -p "$tmp/nginx" -c "$tmp/nginx/nginx.conf" -e "$tmp/nginx.log" >>"$tmp/nginx.log" 2>&1 &
pids+=($!); nginx_pid=$!
front="http://127.0.0.1:$port_nginx"
wait_http "$front/readyz" 10 "$nginx_pid"
log "nginx in front on $port_nginx"

# --- through nginx ---------------------------------------------------------------------------------
python3 - "$front" "$port_origin" "$port_seam1" "$port_seam2" "${SEAM_STORE_POSTGRES_URL:+shared}" <<'PY'
import json, re, sys, urllib.error, urllib.parse, urllib.request
front, origin, seam1, seam2, shared = sys.argv[1:6]
content = f"http://127.0.0.1:{origin}/media/content/master.m3u8"
replicas = {f"http://127.0.0.1:{seam1}": "seam-1", f"http://127.0.0.1:{seam2}": "seam-2"}
failures = []
def check(condition, text):
    if not condition:
        failures.append(text)
    return condition

class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args): return None
plain = urllib.request.build_opener(NoRedirect)

def request(url, viewer, method="GET", body=None):
    headers = {"X-Forwarded-For": viewer, "Content-Type": "application/json"}
    req = urllib.request.Request(url, data=body, method=method, headers=headers)
    try:
        with plain.open(req, timeout=20) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode()

def playlists(viewer, master_url):
    """The multivariant playlist and its first media playlist, through nginx; the media must carry the demo's ads."""
    status, _, master = request(master_url, viewer)
    if not check(status == 200 and master.startswith("#EXTM3U"), f"{viewer}: master {master_url} answered {status}"):
        return
    uris = [line for line in master.splitlines() if line and not line.startswith("#")]
    if not check(uris, f"{viewer}: master has no variants"):
        return
    media_url = urllib.parse.urljoin(master_url, uris[0])
    check(media_url.startswith(front), f"{viewer}: media URL {media_url} does not go through nginx")
    status, _, media = request(media_url, viewer)
    if not check(status == 200 and "#EXTINF" in media, f"{viewer}: media {media_url} answered {status}"):
        return
    segments = [line for line in media.splitlines() if line and not line.startswith("#")]
    ads = [s for s in segments if "/ad/" in s]
    check(ads, f"{viewer}: media playlist has no ad segments (the demo VMAP has a pre-roll)")
    check("#EXT-X-DISCONTINUITY" in media, f"{viewer}: no discontinuity around the ads")
    check(any(s.startswith(f"http://127.0.0.1:{origin}/") for s in segments),
          f"{viewer}: content segments do not point at the origin")

owners = {}
for index in range(8):
    viewer = f"198.51.100.{10 + index}"
    status, _, body = request(f"{front}/v1/sessions", viewer, "POST", json.dumps({"url": content}).encode())
    if not check(status == 201, f"{viewer}: POST /v1/sessions answered {status}: {body[:200]}"):
        continue
    created = json.loads(body)
    session, manifest = created["sessionId"], created["manifestUrl"]
    check(manifest.startswith(front + "/"), f"{viewer}: manifestUrl {manifest} does not name nginx")
    playlists(viewer, manifest)
    status, _, tracking = request(created["trackingUrl"], viewer)
    check(status == 200 and json.loads(tracking).get("avails"), f"{viewer}: tracking answered {status} without avails")
    # Which replica holds it: asked directly, the owner answers 200; the other 410 (the same
    # id secret, its own memory) or, with PostgreSQL, 200 as well.
    answers = {name: request(f"{base}/v1/sessions/{session}/master.m3u8", viewer)[0] for base, name in replicas.items()}
    owners[session] = [name for name, status in answers.items() if status == 200]
    if shared:
        check(len(owners[session]) == 2, f"{viewer}: with PostgreSQL both replicas should serve {session}: {answers}")
    else:
        check(len(owners[session]) == 1 and 410 in answers.values(),
              f"{viewer}: in memory exactly one replica should hold {session}, the other answer 410: {answers}")

if not shared:
    used = {names[0] for names in owners.values() if len(names) == 1}
    check(used == {"seam-1", "seam-2"}, f"8 viewers all landed on {sorted(used)}: nginx does not balance")

# Implicit session: the player's stream URL is Seam; it redirects to the session's playlist.
viewer = "203.0.113.7"
status, headers, body = request(f"{front}/v1/hls/127.0.0.1:{origin}/media/content/master.m3u8?seam.scheme=http", viewer)
if status in (301, 302, 303, 307):
    location = urllib.parse.urljoin(front + "/", headers.get("Location", ""))
    check(location.startswith(front + "/v1/sessions/"), f"implicit session redirected to {location}")
    playlists(viewer, location)
else:
    check(status == 200 and body.startswith("#EXTM3U"), f"implicit session answered {status}: {body[:200]}")

check(request(f"{front}/metrics", viewer)[0] == 404, "/metrics is reachable through the balancer")

for text in failures:
    print(f"run-topology: {text}", file=sys.stderr)
print(f"run-topology: {len(owners)} explicit sessions and 1 implicit through nginx, "
      f"replicas used: {sorted({n for names in owners.values() for n in names})}")
sys.exit(1 if failures else 0)
PY
log "passed in $((SECONDS - started)) s"
