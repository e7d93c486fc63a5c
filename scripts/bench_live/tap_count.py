#!/usr/bin/env python3
"""The origin's view of one bench-live.sh run: requests the counting proxy logged.

Usage: tap_count.py TAP_ACCESS_LOG SEAM_RESULT_JSON LINES_BEFORE
The log has one line per request, "<epoch.msec> <status> <method> <uri>" (nginx log_format in
bench-live.sh). Lines before LINES_BEFORE belong to earlier runs. Prints JSON: playlist (.m3u8, .mpd)
and other requests during the measured reload window (the seam JSON's reloadStart..reloadEnd
snapshots) and per second, and in the whole run (session creation included).
"""
import json
import sys


def main() -> None:
    log_path, result_path, skip = sys.argv[1], sys.argv[2], int(sys.argv[3])
    result = json.load(open(result_path))
    start = result["snapshots"]["reloadStart"]["epoch"]
    end = result["snapshots"]["reloadEnd"]["epoch"]
    window = {"playlists": 0, "other": 0, "non_2xx": 0}
    run = {"playlists": 0, "other": 0}
    paths = {}
    with open(log_path) as f:
        for number, line in enumerate(f):
            if number < skip:
                continue
            parts = line.split()
            if len(parts) < 4:
                continue
            t, status, uri = float(parts[0]), parts[1], parts[3]
            kind = "playlists" if uri.split("?")[0].endswith((".m3u8", ".mpd")) else "other"
            run[kind] += 1
            if start <= t <= end:
                window[kind] += 1
                if not status.startswith("2"):
                    window["non_2xx"] += 1
                if kind == "playlists":
                    path = uri.split("?")[0]
                    paths[path] = paths.get(path, 0) + 1
    seconds = end - start
    print(json.dumps({
        "window_s": round(seconds, 3),
        "window": window,
        "playlists_per_s": round(window["playlists"] / seconds, 3) if seconds > 0 else None,
        "playlist_paths": dict(sorted(paths.items(), key=lambda kv: -kv[1])[:20]),
        "whole_run": run,
    }))


if __name__ == "__main__":
    main()
