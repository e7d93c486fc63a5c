#!/usr/bin/env bash
# Play an HLS or DASH URL with GStreamer (playbin -> hlsdemux/dashdemux -> demuxer -> avdec_* -> fakesink,
# sync=false, so a VOD is decoded as fast as the CPU allows) and report whether it played to the end.
#
# Usage: gst_play.sh URL [--timeout S] [--connection-speed KBPS] [--live SECONDS [--min-advance F]] [--expect-duration S [--tolerance T]]
#                        [--min-frames N] [--playbin3] [--by-frames] [--sync|--no-sync] [--json]
#
#   VOD  (default): PASS when the pipeline reaches EOS with no ERROR message within --timeout
#                   (default 120 s) and at least one video frame (or, audio-only, any buffer) was decoded.
#   live (--live S): plays in real time; PASS when the pipeline is still playing without ERROR
#                   after S seconds (it is then stopped) and at least --min-advance (0.8) x S
#                   seconds of video were decoded; reaching EOS early is a failure.
#   A VOD also fails when more than 1 s worth of frames is missing inside the decoded span.
#   --expect-duration: also require the decoded video's PTS span within --tolerance (default 0.5).
#   --by-frames: the decoded duration is the video frames over the frame rate, not the PTS span
#   (dashdemux2 starts each DASH period's timestamps again, so a multi-period span is its longest
#   period's); the check for frames missing inside the span is then left out.
#   --playbin3 uses playbin3 (which auto-plugs the newer hlsdemux2/dashdemux2); --sync/--no-sync overrides
#   the clock (VOD default: as fast as possible; live default: real time).
#
# Exit: 0 pass, 1 fail (reason on stderr and in --json), 2 usage, 3 gst-launch-1.0 not installed.
set -u

usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit "${1:-2}"; }

by_frames=0 conn="" url="" timeout_s=120 live="" expect="" tol=0.5 min_frames=1 pb=playbin sync="" json=0 min_adv=0.8
while [ $# -gt 0 ]; do
  case "$1" in
    --timeout) timeout_s="$2"; shift 2 ;;
    # Fixed bandwidth in kbit/s for adaptive streams: no variant switching from download timing,
    # which on a loaded machine is noise.
    --connection-speed) conn="$2"; shift 2 ;;
    --live) live="$2"; shift 2 ;;
    --expect-duration) expect="$2"; shift 2 ;;
    --tolerance) tol="$2"; shift 2 ;;
    --min-frames) min_frames="$2"; shift 2 ;;
    --playbin3) pb=playbin3; shift ;;
    --by-frames) by_frames=1; shift ;;
    --sync) sync=true; shift ;;
    --no-sync) sync=false; shift ;;
    --min-advance) min_adv="$2"; shift 2 ;;
    --json) json=1; shift ;;
    -h|--help) usage 0 ;;
    -*) echo "gst_play: unknown option $1" >&2; usage ;;
    *) [ -z "$url" ] || usage; url="$1"; shift ;;
  esac
done
[ -n "$url" ] || usage
# VOD: decode as fast as possible; live: real time, so the decoded span measures progress.
[ -z "$sync" ] && { [ -n "$live" ] && sync=true || sync=false; }
command -v gst-launch-1.0 >/dev/null || { echo "gst_play: gst-launch-1.0 not found" >&2; exit 3; }

log="$(mktemp "${TMPDIR:-/tmp}/seam-gst.XXXXXX")"
trap 'rm -f "$log"' EXIT
limit="$timeout_s"
[ -n "$live" ] && limit="$live"

start=$(date +%s.%N)
# -v with a non-silent video fakesink prints one "chain" line per decoded frame (with its PTS).
# setsid + timeout -k: the whole pipeline process is stopped at the limit.
timeout -k 5 "$limit" gst-launch-1.0 -v "$pb" uri="$url" ${conn:+connection-speed=$conn} \
  video-sink="fakesink name=seamvsink sync=$sync silent=false" \
  audio-sink="fakesink name=seamasink sync=$sync" >"$log" 2>&1
rc=$?
# A live watch ends at the limit: a pipeline that needed SIGKILL after the SIGTERM (dashdemux2
# can hang in its stop while a live download waits) was still playing all the same.
[ -n "$live" ] && [ "$rc" -eq 137 ] && rc=124
elapsed=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')

