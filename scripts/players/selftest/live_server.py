#!/usr/bin/env python3
"""Simulated live HLS origin for testing the player checks.

Takes a VOD media playlist (e.g. the stitched content+ad one made by make_media.sh) and
serves it as a live stream: a sliding window of --window segments that advances with wall
time, no #EXT-X-ENDLIST, looping over the VOD segments forever. #EXT-X-DISCONTINUITY tags of
the source are kept, one is added at every loop wrap (timestamps restart), and
#EXT-X-DISCONTINUITY-SEQUENCE is maintained as tags slide out of the window.

  live_server.py --playlist DIR/stitched.m3u8 [--port 0] [--window 4] [--freeze-after S]

Serves /live.m3u8 and /live/<sequence>.ts on 127.0.0.1 and prints "URL http://..." on the
first stdout line. --freeze-after S stops the window from advancing after S seconds
(a stuck origin, for negative tests). --missing-seq N answers 404 for segment sequence N.
"""

import argparse
import http.server
import os
import sys
import time


def parse_vod(path):
    entries, disc, dur = [], False, None
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("#EXTINF:"):
                dur = float(line[8:].split(",")[0])
            elif line == "#EXT-X-DISCONTINUITY":
                disc = True
            elif line and not line.startswith("#"):
                entries.append({"uri": line, "duration": dur, "disc": disc})
                disc, dur = False, None
    if not entries:
        raise SystemExit("no segments in %s" % path)
    return entries


class Live:
    def __init__(self, entries, window, base_dir, freeze_after, missing):
        self.entries, self.window, self.base_dir = entries, window, base_dir
        self.n = len(entries)
        self.started = time.monotonic()
        # Pretend the stream started `window` segments ago so a player can start at once.
        self.t0 = self.started - sum(e["duration"] for e in entries[:window])
        self.freeze_after = freeze_after
        self.missing = set(missing or [])

    def entry(self, seq):
        return self.entries[seq % self.n]

    def is_disc(self, seq):
        return seq > 0 and (self.entry(seq)["disc"] or seq % self.n == 0)

    def available(self):
        """Number of segments fully 'produced' by now."""
        now = time.monotonic()
        if self.freeze_after is not None:
            now = min(now, self.started + self.freeze_after)
        elapsed, seq = now - self.t0, 0
        while elapsed >= self.entry(seq)["duration"]:
            elapsed -= self.entry(seq)["duration"]
            seq += 1
        return seq

    def playlist(self):
        avail = self.available()
        first = max(0, avail - self.window)
        disc_seq = sum(1 for s in range(1, first + 1) if self.is_disc(s))
        target = int(max(e["duration"] for e in self.entries) + 0.999)
        out = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:%d" % target,
               "#EXT-X-MEDIA-SEQUENCE:%d" % first, "#EXT-X-DISCONTINUITY-SEQUENCE:%d" % disc_seq]
        for seq in range(first, avail):
            if seq != first and self.is_disc(seq):
                out.append("#EXT-X-DISCONTINUITY")
            out.append("#EXTINF:%.6f," % self.entry(seq)["duration"])
            out.append("live/%d.ts" % seq)
        return ("\n".join(out) + "\n").encode()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def _send(self, code, body, ctype):
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Access-Control-Allow-Origin", "*")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def do_GET(self):
        live = self.server.live
        path = self.path.split("?")[0]
        if path == "/live.m3u8":
            return self._send(200, live.playlist(), "application/vnd.apple.mpegurl")
        if path.startswith("/live/") and path.endswith(".ts"):
            try:
                seq = int(path[6:-3])
            except ValueError:
                return self._send(404, b"not found\n", "text/plain")
            if seq < 0 or seq >= live.available() or seq in live.missing:
                return self._send(404, b"not found\n", "text/plain")
            with open(os.path.join(live.base_dir, live.entry(seq)["uri"]), "rb") as f:
                return self._send(200, f.read(), "video/mp2t")
        return self._send(404, b"not found\n", "text/plain")

    do_HEAD = do_GET

    def log_message(self, *args):
        if self.server.verbose:
            sys.stderr.write("live_server: " + (args[0] % args[1:]) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--playlist", required=True, help="source VOD media playlist (segments beside it)")
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--window", type=int, default=4)
    ap.add_argument("--freeze-after", type=float, default=None)
    ap.add_argument("--missing-seq", type=int, action="append")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    entries = parse_vod(args.playlist)
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    srv.daemon_threads = True
    srv.verbose = args.verbose
    srv.live = Live(entries, args.window, os.path.dirname(os.path.abspath(args.playlist)),
                    args.freeze_after, args.missing_seq)
    print("URL http://127.0.0.1:%d/live.m3u8" % srv.server_address[1], flush=True)
    try:
        srv.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
