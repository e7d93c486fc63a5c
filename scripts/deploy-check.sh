#!/usr/bin/env bash
# Checks deploy/ without a container engine (docs/deploy.md, "Checks"); .ci/run runs it.
#
#   yamllint              every YAML file in deploy/ (rules: deploy/.yamllint)
#   kubernetes-validate   deploy/k8s/*.yaml against Kubernetes $K8S_VERSION's schemas, strict
#   systemd-analyze       verify deploy/systemd/seam.service (any warning fails)
#   Dockerfile lint       deploy/Dockerfile parsed by dockerfile-parse, checked by the rules below
#                         (hadolint is in neither Debian nor PyPI)
#   nginx -t              deploy/nginx/seam.conf and cdn.conf in a harness nginx.conf
#   consistency           grace periods against Seam's shutdown time-out, compose services,
#                         every SEAM_* variable a real setting
#
# Each check also runs once on a broken copy and must fail there, so a check that cannot fail is
# caught. A missing tool skips its check with the reason, or fails when CI=true.
# Usage: scripts/deploy-check.sh        Tools: pip install yamllint kubernetes-validate
#   dockerfile-parse; apt-get install systemd nginx-light.
set -uo pipefail
cd "$(dirname "$0")/.."
K8S_VERSION="${K8S_VERSION:-1.34.0}"

tmp="$(mktemp -d /tmp/seam-deploy-check.XXXXXX)"
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0 skipped=0
pass() { echo "deploy-check: ok   $*"; passed=$((passed + 1)); }
fail() { echo "deploy-check: FAIL $*" >&2; failed=$((failed + 1)); }
skip() {
  if [[ "${CI:-}" == "true" ]]; then fail "$* (CI=true: the tool must be installed)"
  else echo "deploy-check: skip $*"; skipped=$((skipped + 1)); fi
}
have() { command -v "$1" >/dev/null 2>&1; }
# run NAME EXPECT(0|1) COMMAND...: the command's exit status must be 0 (good input) or not 0 (broken copy).
run() {
  local name="$1" expect="$2"; shift 2
  local out="$tmp/out.txt"
  "$@" >"$out" 2>&1; local rc=$?
  if [[ "$expect" == 0 && $rc == 0 ]]; then pass "$name"
  elif [[ "$expect" == 1 && $rc != 0 ]]; then pass "$name (broken copy refused)"
  else fail "$name (exit $rc)"; sed 's/^/    /' "$out" >&2; fi
}

# --- yamllint ----------------------------------------------------------------------------------
if have yamllint; then
  run "yamllint deploy/" 0 yamllint -s -c deploy/.yamllint deploy
  printf 'a: 1\na: 2\n' >"$tmp/dup.yaml"
  run "yamllint" 1 yamllint -s -c deploy/.yamllint "$tmp/dup.yaml"
else skip "yamllint: not installed (pip install yamllint)"; fi

