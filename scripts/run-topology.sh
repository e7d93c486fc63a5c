#!/usr/bin/env bash
# Runs deploy/compose.yaml's topology as plain processes on loopback, as CI has no container
# engine: the demo origin and ad server (`seam demo --upstreams-only`), two `seam serve` replicas
# with the environment compose gives them, and nginx with deploy/nginx/seam.conf in front (its
# upstream names replaced by the replicas' loopback ports, nothing else changed). PostgreSQL only
# when SEAM_STORE_POSTGRES_URL is given; without it the replicas keep sessions in memory, as
# compose does when that variable is dropped. scripts/topology-lib.sh starts all that (shared
# with scripts/replica-loss.sh).
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
started=$SECONDS
# shellcheck source=scripts/topology-lib.sh
source scripts/topology-lib.sh
topo_init run-topology
topo_start_demo
topo_start_replica 1
topo_start_replica 2
topo_wait_ready 1
topo_wait_ready 2
log "replicas ready on $port_seam1 and $port_seam2${SEAM_STORE_POSTGRES_URL:+ (sessions in PostgreSQL)}"
topo_start_nginx

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
# 24 viewers: the replicas' ports are random, so their places on nginx's consistent-hash ring
# are too. With 8 viewers, one CI run had all of them on one replica; a 70/30 split of the ring
# does that about once in 20 runs, and with 24 viewers about once in 5,000.
for index in range(24):
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
    check(used == {"seam-1", "seam-2"}, f"24 viewers all landed on {sorted(used)}: nginx does not balance")

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
