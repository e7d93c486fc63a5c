#!/usr/bin/env bash
# Conditioning benchmark (issue 14). Two questions, on this machine, in one run:
#  1. How long conditioning takes: per ad second per rendition, for the demo's MP4 (15 s, 720p,
#     a flat colour card: cheap to encode) and for a harder 1080p creative made here (30 s of
#     ffmpeg's testsrc2 with noise). Each job is timed end to end through POST
#     /v1/creatives/prefetch with waitSeconds (download, probe, every rendition), on an empty cache.
#  2. Whether serving suffers while a job runs: wrk on a session's stitched media playlist, side
#     by side, rounds alternating "no job" and "a job running" (the 1080p creative), with jobs as
#     configured by default (SCHED_IDLE through chrt, nice 10, half the cores' threads) and, for
#     contrast, the same on every core, and nice 0 on every core (Seam restarted with each, same
#     binary), under a saturating load and a paced one. Reported as ratios of the job rounds to
#     the no-job rounds.
# Results: BENCHMARKS.md, "Conditioning".
#
# Usage: scripts/bench-conditioning.sh
# Knobs (environment): JOBS=3 (timed jobs per creative), ROUNDS=2 (pairs of wrk rounds per
#   setup and load), THREADS=2 CONNECTIONS=64 DURATION=10 WARMUP=2 (wrk), PACE_MS=10 (the paced
#   load's wait between a connection's requests), SCRATCH=.build-bench,
#   KEEP_TMP=1 (keep the temp dir).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
helpers="$root/scripts/bench_serve"

declare -A defaults=([JOBS]=3 [ROUNDS]=2 [THREADS]=2 [CONNECTIONS]=64 [DURATION]=10 [WARMUP]=2 [PACE_MS]=10 [SCRATCH]=.build-bench)
command_line="scripts/bench-conditioning.sh"
for knob in JOBS ROUNDS THREADS CONNECTIONS DURATION WARMUP PACE_MS SCRATCH; do
  if [[ -n "${!knob:-}" && "${!knob}" != "${defaults[$knob]}" ]]; then command_line="$knob=${!knob} $command_line"; fi
  declare "$knob=${!knob:-${defaults[$knob]}}"
done
for tool in ffmpeg ffprobe wrk curl python3; do
  command -v "$tool" >/dev/null || { echo "bench-conditioning: $tool is required" >&2; exit 1; }
done

