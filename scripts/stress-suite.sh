#!/usr/bin/env bash
# Runs the whole suite N times with one core kept busy by another process, as a loaded CI machine
# would be, and prints each failing test with how many runs it failed in.
#
#   scripts/stress-suite.sh 3            # three runs of `swift test` beside one busy core
#   scripts/stress-suite.sh 3 --filter LiveEndToEnd   # extra arguments go to `swift test`
#
# The busy core is `stress-ng --cpu 1` when installed, else a shell busy loop at normal priority
# (nice 0), started here and stopped on exit. Set SEAM_STRESS_CPUS=0 to run without it (a
# baseline), or to 2 for both cores. Logs are kept in $SEAM_STRESS_LOGS (default: a temp dir).
# Exit status: 0 when every run passed, 1 otherwise. docs/testing.md says when to run it.
set -euo pipefail
cd "$(dirname "$0")/.."

runs="${1:-3}"
shift || true
if ! [[ "$runs" =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: scripts/stress-suite.sh N [swift test arguments...]  (N: how many runs, 1 or more)" >&2
  exit 2
fi
cpus="${SEAM_STRESS_CPUS:-1}"
logs="${SEAM_STRESS_LOGS:-$(mktemp -d /tmp/seam-stress.XXXXXX)}"
mkdir -p "$logs"

echo "stress-suite: building the tests once"
swift build --build-tests >"$logs/build.log" 2>&1 || { tail -40 "$logs/build.log"; echo "stress-suite: the build failed ($logs/build.log)" >&2; exit 1; }

busy_pids=()
stop_busy() {
  for pid in "${busy_pids[@]+"${busy_pids[@]}"}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${busy_pids[@]+"${busy_pids[@]}"}"; do wait "$pid" 2>/dev/null || true; done
}
trap stop_busy EXIT
if [ "$cpus" -gt 0 ]; then
  if command -v stress-ng >/dev/null 2>&1; then
    stress-ng --cpu "$cpus" --quiet >/dev/null 2>&1 &
    busy_pids+=($!)
    echo "stress-suite: $cpus core(s) kept busy by stress-ng --cpu $cpus"
  else
    for _ in $(seq "$cpus"); do
      nice -n 0 sh -c 'while :; do :; done' &
      busy_pids+=($!)
    done
    echo "stress-suite: $cpus core(s) kept busy by a shell loop (install stress-ng for the usual load)"
  fi
else
  echo "stress-suite: no busy core (SEAM_STRESS_CPUS=0)"
fi

failed_runs=0
: >"$logs/failures.txt"
for run in $(seq "$runs"); do
  log="$logs/run-$run.log"
  start=$(date +%s)
  status=0
  CI="${CI:-true}" swift test --skip-build "$@" >"$log" 2>&1 &
  test_pid=$!
  # A run that prints nothing for 15 minutes is stopped, its unfinished tests named.
  scripts/suite-watchdog.sh "$log" "$test_pid" 900 2>>"$logs/watchdog.txt" &
  watchdog_pid=$!
  wait "$test_pid" || status=$?
  kill "$watchdog_pid" 2>/dev/null || true
  wait "$watchdog_pid" 2>/dev/null || true
  if [ -s "$logs/watchdog.txt" ]; then cat "$logs/watchdog.txt" >&2; : >"$logs/watchdog.txt"; fi
  seconds=$(( $(date +%s) - start ))
  # Swift Testing: '✘ Test <name> failed after ...'; a suite's own line is left out (its tests are listed).
  failures=$(grep -E '^✘ Test .* failed after' "$log" | grep -v '^✘ Test run with' | sed -E 's/^✘ Test (.*) failed after .*/\1/' || true)
  if [ "$status" -ne 0 ] || [ -n "$failures" ]; then
    failed_runs=$((failed_runs + 1))
    if [ -n "$failures" ]; then
      printf '%s\n' "$failures" >>"$logs/failures.txt"
    else
      echo "(run $run: swift test exited $status with no failing test named; see $log)" >>"$logs/failures.txt"
    fi
    echo "stress-suite: run $run of $runs FAILED in ${seconds} s ($log)"
  else
    echo "stress-suite: run $run of $runs passed in ${seconds} s"
  fi
done

echo
if [ "$failed_runs" -eq 0 ]; then
  echo "stress-suite: $runs of $runs runs passed (busy cores: $cpus); logs in $logs"
  exit 0
fi
echo "stress-suite: $failed_runs of $runs runs failed (busy cores: $cpus). Failing tests, with the number of runs each failed in:"
sort "$logs/failures.txt" | uniq -c | sort -rn
echo "logs in $logs"
exit 1
