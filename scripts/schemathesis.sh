#!/usr/bin/env bash
# Checks the running service against its contract: starts `seam demo` from the already-built
# binary on free ports, runs schemathesis with docs/openapi.yaml against it, stops it.
#
#   scripts/schemathesis.sh                  # after `swift build` (or `swift build --build-tests`)
#   SEAM_BIN=path/to/seam scripts/schemathesis.sh
#   EXAMPLES=50 scripts/schemathesis.sh      # more cases per operation (default 40)
#
# Builds nothing. Fails (non-zero) when any answer is a 5xx, or its status, content type, headers
# or body differ from what docs/openapi.yaml says. Needs schemathesis (pip install
# schemathesis==4.32.5; .ci/run installs it) and curl.
#
# The demo runs with `domains.mode=custom` intercepting only 127.0.0.1 (the demo origin's host):
# content URLs schemathesis invents are answered as pass-throughs (200 / 302 to the origin)
# instead of being fetched from hosts that do not exist, which would be 502s that say nothing
# about Seam. The spec's examples name the demo's title, so the examples and stateful phases
# create real sessions (201) and follow the spec's links to their playlists, tracking JSON,
# keep-alive and DELETE.
set -euo pipefail
cd "$(dirname "$0")/.."

EXAMPLES="${EXAMPLES:-40}"     # test cases per operation and phase (40: about 30 s on a quiet 2-core box)
LIMIT="${LIMIT:-300}"          # seconds before a stuck run is stopped (and fails)
SEED="${SEED:-}"               # a fixed seed replays a run
seam_bin="${SEAM_BIN:-.build/debug/seam}"

log() { echo "schemathesis.sh: $*" >&2; }
die() { log "$*"; exit 1; }

[[ -x "$seam_bin" ]] || die "no seam binary at $seam_bin: run swift build first (this script builds nothing), or set SEAM_BIN"
# On PATH, or where `pip install --user` puts it (pip's default when not root).
schemathesis="$(command -v schemathesis || true)"
if [[ -z "$schemathesis" ]]; then
  user_bin="$(python3 -m site --user-base 2>/dev/null)/bin"
  [[ -x "$user_bin/schemathesis" ]] && schemathesis="$user_bin/schemathesis"
fi
[[ -n "$schemathesis" ]] || die "schemathesis is not installed: python3 -m pip install schemathesis==4.32.5"
command -v curl >/dev/null || die "curl is not installed"

