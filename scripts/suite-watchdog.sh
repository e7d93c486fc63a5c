#!/usr/bin/env bash
# Ends a `swift test` run whose log has stopped growing, saying where it stopped.
#
# Usage: scripts/suite-watchdog.sh LOG PID [QUIET_SECONDS]
#   LOG            the file the suite's output goes to
#   PID            the process that runs the suite (`swift test`, or a shell around it)
#   QUIET_SECONDS  how long the log may stay unchanged while PID lives (default 900: the
#                  longest test, a real-time player run, ends within 5 minutes)
#
# Returns 0 once PID has ended by itself. When the log stays unchanged for QUIET_SECONDS, it
# prints the tests that started and never ended (from Swift Testing's lines), sends SIGABRT to
# the test process (the Swift runtime then writes every thread's backtrace into the log), stops
# PID and its test process, and returns 1. Used by .ci/run and scripts/stress-suite.sh: a suite
# that waits forever fails in minutes with the test named, not at the CI job's time limit.
set -uo pipefail
log="$1" pid="$2" quiet_seconds="${3:-900}"

# Suites and tests that printed "started" and neither passed, failed nor were skipped.
unfinished() {
  python3 - "$log" <<'PY'
import re, sys
begun = {"Suite": [], "Test": []}
ended = {"Suite": set(), "Test": set()}
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    match = re.match(r'^◇ (Suite|Test) (".*"|\S+) started\.$', line.rstrip("\n"))
    if match and match.group(2) != "run":
        begun[match.group(1)].append(match.group(2))
        continue
    match = re.match(r'^[^◇\s] (Suite|Test) (".*?"|\S+) (?:with \d+ test cases? )?(?:passed|failed|skipped)\b', line)
    if match:
        ended[match.group(1)].add(match.group(2))
for kind in ("Suite", "Test"):
    left = [name for name in dict.fromkeys(begun[kind]) if name not in ended[kind]]
    print(f"  {kind.lower()}s started and not ended: {len(left)}")
    for name in left[:20]:
        print("    " + name)
PY
}

test_processes() { pgrep -f 'PackageTests\.xctest' 2>/dev/null || true; }

while kill -0 "$pid" 2>/dev/null; do
  sleep $((quiet_seconds < 60 ? 2 : 20))
  kill -0 "$pid" 2>/dev/null || exit 0
  [[ -f "$log" ]] || continue
  changed="$(stat -c %Y "$log" 2>/dev/null || echo 0)"
  if (($(date +%s) - changed >= quiet_seconds)); then
    {
      echo
      echo "suite-watchdog: the suite has printed nothing for ${quiet_seconds} s (Swift Testing's lines; one may be missing):"
      unfinished
      echo "suite-watchdog: every thread's backtrace follows (SIGABRT: the Swift runtime prints it), then the suite is stopped"
    } >&2
    # SIGABRT, not SIGQUIT: a command started in the background by a shell without job control
    # (as .ci/run starts the suite) ignores SIGQUIT.
    for process in $(test_processes); do kill -ABRT "$process" 2>/dev/null || true; done
    sleep 30
    for process in $(test_processes); do kill -KILL "$process" 2>/dev/null || true; done
    sleep 2 # `swift test` writes what it still holds once its test process is gone
    kill -TERM "$pid" 2>/dev/null || true
    exit 1
  fi
done
exit 0