# --- kubernetes-validate -----------------------------------------------------------------------
if have kubernetes-validate; then
  run "kubernetes-validate deploy/k8s ($K8S_VERSION, strict)" 0 \
    kubernetes-validate --strict --quiet -k "$K8S_VERSION" deploy/k8s/*.yaml
  sed 's/terminationGracePeriodSeconds:/terminationGracePeriod:/' deploy/k8s/deployment.yaml >"$tmp/deployment.yaml"
  run "kubernetes-validate" 1 kubernetes-validate --strict --quiet -k "$K8S_VERSION" "$tmp/deployment.yaml"
else skip "kubernetes-validate: not installed (pip install kubernetes-validate)"; fi

# --- systemd-analyze verify ----------------------------------------------------------------------
# verify needs ExecStart's binary to exist: the unit is checked as written, with only that path
# pointed at a stand-in. It exits 0 on unknown keys and bad values, so any output fails.
verify_unit() {
  local unit="$1" out
  out="$(SYSTEMD_LOG_COLOR=0 systemd-analyze verify "$unit" 2>&1)" || { echo "$out"; return 1; }
  [[ -z "$out" ]] || { echo "$out"; return 1; }
}
if have systemd-analyze; then
  mkdir -p "$tmp/unit"
  printf '#!/bin/sh\nexit 0\n' >"$tmp/unit/seam" && chmod +x "$tmp/unit/seam"
  sed "s#/usr/local/bin/seam#$tmp/unit/seam#" deploy/systemd/seam.service >"$tmp/unit/seam.service"
  run "systemd-analyze verify deploy/systemd/seam.service" 0 verify_unit "$tmp/unit/seam.service"
  mkdir -p "$tmp/unit-broken"
  sed 's/^ProtectSystem=strict/ProtectSystem=stricter/' "$tmp/unit/seam.service" >"$tmp/unit-broken/seam.service"
  run "systemd-analyze verify" 1 verify_unit "$tmp/unit-broken/seam.service"
else skip "systemd-analyze: not installed (apt-get install systemd)"; fi

# --- Dockerfile lint -------------------------------------------------------------------------------
cat >"$tmp/dockerfile_lint.py" <<'PY'
"""Rules for deploy/Dockerfile, in the spirit of hadolint's (codes in brackets)."""
import json, re, sys
from dockerfile_parse import DockerfileParser

path = sys.argv[1]
parser = DockerfileParser(fileobj=open(path, "rb"))
instructions = parser.structure
problems = []
def problem(line, text): problems.append(f"{path}:{line}: {text}")

args = {}
for ins in instructions:
    if ins["instruction"] == "ARG" and "=" in ins["value"]:
        key, value = ins["value"].split("=", 1)
        args[key.strip()] = value.strip()
def expand(text):
    return re.sub(r"\$\{?(\w+)\}?", lambda m: args.get(m.group(1), m.group(0)), text)

stages = [ins for ins in instructions if ins["instruction"] == "FROM"]
stage_names = set()
if len(stages) < 2:
    problem(1, "not multi-stage: build with the toolchain, run from a slim image")
for ins in stages:
    words = ins["value"].split()
    image = expand(words[0])
    if ":" not in image.split("/")[-1] and "@" not in image:
        problem(ins["startline"] + 1, f"base image {image} has no tag [DL3006]")
    elif image.endswith(":latest"):
        problem(ins["startline"] + 1, f"base image {image} uses :latest [DL3007]")
    if len(words) == 3 and words[1].upper() == "AS":
        stage_names.add(words[2])

final = [ins for ins in instructions if ins["startline"] >= stages[-1]["startline"]] if stages else []
def final_has(name): return [ins for ins in final if ins["instruction"] == name]

users = final_has("USER")
if not users:
    problem(stages[-1]["startline"] + 1 if stages else 1, "the runtime stage runs as root: add USER [DL3002]")
elif users[-1]["value"].split(":")[0] in ("root", "0"):
    problem(users[-1]["startline"] + 1, "last USER is root [DL3002]")
healthchecks = final_has("HEALTHCHECK")
if not healthchecks:
    problem(1, "no HEALTHCHECK in the runtime stage")
elif "/healthz" not in healthchecks[-1]["value"]:
    problem(healthchecks[-1]["startline"] + 1, "HEALTHCHECK does not ask /healthz")
if not final_has("EXPOSE"):
    problem(1, "no EXPOSE in the runtime stage")
entrypoints = final_has("ENTRYPOINT")
if not entrypoints:
    problem(1, "no ENTRYPOINT")
else:
    value = entrypoints[-1]["value"]
    try:
        words = json.loads(value)
    except ValueError:
        problem(entrypoints[-1]["startline"] + 1, "ENTRYPOINT in shell form: SIGTERM would not reach Seam [DL3025]")
        words = []
    if words and (not words[0].endswith("/seam") or words[1:2] != ["serve"]):
        problem(entrypoints[-1]["startline"] + 1, f"ENTRYPOINT is {words}, not seam serve")
builds = [ins for ins in instructions if ins["instruction"] == "RUN" and "swift build" in ins["value"]]
if not builds:
    problem(1, "no swift build")
for ins in builds:
    if "--static-swift-stdlib" not in ins["value"]:
        problem(ins["startline"] + 1, "swift build without --static-swift-stdlib: the runtime image has no Swift runtime")
    if "-c release" not in ins["value"]:
        problem(ins["startline"] + 1, "swift build without -c release")
for ins in final_has("COPY"):
    if "--from=" in ins["value"]:
        source = re.search(r"--from=(\S+)", ins["value"]).group(1)
        if source not in stage_names:
            problem(ins["startline"] + 1, f"COPY --from={source}: no such stage [DL3022]")
for ins in instructions:
    line, value = ins["startline"] + 1, ins["value"]
    if ins["instruction"] == "ADD" and not re.search(r"https?://", value):
        problem(line, "ADD of local files: use COPY [DL3020]")
    if ins["instruction"] == "MAINTAINER":
        problem(line, "MAINTAINER is deprecated [DL4000]")
    if ins["instruction"] != "RUN":
        continue
    if re.search(r"(^|[;&|]\s*)sudo\b", value):
        problem(line, "sudo in RUN [DL3004]")
    if re.search(r"(^|[;&|]\s*)cd\s", value):
        problem(line, "cd in RUN: use WORKDIR [DL3003]")
    if "apt-get install" in value:
        if "--no-install-recommends" not in value:
            problem(line, "apt-get install without --no-install-recommends [DL3015]")
        if not re.search(r"apt-get install\s+(-\S+\s+)*-y|apt-get -y install", value):
            problem(line, "apt-get install without -y [DL3014]")
        if "rm -rf /var/lib/apt/lists" not in value:
            problem(line, "apt lists left in the layer: rm -rf /var/lib/apt/lists/* [DL3009]")
        if "apt-get update" not in value:
            problem(line, "apt-get install without apt-get update in the same RUN")
    if "apt-get upgrade" in value or "apt-get dist-upgrade" in value:
        problem(line, "apt-get upgrade in RUN [DL3005]")
    if re.search(r"\bcurl\b[^;&|]*\|\s*(ba)?sh", value) or re.search(r"\bwget\b[^;&|]*\|\s*(ba)?sh", value):
        problem(line, "piping a download into a shell")
for text in problems:
    print(text)
sys.exit(1 if problems else 0)
PY
if have python3 && python3 -c 'import dockerfile_parse' 2>/dev/null; then
  run "Dockerfile lint deploy/Dockerfile" 0 python3 "$tmp/dockerfile_lint.py" deploy/Dockerfile
  sed -e 's/^USER .*/USER root/' -e 's/ --static-swift-stdlib//' deploy/Dockerfile >"$tmp/Dockerfile"
  run "Dockerfile lint" 1 python3 "$tmp/dockerfile_lint.py" "$tmp/Dockerfile"
