#!/usr/bin/env bash
# Checks deploy/monitoring/ as Prometheus and Grafana would load it:
# - the alerting rules with `promtool check rules`, and their test cases with `promtool test rules`;
# - the dashboard: valid JSON with a Prometheus datasource on every panel, each query valid PromQL
#   (promtool checks it as a recording rule), and every metric it or the rules name one Seam
#   exposes (a family of docs/metrics.md, the list Seam's # HELP lines come from).
# Needs promtool (Debian: prometheus). With CI=true a missing promtool is a failure.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=deploy/monitoring

if ! command -v promtool >/dev/null; then
  if [[ "${CI:-}" == "true" ]]; then
    echo "check-monitoring: promtool is not installed (apt-get install prometheus)" >&2
    exit 1
  fi
  echo "check-monitoring: skipped, promtool is not installed (apt-get install prometheus; .ci/run installs it)"
  exit 0
fi

promtool check rules "$dir/seam-alerts.yaml"
(cd "$dir" && promtool test rules seam-alerts.test.yaml)

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
python3 - "$dir/seam-dashboard.json" "$dir/seam-alerts.yaml" docs/metrics.md "$tmp/dashboard-rules.yaml" <<'PY'
import json, re, sys
dashboard_path, alerts_path, docs_path, rules_out = sys.argv[1:5]
families = set(re.findall(r"^\| `([a-z_]+)` \|", open(docs_path).read(), re.M))
if len(families) < 20:
    sys.exit(f"check-monitoring: found only {len(families)} families in {docs_path}")
suffixes = ("_bucket", "_sum", "_count")
def unknown(expr):
    names = set(re.findall(r"\b((?:seam|process)_[a-z_]+)", expr))
    out = []
    for name in names:
        base = next((name[: -len(s)] for s in suffixes if name.endswith(s) and name[: -len(s)] in families), name)
        if base not in families:
            out.append(name)
    return out
problems = []
dashboard = json.load(open(dashboard_path))
for key in ("title", "uid", "panels", "schemaVersion"):
    if key not in dashboard:
        problems.append(f"dashboard has no {key}")
rules = []
for panel in dashboard.get("panels", []):
    title = panel.get("title", "?")
    if panel.get("datasource", {}).get("type") != "prometheus":
        problems.append(f"panel {title!r}: datasource is not prometheus")
    targets = panel.get("targets", [])
    if not targets:
        problems.append(f"panel {title!r}: no query")
    for target in targets:
        expr = target.get("expr", "")
        for name in unknown(expr):
            problems.append(f"panel {title!r}: {name} is not a metric Seam exposes (docs/metrics.md)")
        rules.append({"record": f"dashboard:panel{panel['id']}_{target['refId']}",
                      "expr": expr.replace("$__rate_interval", "5m").replace("$__interval", "1m")})
for expr in re.findall(r"expr: \|\n((?:\s{10}.*\n)+)", open(alerts_path).read()):
    for name in unknown(expr):
        problems.append(f"alert rules: {name} is not a metric Seam exposes (docs/metrics.md)")
if problems:
    sys.exit("check-monitoring:\n  " + "\n  ".join(problems))
with open(rules_out, "w") as out:
    json.dump({"groups": [{"name": "dashboard", "rules": rules}]}, out)
print(f"check-monitoring: dashboard has {len(rules)} queries over {len(families)} documented families")
PY
# Every dashboard query parses as PromQL.
promtool check rules "$tmp/dashboard-rules.yaml"
echo "check-monitoring: passed"