cores="$(nproc)"
log() { printf '[bench-conditioning %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

tmp="$(mktemp -d /tmp/seam-bench-conditioning.XXXXXX)"
seam_pid=""
stop() { # pid: TERM, up to 15 s to exit, then KILL
  local pid="$1"
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  stop "$seam_pid"
  pkill -f "$tmp/conditioned" 2>/dev/null || true   # an ffmpeg of a job still running
  if [[ -n "${KEEP_TMP:-}" ]]; then log "kept $tmp"; else rm -rf "$tmp"; fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

wait_http() { # url, seconds, pid that must stay alive
  local url="$1" seconds="$2" pid="$3"
  for _ in $(seq $((seconds * 10))); do
    kill -0 "$pid" 2>/dev/null || { log "process $pid exited while waiting for $url"; return 1; }
    curl -fsS -o /dev/null --max-time 1 "$url" 2>/dev/null && return 0
    sleep 0.1
  done
  log "timed out waiting for $url"; return 1
}

# --- build; the samples with the harder creative beside the demo's ---------------------------------
log "building seam (release, scratch path $SCRATCH)"
for attempt in 1 2 3 4 5; do
  if swift build -c release --product seam --scratch-path "$SCRATCH" >"$tmp/build.log" 2>&1; then break; fi
  if [[ "$attempt" -lt 5 ]] && grep -q 'was modified during the build' "$tmp/build.log"; then
    log "a source changed during the build; retrying"; sleep 5; continue
  fi
  cat "$tmp/build.log" >&2; exit 1
done
seam_bin="$(swift build -c release --scratch-path "$SCRATCH" --show-bin-path)/seam"

cp -R "$root/Samples" "$tmp/Samples"
mkdir -p "$tmp/Samples/media/ads/bench"
log "making the 1080p creative (30 s of testsrc2 with noise at 10 Mbit/s, 30 fps, 48 kHz stereo: a mezzanine-like input)"
ffmpeg -nostdin -hide_banner -loglevel error -y \
  -f lavfi -i "testsrc2=size=1920x1080:rate=30:duration=30,noise=alls=12:allf=t" \
  -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=30" \
  -c:v libx264 -preset veryfast -b:v 10M -maxrate 10M -bufsize 20M -pix_fmt yuv420p -g 60 -c:a aac -ac 2 -b:a 128k -movflags +faststart \
  "$tmp/Samples/media/ads/bench/testsrc-1080p.mp4"
bench_mp4_bytes="$(wc -c <"$tmp/Samples/media/ads/bench/testsrc-1080p.mp4")"

results="$tmp/results"; mkdir -p "$results"
mapfile -t ports < <(python3 "$helpers/free_ports.py" 3)
seam_port="${ports[0]}" origin_port="${ports[1]}" ads_port="${ports[2]}"
seam="http://127.0.0.1:$seam_port"
content_url="http://127.0.0.1:$origin_port/media/content/master.m3u8"
demo_mp4="http://127.0.0.1:$ads_port/media/ads/nohls/nohls-720p.mp4"
bench_mp4="http://127.0.0.1:$ads_port/media/ads/bench/testsrc-1080p.mp4"

start_seam() { # label niceness idlePriority threads
  "$seam_bin" demo --host 127.0.0.1 --port "$seam_port" --origin-port "$origin_port" --ad-server-port "$ads_port" \
    --samples "$tmp/Samples" --set conditioning.directory="$tmp/conditioned" --set conditioning.niceness="$2" \
    --set conditioning.idlePriority="$3" --set conditioning.threads="$4" --set conditioning.maxInputSeconds=60 >"$tmp/seam-$1.log" 2>&1 &
  seam_pid=$!
  wait_http "$seam/healthz" 60 "$seam_pid" || { tail -30 "$tmp/seam-$1.log" >&2; exit 1; }
}

prefetch() { # creative url, wait seconds, output file; prints "status seconds"
  curl -sS -o "$3" -w '%{http_code} %{time_total}\n' -X POST -H 'content-type: application/json' --max-time 300 \
    --data "{\"contentUrl\":\"$content_url\",\"creatives\":[{\"url\":\"$1\"}],\"waitSeconds\":$2}" "$seam/v1/creatives/prefetch"
}
job_status() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["creatives"][0]["status"])' "$1"; }

# --- 1. conditioning time ------------------------------------------------------------------------
start_seam default 10 true 0
renditions="$(curl -fsS "$content_url" | grep -c '^#EXT-X-STREAM-INF')"
for name in demo bench; do
  if [[ "$name" == demo ]]; then url="$demo_mp4"; else url="$bench_mp4"; fi
  for job in $(seq "$JOBS"); do
    rm -rf "$tmp/conditioned"
    read -r status seconds < <(prefetch "$url" 120 "$tmp/answer.json")
    [[ "$status" == 200 && "$(job_status "$tmp/answer.json")" == conditioned ]] || { log "job $name $job: $status $(cat "$tmp/answer.json")"; exit 1; }
    log "job $name $job: $seconds s"
    echo "$seconds" >>"$results/job-$name.txt"
  done
done
manifest="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["creatives"][0]["manifestUrl"])' "$tmp/answer.json")"
curl -fsS "$manifest" >"$results/conditioned-master.m3u8"

# --- 2. serving while a job runs -----------------------------------------------------------------
# Two load shapes: "saturated" (wrk as fast as it can: Seam and wrk fill both cores) and "paced"
# (each connection waits PACE_MS between requests, a Lua delay(): a fraction of capacity, as
# players' reloads are; what is measured is how long a request waits for a core).
cat >"$tmp/paced.lua" <<LUA
function delay() return $PACE_MS end
LUA
serve_rounds() { # label
  local label="$1"
  session="$(curl -fsS -X POST -H 'content-type: application/json' --data "{\"url\":\"$content_url\"}" "$seam/v1/sessions")"
  id="$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["sessionId"])' "$session")"
  url="$seam/v1/sessions/$id/media/v0.m3u8"
  curl -fsS -o /dev/null "$url"
  for load in saturated paced; do
    local script=()
    [[ "$load" == paced ]] && script=(-s "$tmp/paced.lua")
    for round in $(seq "$ROUNDS"); do
      for kind in idle job; do
        wrk -t"$THREADS" -c"$CONNECTIONS" -d"${WARMUP}s" "${script[@]}" "$url" >/dev/null
        if [[ "$kind" == job ]]; then
          rm -rf "$tmp/conditioned"
          prefetch "$bench_mp4" 0 "$tmp/started.json" >/dev/null
          [[ "$(job_status "$tmp/started.json")" == running ]] || { log "the job did not start: $(cat "$tmp/started.json")"; exit 1; }
          job_started="$(date +%s.%N)"
        fi
        log "$label, $load, round $round: $kind (${DURATION}s)"
        out="$results/wrk-$label-$load-$kind-$round"
        wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --latency "${script[@]}" "$url" >"$out.txt"
        python3 "$helpers/wrk_parse.py" <"$out.txt" >"$out.json"
        if [[ "$kind" == job ]]; then
          # The job must have run through the whole window: still running when wrk ended.
          prefetch "$bench_mp4" 0 "$tmp/after.json" >/dev/null
          still="$(job_status "$tmp/after.json")"
          prefetch "$bench_mp4" 120 "$tmp/done.json" >/dev/null
          job_ended="$(date +%s.%N)"
          printf '{"running_when_wrk_ended": %s, "job_seconds": %s}\n' "$([[ "$still" == running ]] && echo true || echo false)" \
            "$(python3 -c "print(round($job_ended - $job_started, 1))")" >"$results/job-$label-$load-$round.json"
        fi
      done
    done
  done
}
serve_rounds default
for setup in "idleall 10 true $cores" "nice0 0 false $cores"; do
  read -r label niceness idle threads <<<"$setup"
  stop "$seam_pid"; seam_pid=""
  rm -rf "$tmp/conditioned"
  start_seam "$label" "$niceness" "$idle" "$threads"
  serve_rounds "$label"
done
stop "$seam_pid"; seam_pid=""

# --- report --------------------------------------------------------------------------------------
python3 - "$results" "$renditions" "$bench_mp4_bytes" "$command_line" <<'EOF'
import glob, json, os, re, statistics, subprocess, sys
results, renditions, bench_bytes, command = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
print(f"command: {command}")
cpu = open("/proc/cpuinfo").read()
model = re.search(r"^model name\s*:\s*(.*)$", cpu, re.M)
print(f"machine: {os.cpu_count()} cores, {model.group(1) if model else '?'}; "
      f"{subprocess.run(['ffmpeg', '-version'], capture_output=True, text=True).stdout.split(chr(10))[0]}")
master = open(os.path.join(results, "conditioned-master.m3u8")).read()
ladder = re.findall(r"RESOLUTION=(\d+x\d+)", master)
print(f"ladder: {renditions} content variants ({', '.join(ladder)}), conditioned one ffmpeg run per rendition, one job at a time")
print()
print("| creative | ad seconds | jobs | job seconds (median, min-max) | seconds per ad second per rendition |")
print("|---|---|---|---|---|")
for name, label, seconds in (("demo", "demo MP4, 1280x720 30 fps, flat card", 15.0), ("bench", f"testsrc2 + noise, 1920x1080 30 fps, {bench_bytes / 1e6:.1f} MB", 30.0)):
    times = [float(line) for line in open(os.path.join(results, f"job-{name}.txt"))]
    median = statistics.median(times)
    print(f"| {label} | {seconds:.0f} | {len(times)} | {median:.2f} ({min(times):.2f}-{max(times):.2f}) | {median / seconds / renditions:.3f} |")
print()
cores = os.cpu_count()
labels = {"default": f"the default: SCHED_IDLE + nice 10, {max(1, cores // 2)} thread(s)",
          "idleall": f"SCHED_IDLE + nice 10, {cores} threads", "nice0": f"nice 0, {cores} threads"}
for load, what in (("saturated", "saturated (wrk as fast as it goes)"), ("paced", "paced (each connection waits between requests)")):
    print()
    print(f"Load: {what}")
    print()
    print("| jobs at | rounds | no job: req/s, p50, p99 (ms) | job running: req/s, p50, p99 (ms) | req/s ratio | p50 ratio | p99 ratio | job ran the whole window | job seconds |")
    print("|---|---|---|---|---|---|---|---|---|")
    for label in ("default", "idleall", "nice0"):
        def measured(kind):
            runs = [json.load(open(p)) for p in sorted(glob.glob(os.path.join(results, f"wrk-{label}-{load}-{kind}-*.json")))]
            return (statistics.mean(r["requests_per_s"] for r in runs), statistics.mean(r["p50_ms"] for r in runs),
                    statistics.mean(r["p99_ms"] for r in runs), len(runs))
        idle, job = measured("idle"), measured("job")
        jobs = [json.load(open(p)) for p in sorted(glob.glob(os.path.join(results, f"job-{label}-{load}-*.json")))]
        whole = all(j["running_when_wrk_ended"] for j in jobs)
        print(f"| {labels[label]} | {idle[3]} + {job[3]} | {idle[0]:.0f}, {idle[1]:.2f}, {idle[2]:.2f} | {job[0]:.0f}, {job[1]:.2f}, {job[2]:.2f} | "
              f"{job[0] / idle[0]:.3f} | {job[1] / idle[1]:.3f} | {job[2] / idle[2]:.3f} | {'yes' if whole else 'NO'} | "
              f"{', '.join(str(j['job_seconds']) for j in jobs)} |")
EOF
