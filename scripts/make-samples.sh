#!/usr/bin/env bash
# Regenerates Samples/media: the demo's content title, ad creatives and slate as HLS (MPEG-TS).
#
#   scripts/make-samples.sh
#
# Everything comes from ffmpeg's lavfi sources (no downloaded media). The output is rebuilt from
# scratch every run (Samples/media is deleted first) and is byte-for-byte reproducible with the same
# ffmpeg/x264 build (single-threaded encode, fixed sources).
#
# Layout (every asset uses the same ladder, codecs and audio layout, so an ad rendition matches the
# content rendition of the same name exactly):
#   Samples/media/<asset>/master.m3u8                multivariant playlist (written by this script)
#   Samples/media/<asset>/<rendition>/index.m3u8     VOD media playlist (ffmpeg hls muxer)
#   Samples/media/<asset>/<rendition>/seg_NNN.ts     segments, each starting with an IDR frame
#
#   asset          duration  segments       look / sound
#   content        60 s      10 x 6 s       SMPTE bars, "CONTENT", 440 Hz tone + 880 Hz beep every second
#   ads/ad1        10 s       2 x 5 s       red,    "AD 1", 660 Hz
#   ads/ad2        15 s       3 x 5 s       blue,   "AD 2", 880 Hz
#   ads/ad3        20 s       4 x 5 s       green,  "AD 3", 550 Hz
#   ads/ad4         6 s       2 x 3 s       purple, "AD 4", 990 Hz
#   slate          10 s      10 x 1 s       dark grey, "We'll be right back", silence
#   bumper          2 s       2 x 1 s       the slate's first two segments, playlists only (ads.bumpers.*),
#                                           and an MPD of them in bumper/dash/
#   ads/nohls      15 s      one MP4        orange, "AD MP4", 770 Hz (1280x720 30 fps, 44.1 kHz mono)
#
# The content, ads/ad1-ad4 and the slate are also MPEG-DASH (docs/dash.md), in <asset>/dash/:
#   manifest.mpd                                     static MPD: one video adaptation set (the three
#                                                    rungs, SegmentTimeline) and one audio set
#   init-v<N>.m4s, v<N>-NNN.m4s                      video: the HLS rungs' frames remuxed, no re-encode
#   init-a.m4s, a-NNN.m4s                            audio: AAC from the asset's tone, cut on its own
# Audio is packaged apart from video: ffmpeg's DASH muxer cuts every stream when the video does,
# which ends each audio segment some 70 ms early; alone, with fixed-length segments, it cuts at
# the first frame after each boundary (within 21 ms), as packagers do. Seam splits the content's
# period at a boundary common to video and audio (within 50 ms).
#
#   scripts/make-samples.sh --dash-only   adds the DASH copies to the existing Samples/media
#
# Environment overrides: FFMPEG, FFPROBE, SEAM_FONT (a .ttf for the labels; labels are skipped if the
# font file does not exist).
set -euo pipefail

FFMPEG=${FFMPEG:-ffmpeg}
FFPROBE=${FFPROBE:-ffprobe}
FONT=${SEAM_FONT:-/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf}

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DEST="$ROOT/Samples/media"

FPS=25
AUDIO_RATE=48000
AUDIO_KBPS=24          # AAC-LC stereo; the sources are pure tones, 24 kbit/s is plenty

# Ladder: name width height video-maxrate(kbit/s) level(x10)
# Levels are pinned so the CODECS string is the same for every asset (3.0 -> 1e, 3.1 -> 1f).
LADDER=(
  "360p 640 360 400 30"
  "540p 960 540 800 31"
  "720p 1280 720 1500 31"
)
# Quality target; the maxrate/bufsize cap only bounds the peak. The sources barely move, so the
# actual bitrates are far below the caps (keeps the repository small).
CRF=30

for tool in "$FFMPEG" "$FFPROBE"; do
  command -v "$tool" >/dev/null || { echo "error: $tool not found" >&2; exit 1; }
done

if [[ -r "$FONT" ]]; then
  HAVE_FONT=1
else
  HAVE_FONT=0
  echo "warning: font $FONT not found; generating media without text labels" >&2
fi