else skip "Dockerfile lint: python3 with dockerfile-parse not installed (pip install dockerfile-parse)"; fi

# --- nginx -t ------------------------------------------------------------------------------------
# A harness nginx.conf includes each config as its http{} context; host names that only resolve
# inside compose or a cluster are pointed at loopback, paths at the temporary directory.
nginx_test() { # config file
  local conf="$1" dir="$tmp/nginx-$RANDOM"
  mkdir -p "$dir/cache"
  sed -e 's/\bseam-[12]:8080/127.0.0.1:8080/' -e 's/\bseam\.internal:8080/127.0.0.1:8080/' \
      -e "s#/var/cache/nginx/seam#$dir/cache#" -e 's/listen 80;/listen 127.0.0.1:8080;/' "$conf" >"$dir/site.conf"
  cat >"$dir/nginx.conf" <<EOF
worker_processes 1;
pid $dir/nginx.pid;
error_log stderr;
events { worker_connections 64; }
http {
    access_log off;
    client_body_temp_path $dir/body;
    proxy_temp_path $dir/proxy;
    fastcgi_temp_path $dir/fastcgi;
    uwsgi_temp_path $dir/uwsgi;
    scgi_temp_path $dir/scgi;
    include $dir/site.conf;
}
EOF
  nginx -t -q -p "$dir" -c "$dir/nginx.conf" -e stderr
}
if have nginx; then
  run "nginx -t deploy/nginx/seam.conf" 0 nginx_test deploy/nginx/seam.conf
  run "nginx -t deploy/nginx/cdn.conf" 0 nginx_test deploy/nginx/cdn.conf
  sed 's/proxy_next_upstream_tries 2;/proxy_next_upstream_tries two;/' deploy/nginx/seam.conf >"$tmp/seam-broken.conf"
  run "nginx -t" 1 nginx_test "$tmp/seam-broken.conf"
else skip "nginx: not installed (apt-get install nginx-light)"; fi

# --- consistency across files ----------------------------------------------------------------------
cat >"$tmp/consistency.py" <<'PY'
"""What no single tool checks: the files agree with each other and with Seam's settings."""
import re, sys, yaml

root, docs = sys.argv[1], sys.argv[2]
problems = []
def load(name): return list(yaml.safe_load_all(open(f"{root}/{name}")))

