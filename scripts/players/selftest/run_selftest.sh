#!/usr/bin/env bash
# End-to-end self-test of the player checks against generated media on loopback.
#
# Usage: run_selftest.sh [--quick]     (--quick skips the 30 s live runs)
#
# Needs ffmpeg, gstreamer (good/bad/libav) and Debian's chromium. Prints one line per case and
# ends with "N passed, N failed"; exits non-zero if any case failed. Takes ~3 min (~1 min --quick).
set -u
here="$(cd "$(dirname "$0")" && pwd)"
players="$(cd "$here/.." && pwd)"
quick=0; [ "${1:-}" = "--quick" ] && quick=1

work="$(mktemp -d "${TMPDIR:-/tmp}/seam-players-selftest.XXXXXX")"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  wait 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

"$here/make_media.sh" "$work/media" >/dev/null || { echo "make_media.sh failed"; exit 1; }

# Start a server that prints its URL/port on its first stdout line; sets $srv_line.
start_server() { # logname cmd...
  local log="$work/$1.log"; shift
  "$@" >"$log" 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do
    srv_line="$(head -1 "$log" 2>/dev/null)"
    [ -n "$srv_line" ] && return 0
    sleep 0.1
  done
  echo "server $* did not start"; exit 1
}
start_server http python3 -u "$here/static_server.py" "$work/media"
port="$(echo "$srv_line" | sed -E 's/.* port ([0-9]+).*/\1/')"
base="http://127.0.0.1:$port"

passed=0 failed=0
# check NAME EXPECTED_EXIT JQ-LIKE-PYTHON-ASSERTION(or "") -- command...
check() {
  local name="$1" want="$2" assert="$3"; shift 4
  local out rc
  out="$("$@" 2>"$work/stderr")"; rc=$?
  local ok=1 why=""
  [ "$rc" -eq "$want" ] || { ok=0; why="exit $rc, wanted $want"; }
  if [ "$ok" -eq 1 ] && [ -n "$assert" ]; then
    if ! why="$(printf '%s' "$out" | python3 -c "import json,sys; d=json.load(sys.stdin); assert $assert, {k: d.get(k) for k in ('reason','duration','discontinuities','decoded_frames','video_frames')}" 2>&1)"; then
      ok=0; why="assertion failed: $(printf '%s' "$why" | tail -1)"
    fi
  fi
  if [ "$ok" -eq 1 ]; then
    passed=$((passed + 1)); echo "PASS $name"
  else
    failed=$((failed + 1)); echo "FAIL $name: $why"; tail -2 "$work/stderr"
  fi
}

F="$players/ffprobe_check.py"; G="$players/gst_play.sh"; C="$players/chromium_play.py"

check "websocket framing unit test" 0 "" -- python3 "$here/test_websocket.py"
check "stall nudge decision unit test" 0 "" -- python3 "$here/test_nudge.py"

check "ffprobe: stitched = 1 discontinuity, 40 s" 0 \
  "d['discontinuities'] == 1 and d['playlist_discontinuity_tags'] == 1 and abs(d['demuxed_duration'] - 40) < 0.5 and d['codecs'] == ['aac', 'h264']" \
  -- "$F" "$base/stitched.m3u8"
check "ffprobe: midroll = 2 discontinuities, 28 s" 0 \
  "d['discontinuities'] == 2 and abs(d['demuxed_duration'] - 28) < 0.5 and d['notes']" \
  -- "$F" "$base/midroll.m3u8" --strict --decode
check "ffprobe: 404 segment fails" 1 "'404' in d['reason']" -- "$F" "$base/broken404.m3u8"
check "ffprobe: garbage segment fails" 1 "'garbage' in d['reason']" -- "$F" "$base/garbage.m3u8"

check "gst: stitched plays to EOS" 0 "d['video_frames'] == 1000" -- "$G" "$base/stitched.m3u8" --json --expect-duration 40
check "gst: midroll plays to EOS" 0 "d['video_frames'] == 700" -- "$G" "$base/midroll.m3u8" --json
check "gst: 404 segment fails" 1 "" -- "$G" "$base/broken404.m3u8"
check "gst: garbage segment fails" 1 "'missing' in d['reason']" -- "$G" "$base/garbage.m3u8" --json

check "chromium: stitched ends, duration 40 s at rate 8" 0 \
  "d['ended'] and d['decoded_frames'] >= 990 and abs(d['duration'] - 40) < 0.5" \
  -- "$C" "$base/stitched.m3u8" --rate 8 --expect-duration 40 --json
check "chromium: midroll with --gap-jump ends" 0 "d['ended'] and len(d['gap_jumps']) >= 1" \
  -- "$C" "$base/midroll.m3u8" --rate 8 --expect-duration 28 --gap-jump 0.5 --json
check "chromium: 404 segment fails" 1 "'404' in d['reason']" -- "$C" "$base/broken404.m3u8" --rate 8 --json
check "chromium: garbage segment fails" 1 "'stuck' in d['reason']" \
  -- "$C" "$base/garbage.m3u8" --rate 8 --stuck-timeout 10 --json
check "chromium: garbage segment still fails with --gap-jump, its hole not nudged over" 1 \
  "'stuck' in d['reason'] and d['nudges'] == []" \
  -- "$C" "$base/garbage.m3u8" --rate 8 --gap-jump 0.5 --stuck-timeout 10 --json
# Documents a Chromium limitation rather than asserting it: without gap jumping the native
# player stalls at the mid-roll splice (audio ends 75 ms before video).
out="$("$C" "$base/midroll.m3u8" --rate 8 --stuck-timeout 10 2>/dev/null | head -1)"
echo "INFO chromium: midroll without --gap-jump: $out"

if [ "$quick" -eq 0 ]; then
  start_server live python3 -u "$here/live_server.py" --playlist "$work/media/stitched.m3u8"
  live="${srv_line#URL }"
  start_server frozen python3 -u "$here/live_server.py" --playlist "$work/media/stitched.m3u8" --freeze-after 4
  frozen="${srv_line#URL }"
  check "chromium: live 30 s" 0 "d['duration_infinite'] and d['advanced'] >= 24" \
    -- "$C" "$live" --live --watch 30 --json
  check "chromium: frozen live origin fails" 1 "'stall' in d['reason'] or 'advanced only' in d['reason']" \
    -- "$C" "$frozen" --live --watch 30 --json
  check "gst: live 30 s" 0 "d['video_pts_span'] >= 24" -- "$G" "$live" --live 30 --json
  check "ffprobe: live window" 0 "d['live'] and d['discontinuities'] is not None" -- "$F" "$live" --live-seconds 12
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
