#!/usr/bin/env bash
# Parse + serialize benchmark: Seam's DASH module against Python's mpegdash (parse + write),
# same files, same run, alternating so both see the same machine load.
# Usage: scripts/bench-dash.sh [seconds per measurement, default 3]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-3}"
swift build -c release --product DASHBenchmark >&2
bin="$(swift build -c release --show-bin-path)/DASHBenchmark"
python3 -c "import mpegdash" 2>/dev/null || { echo "pip install mpegdash==0.4.0 first" >&2; exit 1; }

printf '%-14s %10s %14s %12s %14s %12s %9s\n' mpd bytes "seam µs" "seam MB/s" "python µs" "python MB/s" ratio
for file in Benchmarks/Fixtures/vod-2h.mpd Benchmarks/Fixtures/live-dash.mpd; do
  best_seam="" ; best_py=""
  for round in 1 2; do
    s=$("$bin" "$file" --seconds "$seconds")
    p=$(python3 scripts/bench_mpd_python.py "$file" --seconds "$seconds")
    best_seam=$(python3 -c "import json,sys; a=json.loads(sys.argv[1]); b=sys.argv[2]; print(json.dumps(a if not b or a['us_per_mpd']<json.loads(b)['us_per_mpd'] else json.loads(b)))" "$s" "$best_seam")
    best_py=$(python3 -c "import json,sys; a=json.loads(sys.argv[1]); b=sys.argv[2]; print(json.dumps(a if not b or a['us_per_mpd']<json.loads(b)['us_per_mpd'] else json.loads(b)))" "$p" "$best_py")
  done
  python3 - "$best_seam" "$best_py" <<'PY'
import json, sys
s, p = json.loads(sys.argv[1]), json.loads(sys.argv[2])
print(f"{s['file']:<14} {s['bytes']:>10} {s['us_per_mpd']:>14.2f} {s['mb_per_s']:>12.1f} {p['us_per_mpd']:>14.1f} {p['mb_per_s']:>12.1f} {p['us_per_mpd'] / s['us_per_mpd']:>8.0f}x")
PY
done
