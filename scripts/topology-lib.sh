# Sourced by scripts/run-topology.sh and scripts/replica-loss.sh: starts deploy/compose.yaml's
# topology as plain processes on loopback, as CI has no container engine. The demo origin and ad
# server (`seam demo --upstreams-only`), two `seam serve` replicas with the environment compose
# gives them, and nginx with deploy/nginx/seam.conf in front (its upstream names replaced by the
# replicas' loopback ports, nothing else changed). PostgreSQL only when SEAM_STORE_POSTGRES_URL
# is given; without it the replicas keep sessions in memory, as compose does when that variable
# is dropped.
#
#   topo_init NAME        tools, the seam binary, a temp directory torn down on exit, free ports,
#                         each replica's environment in $tmp/seam-N.env (append to it to add more)
#   topo_start_demo       the demo upstreams; $port_origin, $port_ads
#   topo_start_replica N  replica N (1 or 2) in the background, $seam_pid[N]; topo_wait_ready N
#   topo_start_nginx      nginx in front; $front (http://127.0.0.1:port), its access log in
#                         $tmp/nginx-access.log: status, upstream address(es) and status(es), request
#   topo_stop PID         SIGTERM, up to 12 s (Seam's shutdown grace is 10 s), then SIGKILL
#
# Knobs: SEAM_BIN (default: swift build --product seam), SEAM_STORE_POSTGRES_URL, KEEP_TMP=1.
# shellcheck shell=bash

topo_name="topology"
log() { printf '[%s %s] %s\n' "$topo_name" "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "FAIL: $*"; exit 1; }
# Without a tool the script is skipped (exit 0) with a reason, except under CI=true.
skip() {
  if [[ "${CI:-}" == "true" ]]; then die "$* (required when CI=true)"; fi
  log "skipped: $*"; exit 0
}

pids=()
declare -a seam_pid=()

topo_stop() {
  local pid="$1"
  kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null || true; return 0; }
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 120); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

topo_cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  local pid
  for pid in "${pids[@]}"; do topo_stop "$pid" & done
  wait
  if [[ $rc != 0 ]]; then
    for file in "$tmp"/*.log; do [[ -f "$file" ]] && { echo "--- $file (last 20 lines)"; tail -20 "$file"; } >&2; done
  fi
  if [[ -n "${KEEP_TMP:-}" ]]; then log "kept $tmp"; else rm -rf "$tmp"; fi
  exit "$rc"
}

topo_init() {
  topo_name="$1"
  local tool
  for tool in nginx curl python3; do
    command -v "$tool" >/dev/null || skip "$tool is not installed"
  done
  if [[ -z "${SEAM_BIN:-}" ]]; then
    log "building seam"
    swift build --product seam >/dev/null
    SEAM_BIN="$(swift build --show-bin-path)/seam"
  fi
  [[ -x "$SEAM_BIN" ]] || die "no seam binary at $SEAM_BIN"

  tmp="$(mktemp -d "/tmp/seam-$topo_name.XXXXXX")"
  chmod 755 "$tmp"
  trap topo_cleanup EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM

  # Free loopback ports: nginx, replica 1, replica 2, origin, ad server, and one spare for the caller.
  # Below the kernel's ephemeral range (and the OpenAPI check's 20000-29999): .ci/run runs these
  # checks beside the suite, whose connections take the kernel's picks, so none can take a port
  # between its pick here and its bind.
  local ports
  mapfile -t ports < <(python3 scripts/bench_serve/free_ports.py 6 10000 19999)
  [ "${#ports[@]}" = 6 ] || { echo "$topo_name: no 6 free loopback ports between 10000 and 19999" >&2; exit 1; }
  port_nginx="${ports[0]}" port_seam1="${ports[1]}" port_seam2="${ports[2]}"
  port_origin="${ports[3]}" port_ads="${ports[4]}" port_spare="${ports[5]}"
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
        elif key in ("SEAM_UPSTREAM_ALLOWED_NETWORKS", "SEAM_SERVER_TRUSTED_PROXIES"):
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
}

wait_http() { # url, seconds, pid that must stay alive
  local url="$1" seconds="$2" pid="$3"
  for _ in $(seq $((seconds * 10))); do
    kill -0 "$pid" 2>/dev/null || die "process $pid exited while waiting for $url"
    curl -fsS -o /dev/null --max-time 1 "$url" 2>/dev/null && return 0
    sleep 0.1
  done
  die "$url did not answer within $seconds s"
}

topo_start_demo() {
  local demo_args
  eval "demo_args=($(cat "$tmp/demo.args"))"
  "$SEAM_BIN" "${demo_args[@]}" >"$tmp/demo.log" 2>&1 &
  pids+=($!); demo_pid=$!
  wait_http "http://127.0.0.1:$port_origin/media/content/master.m3u8" 20 "$demo_pid"
  log "demo origin on $port_origin, ad server on $port_ads"
}

topo_replica_port() { local var="port_seam$1"; echo "${!var}"; }

topo_start_replica() { # N: starts replica N (its log appended to $tmp/seam-N.log); $seam_pid[N]
  local replica="$1" port
  port="$(topo_replica_port "$replica")"
  (
    # shellcheck disable=SC1090
    source "$tmp/seam-$replica.env"
    export SEAM_SERVER_PORT="$port"
    bin="$SEAM_BIN"
    unset SEAM_BIN                    # a SEAM_* variable that is no setting: Seam would warn about it
    exec "$bin" serve
  ) >>"$tmp/seam-$replica.log" 2>&1 &
  pids+=($!); seam_pid[replica]=$!
}

topo_wait_ready() { # N [seconds]
  wait_http "http://127.0.0.1:$(topo_replica_port "$1")/readyz" "${2:-20}" "${seam_pid[$1]}"
}

topo_start_nginx() {
  mkdir -p "$tmp/nginx"
  sed -e "s/server seam-1:8080/server 127.0.0.1:$port_seam1/" -e "s/server seam-2:8080/server 127.0.0.1:$port_seam2/" \
      -e "s/listen 8080;/listen 127.0.0.1:$port_nginx;/" -e "s#set_real_ip_from 172.28.0.0/16;#set_real_ip_from 127.0.0.1;#" \
      deploy/nginx/seam.conf >"$tmp/nginx/seam.conf"
  grep -q "127.0.0.1:$port_seam1" "$tmp/nginx/seam.conf" && grep -q "127.0.0.1:$port_nginx" "$tmp/nginx/seam.conf" \
    && grep -q "set_real_ip_from 127.0.0.1;" "$tmp/nginx/seam.conf" \
    || die "deploy/nginx/seam.conf no longer has the upstream/listen lines this script maps"
  cat >"$tmp/nginx/nginx.conf" <<EOF
worker_processes 1;
daemon off;
pid $tmp/nginx/nginx.pid;
error_log $tmp/nginx.log warn;
events { worker_connections 256; }
http {
    # Which replica answered (and which were tried first, on failover): "upstream_addr" lists them.
    log_format topology '\$status \$request_method \$uri upstream=\$upstream_addr upstream_status=\$upstream_status xff=\$http_x_forwarded_for';
    access_log $tmp/nginx-access.log topology;
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
}