DASH_ONLY=0
[[ ${1:-} == --dash-only ]] && DASH_ONLY=1

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
OUT="$WORK/media"
mkdir -p "$OUT"
(( DASH_ONLY == 0 )) || OUT="$DEST"

# drawtext filters for a big centred label and a smaller info line below it (empty if no font).
# $1 label text, $2 info text (may use drawtext expansions such as %{eif:t:d}), $3 height, $4 label size
# divisor, $5 a unique name for the text files
labels() {
  local label=$1 info=$2 h=$3 div=$4
  [[ $HAVE_FONT == 1 ]] || { echo ""; return; }
  local n=$5
  printf '%s' "$label" > "$WORK/label.$n.txt"
  printf '%s' "$info" > "$WORK/info.$n.txt"
  local big=$((h / div)) small=$((h / 12)) bw=$((h / 120 + 1))
  echo ",drawtext=fontfile=$FONT:textfile=$WORK/label.$n.txt:fontsize=$big:fontcolor=white:borderw=$((bw + 2)):bordercolor=black:x=(w-tw)/2:y=h/2-th-h/40"\
",drawtext=fontfile=$FONT:textfile=$WORK/info.$n.txt:fontsize=$small:fontcolor=white:borderw=$bw:bordercolor=black:x=(w-tw)/2:y=h/2+h/20"
}

# make_asset <dir> <duration s> <segment s> <video source filter (no size/rate/duration)> <audio source> <label> <info suffix> <label size divisor>
# <audio source> is a lavfi audio source with its own duration; it is made stereo by the encoder.
make_asset() {
  local dir=$1 dur=$2 seg=$3 vsrc=$4 asrc=$5 label=$6 info=$7 div=$8
  local gop=$((seg * FPS))
  (( dur % seg == 0 )) || { echo "error: $dir: duration $dur is not a multiple of $seg" >&2; exit 1; }
  local rung name w h vmax level
  for rung in "${LADDER[@]}"; do
    read -r name w h vmax level <<<"$rung"
    local rdir="$OUT/$dir/$name"
    mkdir -p "$rdir"
    local vf sep="="
    [[ $vsrc == *=* ]] && sep=":"
    vf="$vsrc${sep}size=${w}x${h}:rate=$FPS:duration=$dur,format=yuv420p$(labels "$label" "$name  $info" "$h" "$div" "${dir//\//_}_$name")"
    echo "encoding $dir/$name (${dur}s, ${seg}s segments)"
    (
      cd "$rdir"
      "$FFMPEG" -nostdin -hide_banner -v error -y \
        -f lavfi -i "$vf" \
        -f lavfi -i "$asrc" \
        -map 0:v:0 -map 1:a:0 -t "$dur" -map_metadata -1 -threads 1 -filter_threads 1 \
        -c:v libx264 -profile:v main -level:v "$(awk -v l="$level" 'BEGIN{printf "%.1f", l/10}')" \
        -pix_fmt yuv420p -preset veryfast -crf "$CRF" -maxrate "${vmax}k" -bufsize "${vmax}k" \
        -g "$gop" -keyint_min "$gop" -sc_threshold 0 -x264-params open-gop=0 \
        -c:a aac -b:a "${AUDIO_KBPS}k" -ar "$AUDIO_RATE" -ac 2 \
        -f hls -hls_time "$seg" -hls_playlist_type vod -hls_list_size 0 \
        -hls_segment_type mpegts \
        -hls_segment_filename 'seg_%03d.ts' index.m3u8
    )
  done
  write_master "$dir"
}

# RFC 6381 codec string from the first SPS of a segment: avc1.PPCCLL (profile_idc, constraint flags, level_idc).
avc_codec() {
  local sps
  sps=$("$FFMPEG" -nostdin -v error -i "$1" -map 0:v:0 -c copy -frames:v 1 -f h264 - \
        | od -An -v -tx1 | tr -s ' \n' ' ' | grep -o '00 00 01 [246]7 .. .. ..' | sed -n 1p || true)
  [[ -n $sps ]] || { echo "error: no SPS found in $1" >&2; exit 1; }
  read -r _ _ _ _ p c l <<<"$sps"
  echo "avc1.$p$c$l"
}

aac_codec() {
  local profile
  profile=$("$FFPROBE" -v error -select_streams a:0 -show_entries stream=profile -of default=nw=1:nk=1 "$1" | sed -n 1p)
  case $profile in
    LC) echo "mp4a.40.2" ;;
    HE-AAC) echo "mp4a.40.5" ;;
    *) echo "error: unexpected AAC profile '$profile' in $1" >&2; exit 1 ;;
  esac
}

