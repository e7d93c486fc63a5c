#!/usr/bin/env bash
# Runs one of Seam's libFuzzer targets: scripts/fuzz.sh TARGET SECONDS
#   TARGET: hls | vast | scte35 | stitching | dash | all (each in turn, SECONDS each)
#
# Builds Fuzz/ (the libFuzzer executables around Sources/SeamFuzzing) with
# -sanitize=fuzzer,address, seeds a working corpus (Fuzz/corpus-work/TARGET, kept between runs)
# from Tests/SeamFuzzingTests/Corpus/TARGET and the test resources, and fuzzes for SECONDS.
# A crash stops the run with a non-zero exit and leaves the input in Fuzz/artifacts/TARGET/;
# copy it to Tests/SeamFuzzingTests/Corpus/TARGET/regress-<what>.<ext> with the fix, so
# `swift test` replays it from then on (FuzzCorpusReplayTests).
# FUZZ_JOBS=N runs N workers in parallel (default 1); FUZZ_NICE=N lowers their priority.
# FUZZ_QUICK=1 builds without the optimizer (-Onone, no debug info): about a third of the build
# time and of the executions per second, for CI's 10-second smoke runs; long runs leave it unset.
set -euo pipefail
cd "$(dirname "$0")/.."

target="${1:-}"
seconds="${2:-60}"
targets=(hls vast scte35 stitching dash)
if [ "$target" = "all" ]; then
  for t in "${targets[@]}"; do "$0" "$t" "$seconds"; done
  exit 0
fi
case "$target" in
  hls) product=FuzzHLS; dict=hls.dict ;;
  vast) product=FuzzVAST; dict=vast.dict ;;
  scte35) product=FuzzSCTE35; dict="" ;;
  stitching) product=FuzzStitching; dict=hls.dict ;;
  dash) product=FuzzDASH; dict=dash.dict ;;
  *) echo "usage: scripts/fuzz.sh hls|vast|scte35|stitching|dash|all SECONDS" >&2; exit 2 ;;
esac
case "$seconds" in ''|*[!0-9]*) echo "SECONDS must be a whole number, got '$seconds'" >&2; exit 2 ;; esac

# lld: gold fails on the aliased main with debug info (an internal error in its error report).
flags=(-c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -use-ld=lld)
if [ "${FUZZ_QUICK:-0}" = "1" ]; then
  # A scratch path of its own, so a quick build never replaces an optimized one kept for long runs.
  flags+=(-Xswiftc -Onone --scratch-path .build-quick)
else
  flags+=(-Xswiftc -g)
fi
echo "== building $product (libFuzzer + AddressSanitizer)"
if ! (cd Fuzz && swift build "${flags[@]}" --product "$product" > .build-"$product".log 2>&1); then
  grep -E 'error' "Fuzz/.build-$product.log" >&2 || tail -20 "Fuzz/.build-$product.log" >&2
  echo "build of $product failed (Fuzz/.build-$product.log)" >&2
  exit 1
fi
binary="$(cd Fuzz && swift build "${flags[@]}" --show-bin-path)/$product"
[ -x "$binary" ] || { echo "build failed: $binary is missing" >&2; exit 1; }

work="Fuzz/corpus-work/$target"
artifacts="Fuzz/artifacts/$target/"
mkdir -p "$work" "$artifacts"
seeds="Tests/SeamFuzzingTests/Corpus/$target"
options=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 -detect_leaks=0
         -print_final_stats=1 -artifact_prefix="$artifacts")
[ -n "$dict" ] && options+=(-dict="Fuzz/dictionaries/$dict")
if [ "${FUZZ_JOBS:-1}" -gt 1 ]; then options+=(-jobs="$FUZZ_JOBS" -workers="$FUZZ_JOBS"); fi

extra=()
case "$target" in
  hls) extra=(Tests/HLSTests/Resources Tests/SeamCLITests/Resources) ;;
  vast) extra=(Tests/VASTTests/Resources) ;;
  dash) extra=(Tests/DASHTests/Resources Tests/StitchingTests/Resources/dash) ;;
esac
# libFuzzer reads seed folders flat: gather the test resources' files into one.
seedall="Fuzz/corpus-work/.seeds-$target"
rm -rf "$seedall"; mkdir -p "$seedall"
cp "$seeds"/* "$seedall"/
for dir in "${extra[@]}"; do
  find "$dir" -type f \( -name '*.m3u8' -o -name '*.xml' -o -name '*.mpd' \) -size -64k | while read -r f; do
    cp "$f" "$seedall/$(echo "$f" | tr '/' '_')"
  done
done

echo "== fuzzing $target for ${seconds}s (corpus $work, seeds $seedall)"
# Swift's own crash handler would run inside AddressSanitizer and be reported instead of the trap.
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=1}"
nice -n "${FUZZ_NICE:-0}" "$binary" "${options[@]}" "$work" "$seedall"
