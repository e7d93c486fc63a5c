#!/usr/bin/env bash
# A live reload in the session engine, HLS beside DASH, in one run on the same synthetic channel
# (Benchmarks/LiveReloadBenchmark: the answer for one viewer's reload, and the origin refresh
# shared by every viewer). Usage: scripts/bench-live-dash.sh [seconds per measurement, default 2]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-2}"
swift build -c release --product LiveReloadBenchmark >&2
bin="$(swift build -c release --show-bin-path)/LiveReloadBenchmark"
for reloads in 1 3; do
  "$bin" --segments 300 --seconds "$seconds" --rounds 3 --reloads-per-window "$reloads"
done