# Writes <asset>/master.m3u8. BANDWIDTH is the ladder's nominal peak (video maxrate + audio + 10% for
# MPEG-TS overhead), identical for every asset so an ad rendition's BANDWIDTH never exceeds the
# content variant's of the same name; the measured per-segment peak is checked against it.
# AVERAGE-BANDWIDTH is measured (all segment bytes / playlist duration).
write_master() {
  local dir=$1 master="$OUT/$1/master.m3u8"
  {
    echo "#EXTM3U"
    echo "#EXT-X-VERSION:3"
    echo "#EXT-X-INDEPENDENT-SEGMENTS"
  } > "$master"
  local rung name w h vmax level
  for rung in "${LADDER[@]}"; do
    read -r name w h vmax level <<<"$rung"
    local rdir="$OUT/$dir/$name"
    local bw=$(( (vmax + AUDIO_KBPS) * 1100 ))
    local stats peak avg
    stats=$(cd "$rdir" && awk '
      /^#EXTINF:/ { sub(/^#EXTINF:/, ""); sub(/,.*/, ""); d = $0 + 0; next }
      /^[^#]/ && NF { cmd = "wc -c < \"" $0 "\""; cmd | getline bytes; close(cmd);
                      total += bytes; dur += d; r = bytes * 8 / d; if (r > peak) peak = r }
      END { printf "%d %d\n", peak + 0.999, total * 8 / dur + 0.999 }' index.m3u8)
    read -r peak avg <<<"$stats"
    if (( peak > bw )); then
      echo "error: $dir/$name measured peak $peak bit/s exceeds declared BANDWIDTH $bw" >&2
      exit 1
    fi
    echo "  $dir/$name: measured peak $peak bit/s, average $avg bit/s (declared BANDWIDTH $bw)"
    local vcodec acodec
    vcodec=$(avc_codec "$rdir/seg_000.ts")
    acodec=$(aac_codec "$rdir/seg_000.ts")
    printf '#EXT-X-STREAM-INF:BANDWIDTH=%d,AVERAGE-BANDWIDTH=%d,CODECS="%s",RESOLUTION=%dx%d,FRAME-RATE=%.3f\n%s/index.m3u8\n' \
      "$bw" "$avg" "$vcodec,$acodec" "$w" "$h" "$FPS" "$name" >> "$master"
  done
}

# The info line shows the rendition and the whole seconds elapsed in the asset (a per-frame clock
# would triple the bitrate of these otherwise static pictures).
CLOCK='%{eif:t/60:d:2}:%{eif:mod(t,60):d:2}'

# make_dash <dir> <segment s> <audio source>: <dir>/dash/ from <dir>'s HLS rungs (see the header).
make_dash() {
  local dir=$1 seg=$2 asrc=$3 out="$OUT/$1/dash"
  rm -rf "$out"; mkdir -p "$out"
  echo "packaging $dir as DASH"
  (
    cd "$out"
    local inputs=() maps=() rung name
    for rung in "${LADDER[@]}"; do
      read -r name _ <<<"$rung"
      inputs+=(-i "../$name/index.m3u8"); maps+=(-map "$(( ${#maps[@]} / 2 )):v:0")
    done
    "$FFMPEG" -nostdin -hide_banner -v error -y "${inputs[@]}" "${maps[@]}" -c:v copy -tag:v avc1 \
      -map_metadata -1 -f dash -seg_duration "$seg" -use_template 1 -use_timeline 1 \
      -adaptation_sets "id=0,streams=v" -init_seg_name 'init-v$RepresentationID$.m4s' \
      -media_seg_name 'v$RepresentationID$-$Number%03d$.m4s' video.mpd
    "$FFMPEG" -nostdin -hide_banner -v error -y -f lavfi -i "$asrc" -threads 1 \
      -c:a aac -b:a "${AUDIO_KBPS}k" -ar "$AUDIO_RATE" -ac 2 -map_metadata -1 \
      -f dash -seg_duration "$seg" -use_template 1 -use_timeline 0 -adaptation_sets "id=0,streams=a" \
      -init_seg_name 'init-a.m4s' -media_seg_name 'a-$Number%03d$.m4s' audio.mpd
    # One MPD: the video's, with the audio's adaptation set (renamed a) before its period ends.
    awk 'NR == FNR { if ($0 ~ /<AdaptationSet/) keep = 1
                     if (keep) { sub(/<AdaptationSet id="0"/, "<AdaptationSet id=\"1\"")
                                 sub(/<Representation id="0"/, "<Representation id=\"a\""); set = set $0 "\n" }
                     if ($0 ~ /<\/AdaptationSet>/) keep = 0
                     next }
         /<\/Period>/ { printf "%s", set }
         { print }' audio.mpd video.mpd > manifest.mpd
    rm video.mpd audio.mpd
    # Bandwidths as the HLS master declares them (the ladder's nominal peaks, the same for every
    # asset), not ffmpeg's measured averages of these still pictures: what a player and Seam's
    # conditioning ladder read is the rung's budget, as for HLS.
    local index=0
    for rung in "${LADDER[@]}"; do
      read -r _ _ _ vmax _ <<<"$rung"
      sed -i -E "s/(<Representation id=\"$index\"[^>]* bandwidth=\")[0-9]+/\\1$((vmax * 1100))/" manifest.mpd
      index=$((index + 1))
    done
    sed -i -E "s/(<Representation id=\"a\"[^>]* bandwidth=\")[0-9]+/\\1$((AUDIO_KBPS * 1100))/" manifest.mpd
  )
}