stats=$(awk '
  /seamvsink: last-message = chain/ {
    frames++
    if (match($0, /pts: [0-9]+:[0-9]+:[0-9.]+/)) {
      split(substr($0, RSTART + 5, RLENGTH - 5), p, ":"); t = p[1] * 3600 + p[2] * 60 + p[3]
      if (frames == 1 || t < first) first = t
      if (t > last) last = t
    }
    if (match($0, /duration: [0-9]+:[0-9]+:[0-9.]+/)) {
      split(substr($0, RSTART + 10, RLENGTH - 10), d, ":"); dur = d[1] * 3600 + d[2] * 60 + d[3]
    }
  }
  /seamvsink: last-message = event.*type: caps/ {
    caps++
    if (match($0, /framerate[^0-9]*[0-9]+\/[0-9]+/)) {
      fr = substr($0, RSTART, RLENGTH); sub(/^[^0-9]*/, "", fr); split(fr, q, "/")
      if (q[2] > 0) fps = q[1] / q[2]
    }
  }
  END { span = frames ? last + dur - first : 0; printf "%d %.3f %.3f %d %.3f\n", frames, first, span, caps, fps }
' "$log")
read -r frames first_pts span caps_events fps <<<"$stats"
eos=0; grep -q '^Got EOS from element' "$log" && eos=1
# "ERROR: from element /GstPlayBin:playbin0/.../GstHLSDemux:hlsdemux0: msg" -> "hlsdemux0: msg"
errors=$(grep -E '^ERROR: ' "$log" | sed -E 's#^ERROR: from element [^ ]*:([^:/ ]+): #\1: #' | cut -c1-240 | head -5)
warnings=$(grep -E '^WARNING: ' "$log" | head -5)

# Live progress: the PTS span, or with --by-frames the frames over the frame rate (dashdemux2
# starts each DASH period's timestamps again, so a multi-period span is its longest period's).
advance="$span"
[ "$by_frames" -eq 1 ] && advance=$(awk -v n="$frames" -v f="$fps" 'BEGIN { printf "%.3f", (f > 0 ? n / f : 0) }')
ok=0; reason=""
if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && [ -z "$errors" ]; then
  errors="gst-launch-1.0 exited with status $rc"
fi
if [ -n "$errors" ]; then
  reason="error: $(echo "$errors" | head -1)"
elif [ -n "$live" ]; then
  if [ "$rc" -eq 124 ] && [ "$sync" = true ] && ! awk -v s="$advance" -v w="$live" -v m="$min_adv" \
       'BEGIN { exit !(s >= w * m) }'; then
    reason="only ${advance}s of video decoded during the ${live}s live watch (need >= ${min_adv} x ${live}s): stalled?"
  elif [ "$rc" -eq 124 ]; then
    ok=1; reason="ok: still playing after ${live}s"
  elif [ "$eos" -eq 1 ]; then
    reason="stream ended (EOS) during the ${live}s live watch"
  else
    reason="gst-launch-1.0 exited with status $rc"
  fi
else
  if [ "$rc" -eq 124 ]; then
    reason="timeout after ${timeout_s}s without EOS"
  elif [ "$eos" -eq 1 ]; then
    ok=1; reason="ok: reached EOS"
  else
    reason="no EOS (exit $rc)"
  fi
fi
has_video=0; grep -q 'seamvsink' "$log" && grep -q 'video/x-raw' "$log" && has_video=1
if [ "$ok" -eq 1 ] && [ "$has_video" -eq 1 ] && [ "$frames" -lt "$min_frames" ]; then
  ok=0; reason="only $frames video frame(s) decoded (need >= $min_frames)"
fi
# Frames missing inside the span (e.g. an unreadable segment that the demuxer skipped).
expected_frames=$(awk -v s="$span" -v f="$fps" 'BEGIN { printf "%d", (f > 0 ? s * f : 0) }')
decoded="$span"
[ "$by_frames" -eq 1 ] && decoded=$(awk -v n="$frames" -v f="$fps" 'BEGIN { printf "%.3f", (f > 0 ? n / f : 0) }')
if [ "$ok" -eq 1 ] && [ -z "$live" ] && [ "$by_frames" -eq 0 ] && awk -v n="$frames" -v s="$span" -v f="$fps" \
     'BEGIN { exit !(f > 0 && n < s * f - f * 1.0) }'; then
  ok=0; reason="only $frames video frames decoded over a ${span}s span at ${fps} fps (~$expected_frames expected): media missing"
fi
if [ "$ok" -eq 1 ] && [ -n "$expect" ] && [ -z "$live" ]; then
  if ! awk -v s="$decoded" -v e="$expect" -v t="$tol" 'BEGIN { d = s - e; if (d < 0) d = -d; exit !(d <= t) }'; then
    ok=0; reason="decoded video spans ${decoded}s, expected ${expect}s +- ${tol}s"
  fi
fi

if [ "$json" -eq 1 ]; then
  OK="$ok" REASON="$reason" URL="$url" RC="$rc" EOS="$eos" FRAMES="$frames" SPAN="$span" FIRST="$first_pts" FPS="$fps" DECODED="$decoded" \
  ELAPSED="$elapsed" ERRORS="$errors" WARNINGS="$warnings" MODE="$([ -n "$live" ] && echo live || echo vod)" \
  PB="$pb" python3 -c '
import json, os
e = os.environ
print(json.dumps({
  "ok": e["OK"] == "1", "reason": e["REASON"], "url": e["URL"], "mode": e["MODE"], "element": e["PB"],
  "exit_status": int(e["RC"]), "eos": e["EOS"] == "1", "video_frames": int(e["FRAMES"]),
  "video_first_pts": float(e["FIRST"]), "video_pts_span": float(e["SPAN"]), "video_decoded_seconds": float(e["DECODED"]), "video_fps": float(e["FPS"] or 0),
  "errors": [l for l in e["ERRORS"].splitlines() if l], "warnings": [l for l in e["WARNINGS"].splitlines() if l],
  "wall_seconds": round(float(e["ELAPSED"] or 0), 3)}, indent=2))'
else
  printf '%s: %s (videoFrames=%s span=%ss wall=%.1fs)\n' "$([ $ok -eq 1 ] && echo PASS || echo FAIL)" \
    "$reason" "$frames" "$span" "$elapsed"
fi
if [ "$ok" -ne 1 ]; then
  echo "gst_play: FAIL: $reason" >&2
  exit 1
fi
exit 0
