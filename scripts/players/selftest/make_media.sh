#!/usr/bin/env bash
# Generate small HLS test streams (H.264/AAC MPEG-TS, 4 s segments) with ffmpeg's lavfi sources.
#
# Usage: make_media.sh DIR
#
# DIR/content.m3u8     20 s testsrc2 + 440 Hz, timestamps from ~1.4 s
# DIR/ad.m3u8          20 s testsrc  + 880 Hz, timestamps from ~1001.4 s (a different encode)
# DIR/adb.m3u8          8 s testsrc  + 660 Hz, timestamps from ~6.4 s
# DIR/stitched.m3u8    content + DISCONTINUITY + ad (40 s, one forward jump of ~980 s): a post-roll
# DIR/midroll.m3u8     content 0-12 s + DISCONTINUITY + adb + DISCONTINUITY + content 12-20 s (28 s);
#                      the content segment before the ad ends its audio 75 ms before its video,
#                      which makes Chromium's native HLS player stall (see README.md)
# DIR/broken404.m3u8   stitched, with one ad segment URI that does not exist
# DIR/garbage.m3u8     stitched, with one ad segment replaced by random bytes
set -euo pipefail
dir="${1:?usage: make_media.sh DIR}"
mkdir -p "$dir"
cd "$dir"

enc() { # name source freq seconds ts_offset
  ffmpeg -nostdin -hide_banner -loglevel error -y \
    -f lavfi -i "$2=size=640x360:rate=25" -f lavfi -i "sine=frequency=$3:sample_rate=48000" -t "$4" \
    -c:v libx264 -preset veryfast -g 50 -keyint_min 50 -sc_threshold 0 -pix_fmt yuv420p \
    -c:a aac -b:a 96k -output_ts_offset "$5" \
    -f hls -hls_time 4 -hls_playlist_type vod -hls_segment_filename "$1_%03d.ts" "$1.m3u8"
}
enc content testsrc2 440 20 0
enc ad testsrc 880 20 1000
enc adb testsrc 660 8 5

hdr() { printf '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:VOD\n'; }
seg() { for f in "$@"; do printf '#EXTINF:4.000000,\n%s\n' "$f"; done; }
disc() { echo '#EXT-X-DISCONTINUITY'; }
end() { echo '#EXT-X-ENDLIST'; }

{ hdr; seg content_00{0..4}.ts; disc; seg ad_00{0..4}.ts; end; } > stitched.m3u8
{ hdr; seg content_00{0..2}.ts; disc; seg adb_00{0..1}.ts; disc; seg content_00{3..4}.ts; end; } > midroll.m3u8
sed 's/^ad_002\.ts$/missing_002.ts/' stitched.m3u8 > broken404.m3u8
python3 -c 'import random,sys; r=random.Random(7); sys.stdout.buffer.write(bytes(r.getrandbits(8) for _ in range(300000)))' > garbage.ts
sed 's/^ad_002\.ts$/garbage.ts/' stitched.m3u8 > garbage.m3u8
echo "made HLS test media in $dir"