tmp="$(mktemp -d)"
seam_pid=""
cleanup() {
  if [[ -n "$seam_pid" ]] && kill -0 "$seam_pid" 2>/dev/null; then
    kill -TERM "$seam_pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$seam_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$seam_pid" 2>/dev/null || true
    wait "$seam_pid" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Ports below the kernel's ephemeral range: .ci/run runs this beside the deploy/ checks, whose
# scripts take the kernel's picks.
mapfile -t ports < <(python3 scripts/bench_serve/free_ports.py 3 20000 29999)
seam_port="${ports[0]}" origin_port="${ports[1]}" ad_port="${ports[2]}"
base="http://127.0.0.1:$seam_port"
# The debug route and the break API are on (one token for both), and every request carries it,
# so their answers are checked too.
debug_token="schemathesis-debug-token-$$-0123456789"

log "starting seam demo on $base (origin :$origin_port, ad server :$ad_port)"
"$seam_bin" demo --port "$seam_port" --origin-port "$origin_port" --ad-server-port "$ad_port" --samples Samples \
  --set domains.mode=custom --set domains.hosts=127.0.0.1 --set "debug.token=$debug_token" \
  --set "live.breaksToken=$debug_token" >"$tmp/seam.log" 2>&1 &
seam_pid=$!
for _ in $(seq 600); do
  kill -0 "$seam_pid" 2>/dev/null || { cat "$tmp/seam.log" >&2; die "seam demo exited before it answered"; }
  curl -fsS -o /dev/null --max-time 1 "$base/readyz" 2>/dev/null && break
  sleep 0.1
done
curl -fsS -o /dev/null --max-time 1 "$base/readyz" || { tail -40 "$tmp/seam.log" >&2; die "seam demo did not become ready in 60 s"; }

# Invented content URLs only ever reach the pass-through answer; two bodies of three get the
# demo's VOD title or its live channel instead (and no pipOf, which would name a session that
# does not exist), so sessions are really made with every other option schemathesis invents (ad
# parameters, headers, consent, modes, policies), and the stateful phase has sessions whose links
# it can follow.
cat >"$tmp/seam_hooks.py" <<PY
import zlib, json
import schemathesis

CONTENT_URLS = ["http://127.0.0.1:$origin_port/media/content/master.m3u8",
                "http://127.0.0.1:$origin_port/live/cueOutIn/master.m3u8"]

@schemathesis.hook
def map_body(context, body):
    operation = context.operation
    if operation is not None and operation.method.upper() == "POST" and operation.path == "/v1/creatives/prefetch":
        # Invented loopback titles would be 502s that say nothing about Seam (as for sessions);
        # waits are the answer's timing, not its contract, and would outlast the request timeout.
        if isinstance(body, dict):
            if "127.0.0.1" in str(body.get("contentUrl", "")):
                body = dict(body, contentUrl=CONTENT_URLS[0])
            body.pop("waitSeconds", None)
        return body
    if operation is None or operation.method.upper() != "POST" or operation.path != "/v1/sessions":
        return body
    pick = zlib.crc32(json.dumps(body, sort_keys=True, default=str).encode()) % 3 if isinstance(body, dict) else 0
    # The spec's examples name loopback files that are not playlists (the prefetch's MP4), which
    # schemathesis reuses as session URLs: loopback URLs go to the demo's title.
    if not pick and isinstance(body, dict) and "127.0.0.1" in str(body.get("url", "")) and body.get("url") not in CONTENT_URLS:
        pick = 1
    if pick:
        body = dict(body, url=CONTENT_URLS[pick - 1])
        body.pop("pipOf", None)
        body.pop("fallbackUrl", None)
    return body
PY
export PYTHONPATH="$tmp${PYTHONPATH:+:$PYTHONPATH}" SCHEMATHESIS_HOOKS=seam_hooks

# The spec names the demo's default ports; point it at the ports this run uses.
sed -e "s#127\.0\.0\.1:8081#127.0.0.1:$origin_port#g" -e "s#127\.0\.0\.1:8080#127.0.0.1:$seam_port#g" \
  -e "s#127\.0\.0\.1:8082#127.0.0.1:$ad_port#g" \
  docs/openapi.yaml >"$tmp/openapi.yaml"

# One worker: with two, schemathesis's generator once crashed inside CPython's ast.parse
# ("AST constructor recursion depth mismatch", parsing from two threads at once), failing the run
# with nothing wrong in Seam.
args=(run "$tmp/openapi.yaml" --url "$base"
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance
  --header "Authorization: Bearer $debug_token"
  --max-examples "$EXAMPLES" --request-timeout 10 --workers 1
  --suppress-health-check all --no-color)
[[ -n "$SEED" ]] && args+=(--seed "$SEED")
log "$schemathesis ${args[*]}"
status=0
# From the temp directory: schemathesis keeps a cache (.schemathesis/) where it runs. In the
# foreground: timeout then stays in this script's process group, so stopping the group (as
# .ci/run's exit trap does) stops schemathesis too.
(cd "$tmp" && timeout --foreground "$LIMIT" "$schemathesis" "${args[@]}") || status=$?
if [[ "$status" -ne 0 ]]; then
  log "schemathesis failed (exit $status); Seam's log:"
  tail -60 "$tmp/seam.log" >&2
  exit "$status"
fi
log "the running service matches docs/openapi.yaml"