if (( DASH_ONLY == 0 )); then
make_asset content 60 6 smptebars \
  "sine=frequency=440:beep_factor=2:sample_rate=$AUDIO_RATE:duration=60" "CONTENT" "$CLOCK" 5

make_asset ads/ad1 10 5 "color=c=0xB22222" "sine=frequency=660:sample_rate=$AUDIO_RATE:duration=10" "AD 1" "$CLOCK / 00:10" 4
make_asset ads/ad2 15 5 "color=c=0x1F4E9E" "sine=frequency=880:sample_rate=$AUDIO_RATE:duration=15" "AD 2" "$CLOCK / 00:15" 4
make_asset ads/ad3 20 5 "color=c=0x1E7B34" "sine=frequency=550:sample_rate=$AUDIO_RATE:duration=20" "AD 3" "$CLOCK / 00:20" 4
make_asset ads/ad4 6 3 "color=c=0x7A2E8E" "sine=frequency=990:sample_rate=$AUDIO_RATE:duration=6" "AD 4" "$CLOCK / 00:06" 4
fi

make_dash content 6 "sine=frequency=440:beep_factor=2:sample_rate=$AUDIO_RATE:duration=60"
make_dash ads/ad1 5 "sine=frequency=660:sample_rate=$AUDIO_RATE:duration=10"
make_dash ads/ad2 5 "sine=frequency=880:sample_rate=$AUDIO_RATE:duration=15"
make_dash ads/ad3 5 "sine=frequency=550:sample_rate=$AUDIO_RATE:duration=20"
make_dash ads/ad4 3 "sine=frequency=990:sample_rate=$AUDIO_RATE:duration=6"
make_dash slate 1 "aevalsrc=exprs=0|0:sample_rate=$AUDIO_RATE:duration=10"
# The bumper as DASH (ads.bumpers.dashStartURL / dashEndURL): the slate's MPD cut to its first
# two seconds, its segments read from the slate's folder.
make_dash_bumper() {
  mkdir -p "$OUT/bumper/dash"
  sed -e 's|mediaPresentationDuration="PT10.0S"|mediaPresentationDuration="PT2.0S"|' \
      -e 's|<S t="0" d="12800" r="9" />|<S t="0" d="12800" r="1" />|' \
      -e 's|<Period id="0" start="PT0.0S">|<Period id="0" start="PT0.0S">\n\t\t<BaseURL>../../slate/dash/</BaseURL>|' \
      "$OUT/slate/dash/manifest.mpd" > "$OUT/bumper/dash/manifest.mpd"
  grep -q '<S t="0" d="12800" r="1" />' "$OUT/bumper/dash/manifest.mpd" && grep -q 'PT2.0S' "$OUT/bumper/dash/manifest.mpd" \
    || { echo "the slate's MPD changed form: update make_dash_bumper" >&2; exit 1; }
}
make_dash_bumper
if (( DASH_ONLY == 1 )); then du -sh "$DEST"/content/dash "$DEST"/ads/*/dash; exit 0; fi

make_asset slate 10 1 "color=c=0x202020" "aevalsrc=exprs=0|0:sample_rate=$AUDIO_RATE:duration=10" \
  "We'll be right back" "SLATE  $CLOCK" 10

# The MP4-only creative of Samples/vast/vast-no-hls.xml (conditioned by Seam when
# conditioning.directory is set, docs/conditioning.md): deliberately unlike the ladder, as ad
# servers' files are — 1280x720 at 30 fps, 44.1 kHz mono — so conditioning has to change each.
make_mp4() { # output
  local label=()
  [[ "$HAVE_FONT" == 1 ]] && label=(-vf "drawtext=fontfile=$FONT:text='AD MP4':fontsize=120:fontcolor=white:x=(w-tw)/2:y=(h-th)/2,drawtext=fontfile=$FONT:text='%{pts\\:hms}':fontsize=60:fontcolor=white:x=(w-tw)/2:y=h-120")
  "$FFMPEG" -nostdin -hide_banner -loglevel error -y \
    -f lavfi -i "color=c=0xC05000:size=1280x720:rate=30:duration=15" -f lavfi -i "sine=frequency=770:sample_rate=44100:duration=15" \
    "${label[@]}" -c:v libx264 -threads 1 -preset veryfast -crf 30 -pix_fmt yuv420p -g 60 \
    -c:a aac -ac 1 -b:a 32k -movflags +faststart "$1"
}
mkdir -p "$OUT/ads/nohls"
make_mp4 "$OUT/ads/nohls/nohls-720p.mp4"

# The bumper (ads.bumpers.startURL / endURL in tests): the slate's first
# two seconds under playlists of its own, no media of its own.
mkdir -p "$OUT/bumper"
cp "$OUT/slate/master.m3u8" "$OUT/bumper/master.m3u8"
for rung in "${LADDER[@]}"; do
  read -r name _ <<<"$rung"
  mkdir -p "$OUT/bumper/$name"
  {
    printf '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:VOD\n'
    for i in 0 1; do printf '#EXTINF:1.000000,\n../../slate/%s/seg_00%d.ts\n' "$name" "$i"; done
    printf '#EXT-X-ENDLIST\n'
  } > "$OUT/bumper/$name/index.m3u8"
done

rm -rf "$DEST"
mkdir -p "$(dirname "$DEST")"
mv "$OUT" "$DEST"

echo
echo "== verification (first segment of each rendition) =="
for master in "$DEST"/content/master.m3u8 "$DEST"/ads/*/master.m3u8 "$DEST"/slate/master.m3u8; do
  asset=${master#"$DEST"/}; asset=${asset%/master.m3u8}
  dur=$("$FFPROBE" -v error -show_entries format=duration -of default=nw=1:nk=1 "$master")
  echo "$asset  master duration ${dur}s"
  for rung in "${LADDER[@]}"; do
    read -r name _ <<<"$rung"
    seg="$DEST/$asset/$name/seg_000.ts"
    v=$("$FFPROBE" -v error -select_streams v:0 -show_entries stream=codec_name,profile,level,width,height,pix_fmt,r_frame_rate -of csv=p=0 "$seg" | sed -n 1p)
    a=$("$FFPROBE" -v error -select_streams a:0 -show_entries stream=codec_name,profile,sample_rate,channels -of csv=p=0 "$seg" | sed -n 1p)
    c=$(grep -A1 -F "RESOLUTION" "$master" | grep -B1 -x "$name/index.m3u8" | sed -n 's/.*CODECS="\([^"]*\)".*/\1/p')
    printf '  %-8s %-28s video[%s] audio[%s]\n' "$name" "$c" "$v" "$a"
  done
done
echo
du -sh "$DEST"