config = {d["metadata"]["name"]: d for d in load("k8s/configmap.yaml")}["seam"]["data"]
shutdown = float(config.get("SEAM_SERVER_SHUTDOWN_TIMEOUT_SECONDS", 10))
for name in ("k8s/deployment.yaml", "k8s/sidecar.yaml"):
    for doc in load(name):
        if doc["kind"] != "Deployment":
            continue
        spec = doc["spec"]["template"]["spec"]
        grace = spec.get("terminationGracePeriodSeconds", 30)
        for container in spec["containers"]:
            if not container["image"].split("/")[-1].startswith("seam:"):
                continue
            pause = container.get("lifecycle", {}).get("preStop", {}).get("sleep", {}).get("seconds", 0)
            if grace <= pause + shutdown:
                problems.append(f"{name}: terminationGracePeriodSeconds {grace} leaves Seam less than its "
                                f"{shutdown:g} s shutdown after a {pause} s preStop pause")
            probes = (container.get("readinessProbe", {}).get("httpGet", {}).get("path"),
                      container.get("livenessProbe", {}).get("httpGet", {}).get("path"))
            if probes != ("/readyz", "/healthz"):
                problems.append(f"{name}: probes are {probes}, expected readiness /readyz, liveness /healthz")
            security = container.get("securityContext", {})
            if not security.get("readOnlyRootFilesystem") or security.get("allowPrivilegeEscalation", True):
                problems.append(f"{name}: container {container['name']} needs a read-only root and no privilege escalation")
        if not spec.get("securityContext", {}).get("runAsNonRoot"):
            problems.append(f"{name}: pod does not require runAsNonRoot")

compose = load("compose.yaml")[0]
services = compose["services"]
for required in ("seam-1", "seam-2", "nginx", "postgres", "demo"):
    if required not in services:
        problems.append(f"compose.yaml: no service {required}")
def seconds(text):
    match = re.fullmatch(r"(\d+)s", str(text))
    return int(match.group(1)) if match else 10
for name in ("seam-1", "seam-2"):
    service = services.get(name, {})
    env = service.get("environment", {})
    grace = seconds(service.get("stop_grace_period", "10s"))
    own = float(env.get("SEAM_SERVER_SHUTDOWN_TIMEOUT_SECONDS", 10))
    if grace <= own:
        problems.append(f"compose.yaml: {name} stop_grace_period {grace}s is not above its shutdown time-out {own:g} s")
    if "SEAM_SESSIONS_ID_SECRET" not in env:
        problems.append(f"compose.yaml: {name} has no shared SEAM_SESSIONS_ID_SECRET")
    if service.get("build", {}).get("dockerfile") != "deploy/Dockerfile":
        problems.append(f"compose.yaml: {name} is not built from deploy/Dockerfile")
upstream = open(f"{root}/nginx/seam.conf").read()
for name in ("seam-1", "seam-2"):
    if f"server {name}:8080" not in upstream:
        problems.append(f"nginx/seam.conf: the upstream does not list {name}:8080")
if not any("seam.conf" in v for v in services.get("nginx", {}).get("volumes", [])):
    problems.append("compose.yaml: nginx does not mount nginx/seam.conf")

# Every SEAM_* variable the files set is one Seam reads (docs/configuration.md's table): Seam only
# warns about unknown ones at start, so a misspelt setting would silently keep its default.
known = set(re.findall(r"`(SEAM_[A-Z0-9_]+)`", open(docs).read())) | {"SEAM_CONFIG"}
used = []
for name in ("seam-1", "seam-2"):
    used += [(f"compose.yaml {name}", key) for key in services.get(name, {}).get("environment", {})]
used += [("k8s/configmap.yaml", key) for key in config]
for name in ("k8s/deployment.yaml", "k8s/sidecar.yaml"):
    for doc in load(name):
        if doc["kind"] == "Deployment":
            for container in doc["spec"]["template"]["spec"]["containers"]:
                used += [(name, env["name"]) for env in container.get("env", [])]
for where, key in used:
    if key.startswith("SEAM_") and key not in known:
        problems.append(f"{where}: {key} is not a Seam setting (docs/configuration.md)")
for text in problems:
    print(text)
sys.exit(1 if problems else 0)
PY
if have python3 && python3 -c 'import yaml' 2>/dev/null; then
  run "consistency of deploy/ files" 0 python3 "$tmp/consistency.py" deploy docs/configuration.md
  cp -r deploy "$tmp/deploy-broken"
  sed -i 's/terminationGracePeriodSeconds: 20/terminationGracePeriodSeconds: 12/' "$tmp/deploy-broken/k8s/deployment.yaml"
  run "consistency (grace period)" 1 python3 "$tmp/consistency.py" "$tmp/deploy-broken" docs/configuration.md
  cp -r deploy "$tmp/deploy-misspelt"
  sed -i 's/SEAM_DOMAINS_MODE:/SEAM_DOMAIN_MODE:/' "$tmp/deploy-misspelt/k8s/configmap.yaml"
  run "consistency (misspelt setting)" 1 python3 "$tmp/consistency.py" "$tmp/deploy-misspelt" docs/configuration.md
else skip "consistency: python3 with PyYAML not installed"; fi

echo "deploy-check: $passed passed, $failed failed, $skipped skipped"
[[ $failed == 0 ]]
