#!/usr/bin/env python3
"""Demux an HLS URL with ffprobe and report duration, codecs and timestamp discontinuities.

Standard library only; needs `ffprobe` (Debian package ffmpeg) on PATH.

Usage:
  ffprobe_check.py URL [--variant N | --all-variants] [--threshold 1.0]
                       [--expect-discontinuities N] [--expect-duration S --tolerance T]
                       [--live-seconds S] [--timeout S] [--decode] [--strict]

Prints one JSON object on stdout. Exit status:
  0  demuxed fine and every given expectation holds
  1  fatal demux problem (ffprobe failed, no packets, a segment could not be opened or was
     unreadable) or an expectation failed; see "reason"
  2  bad command line
  3  ffprobe/ffmpeg not installed

How discontinuities are counted (see README.md): packets of the primary stream (first video
stream, else first audio) are read in demux order; each packet's DTS is compared with the
previous packet's DTS + duration; a difference of more than --threshold seconds (either
direction), or a DTS that does not increase, is one discontinuity. ffmpeg's hls demuxer does not rewrite timestamps at
#EXT-X-DISCONTINUITY, so each ad-pod boundary whose timestamps do not continue shows up. The
#EXT-X-DISCONTINUITY tags of the media playlist are counted separately (playlist.discontinuity_tags).
"""

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request

# ffmpeg 5.1.x (Debian 12) refuses segment URLs whose extension it does not know unless these
# are relaxed; SSAI proxies often serve segments from extension-less URLs.
HLS_INPUT_OPTS = ["-allowed_extensions", "ALL", "-extension_picky", "0"]


def fetch_text(url, timeout=15):
    req = urllib.request.Request(url, headers={"User-Agent": "seam-ffprobe-check"})
    with urllib.request.urlopen(req, timeout=timeout) as r:
        return r.read().decode("utf-8", "replace"), r.geturl()


def parse_attrs(s):
    out, key, inq, cur = {}, None, False, ""
    for ch in s + ",":
        if ch == '"':
            inq = not inq
        elif ch == "=" and not inq and key is None:
            key, cur = cur.strip(), ""
            continue
        elif ch == "," and not inq:
            if key is not None:
                out[key] = cur.strip().strip('"')
            key, cur = None, ""
            continue
        cur += ch
    return out


def parse_playlist(text, base):
    lines = [l.strip() for l in text.splitlines()]
    info = {"is_master": any(l.startswith("#EXT-X-STREAM-INF") for l in lines)}
    if info["is_master"]:
        variants = []
        for i, l in enumerate(lines):
            if l.startswith("#EXT-X-STREAM-INF:"):
                attrs = parse_attrs(l.split(":", 1)[1])
                uri = next((x for x in lines[i + 1:] if x and not x.startswith("#")), None)
                if uri:
                    variants.append({"url": urllib.parse.urljoin(base, uri),
                                     "bandwidth": int(attrs["BANDWIDTH"]) if attrs.get("BANDWIDTH", "").isdigit() else None,
                                     "resolution": attrs.get("RESOLUTION"), "codecs": attrs.get("CODECS")})
        info["variants"] = variants
        return info
    segs, extinf_sum, tags = 0, 0.0, 0
    for l in lines:
        if l.startswith("#EXTINF:"):
            try:
                extinf_sum += float(l[8:].split(",")[0])
            except ValueError:
                pass
        elif l == "#EXT-X-DISCONTINUITY":
            tags += 1
        elif l and not l.startswith("#"):
            segs += 1
    def tagval(name):
        for l in lines:
            if l.startswith(name + ":"):
                return l.split(":", 1)[1]
        return None
    info.update({
        "segments": segs,
        "extinf_sum": round(extinf_sum, 3),
        "discontinuity_tags": tags,
        "media_sequence": int(tagval("#EXT-X-MEDIA-SEQUENCE") or 0),
        "discontinuity_sequence": int(tagval("#EXT-X-DISCONTINUITY-SEQUENCE") or 0),
        "playlist_type": tagval("#EXT-X-PLAYLIST-TYPE"),
        "endlist": "#EXT-X-ENDLIST" in lines,
    })
    return info


def probe_streams(ffprobe, url, timeout):
    cmd = [ffprobe, "-v", "error"] + HLS_INPUT_OPTS + [
        "-show_entries",
        "format=duration,format_name,bit_rate:stream=index,codec_type,codec_name,profile,width,height,"
        "r_frame_rate,sample_rate,channels:program=program_id",
        "-of", "json", url]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    data = {}
    try:
        data = json.loads(p.stdout or "{}")
    except ValueError:
        pass
    return p.returncode, data, p.stderr.strip().splitlines()


FATAL_PATTERNS = ("Failed to open segment", "HTTP error", "Server returned", "Connection refused",
                  "Invalid data found when processing input", "Failed to reload playlist",
                  "Unable to open", "Error when loading first segment")
NOISE_PATTERNS = ("changing packet size",)


def demux_packets(ffprobe, url, live_seconds, timeout):
    """Stream packets out of ffprobe (compact format, one line each); stop early for live."""
    cmd = [ffprobe, "-loglevel", "repeat+level+warning"] + HLS_INPUT_OPTS + [
        "-show_entries", "packet=stream_index,codec_type,pts_time,dts_time,duration_time,flags,size",
        "-of", "compact=p=0:nk=0", url]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    stderr_lines = []
    t_err = threading.Thread(target=lambda: stderr_lines.extend(proc.stderr.read().splitlines()),
                             daemon=True)
    t_err.start()
    killer_reason = []

    def stop(why):
        if proc.poll() is None:
            killer_reason.append(why)
            try:
                os.killpg(proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass

    timer = threading.Timer(timeout, stop, args=("timeout",))
    timer.daemon = True
    timer.start()
    packets, first_dts = [], {}
    try:
        for line in proc.stdout:
            pk = {}
            for field in line.strip().split("|"):
                k, _, v = field.partition("=")
                pk[k] = v
            if "stream_index" not in pk:
                continue
            pk["stream_index"] = int(pk["stream_index"])
            for k in ("pts_time", "dts_time", "duration_time"):
                try:
                    pk[k] = float(pk.get(k))
                except (TypeError, ValueError):
                    pk[k] = None
            packets.append(pk)
            if live_seconds is not None and pk["dts_time"] is not None:
                si = pk["stream_index"]
                first_dts.setdefault(si, pk["dts_time"])
                # Count media read (robust to discontinuities: sum of positive small steps).
                if len(packets) % 50 == 0 and media_span(packets) >= live_seconds:
                    stop("live-seconds")
                    break
    finally:
        timer.cancel()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait()
        t_err.join(timeout=5)
    return proc.returncode, packets, stderr_lines, (killer_reason[0] if killer_reason else None)


def media_span(packets):
    """Seconds of media read on the first stream, ignoring jumps."""
    if not packets:
        return 0.0
    si = packets[0]["stream_index"]
    total, prev = 0.0, None
    for pk in packets:
        if pk["stream_index"] != si or pk["dts_time"] is None:
            continue
        if prev is not None:
            step = pk["dts_time"] - prev
            if 0 < step < 1.0:
                total += step
        prev = pk["dts_time"]
    return total


def analyse(packets, threshold, monotonic=True):
    """Per-stream timestamp analysis in demux order.

    A discontinuity is a DTS step that differs from the expected continuation (previous DTS +
    packet duration) by more than `threshold` seconds, or any DTS that does not increase (a
    continuous stream's DTS always increases, so even a small backwards overlap at a splice counts).
    """
    by_stream = {}
    for pk in packets:
        by_stream.setdefault(pk["stream_index"], []).append(pk)
    out = {}
    for si, pks in sorted(by_stream.items()):
        pks = [p for p in pks if p["dts_time"] is not None]
        if not pks:
            continue
        deltas = sorted(b["dts_time"] - a["dts_time"] for a, b in zip(pks, pks[1:])
                        if 0 < b["dts_time"] - a["dts_time"] < threshold)
        typical = deltas[len(deltas) // 2] if deltas else 0.0

        def step(p):
            return p["duration_time"] if p["duration_time"] and p["duration_time"] > 0 else typical

        jumps, runs = [], []
        run = {"first_dts": pks[0]["dts_time"], "pts_end": None, "pts_start": None}
        media_time = 0.0

        def close_run(last):
            r = dict(run)
            r["length"] = last["dts_time"] + step(last) - r["first_dts"]
            runs.append(r)
            return r["length"]

        for i, p in enumerate(pks):
            if p["pts_time"] is not None:
                end = p["pts_time"] + step(p)
                run["pts_end"] = end if run["pts_end"] is None else max(run["pts_end"], end)
                run["pts_start"] = p["pts_time"] if run["pts_start"] is None else min(run["pts_start"], p["pts_time"])
            if i + 1 == len(pks):
                break
            nxt = pks[i + 1]
            diff = nxt["dts_time"] - (p["dts_time"] + step(p))
            if abs(diff) > threshold or (monotonic and nxt["dts_time"] <= p["dts_time"]):
                media_time += close_run(p)
                jumps.append({"at": round(media_time, 3), "from_dts": round(p["dts_time"], 3),
                              "to_dts": round(nxt["dts_time"], 3), "jump": round(diff, 3)})
                run = {"first_dts": nxt["dts_time"], "pts_end": None, "pts_start": None}
        close_run(pks[-1])
        out[si] = {
            "codec_type": pks[0].get("codec_type"),
            "packets": len(pks),
            "corrupt_packets": sum(1 for p in pks if "C" in (p.get("flags") or "")),
            "keyframes": sum(1 for p in pks if "K" in (p.get("flags") or "")),
            "first_dts": round(pks[0]["dts_time"], 3),
            "last_dts": round(pks[-1]["dts_time"], 3),
            "demuxed_duration": round(sum(r["length"] for r in runs), 3),
            "discontinuities": len(jumps),
            "jumps": jumps,
            "_runs": runs,
        }
    return out


def boundaries(streams):
    """At each discontinuity, how the audio and video of the run before it end and the next begin.

    audio_end_minus_video_end < 0 means the audio stops before the video at the splice; Chromium's
    native HLS player (MSE 'sequence' mode) then gets a hole in its buffered ranges and stalls.
    """
    v = next((s for s in streams.values() if s["codec_type"] == "video"), None)
    a = next((s for s in streams.values() if s["codec_type"] == "audio"), None)
    if not v or not a or len(v["_runs"]) != len(a["_runs"]):
        return None
    out = []
    for k, jump in enumerate(v["jumps"]):
        vr, ar = v["_runs"][k], a["_runs"][k]
        vn, an = v["_runs"][k + 1], a["_runs"][k + 1]
        item = {"at": jump["at"]}
        if None not in (vr["pts_end"], ar["pts_end"]):
            item["audio_end_minus_video_end"] = round(ar["pts_end"] - vr["pts_end"], 3)
        if None not in (vn["pts_start"], an["pts_start"]):
            item["next_audio_start_minus_video_start"] = round(an["pts_start"] - vn["pts_start"], 3)
        out.append(item)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description="ffprobe-based HLS demux check (JSON on stdout)")
    ap.add_argument("url")
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--variant", type=int, default=0, help="master playlist: variant index to demux (default 0)")
    g.add_argument("--all-variants", action="store_true", help="master playlist: demux every variant")
    ap.add_argument("--threshold", type=float, default=1.0,
                    help="a DTS jump larger than this many seconds counts as a discontinuity (default 1.0)")
    ap.add_argument("--threshold-only", action="store_true",
                    help="count only jumps larger than --threshold (not small non-increasing DTS overlaps)")
    ap.add_argument("--expect-discontinuities", type=int, help="fail unless the count equals N")
    ap.add_argument("--expect-duration", type=float, help="fail unless demuxed duration is within --tolerance")
    ap.add_argument("--tolerance", type=float, default=0.5)
    ap.add_argument("--live-seconds", type=float, default=20.0,
                    help="live playlist (no ENDLIST): stop after this many seconds of media (default 20)")
    ap.add_argument("--timeout", type=float, default=120.0, help="wall-clock limit per ffprobe run (default 120)")
    ap.add_argument("--decode", action="store_true", help="also decode everything with ffmpeg (-f null) and fail on decode errors")
    ap.add_argument("--missing-slack", type=float, default=1.0,
                    help="VOD: fail if the demuxed duration is shorter than the EXTINF sum by more (default 1.0)")
    ap.add_argument("--strict", action="store_true",
                    help="also fail on timestamp jumps without a matching #EXT-X-DISCONTINUITY tag")
    args = ap.parse_args(argv)

    ffprobe, ffmpeg = shutil.which("ffprobe"), shutil.which("ffmpeg")
    if not ffprobe or (args.decode and not ffmpeg):
        print(json.dumps({"ok": False, "reason": "ffprobe/ffmpeg not found on PATH"}))
        return 3

    result = {"ok": False, "reason": "", "url": args.url}
    problems = []
    started = time.monotonic()

    # 1. Playlist(s)
    try:
        text, final_url = fetch_text(args.url)
        top = parse_playlist(text, final_url)
    except Exception as e:  # noqa: BLE001 - any fetch/parse failure is fatal here
        result["reason"] = "cannot fetch playlist: %s" % e
        print(json.dumps(result, indent=2))
        return 1
    if not text.lstrip("\ufeff").startswith("#EXTM3U"):
        result["reason"] = "not an HLS playlist (no #EXTM3U header): %r" % text[:60]
        print(json.dumps(result, indent=2))
        return 1
    if top["is_master"]:
        variants = top["variants"]
        if not variants:
            problems.append("master playlist has no variants")
        chosen = variants if args.all_variants else variants[args.variant:args.variant + 1]
        if not chosen and variants:
            problems.append("no variant %d (playlist has %d)" % (args.variant, len(variants)))
        result["master"] = {"variants": variants}
    else:
        chosen = [{"url": args.url}]

    # 2. Streams / codecs / format duration (for the URL as given)
    try:
        rc, info, err = probe_streams(ffprobe, args.url, args.timeout)
    except subprocess.TimeoutExpired:
        rc, info, err = -1, {}, ["ffprobe timed out"]
    fmt = info.get("format", {})
    result["format_duration"] = float(fmt["duration"]) if fmt.get("duration") not in (None, "N/A") else None
    result["streams"] = info.get("streams", [])
    result["codecs"] = sorted({s.get("codec_name") for s in result["streams"] if s.get("codec_name")})
    if rc != 0:
        problems.append("ffprobe failed (exit %s): %s" % (rc, " | ".join(err[-3:])))

    # 3. Packet-level demux of each chosen media playlist
    analysed = []
    for v in chosen:
        entry = dict(v)
        try:
            mtext, murl = fetch_text(v["url"])
            pl = parse_playlist(mtext, murl)
        except Exception as e:  # noqa: BLE001
            problems.append("cannot fetch media playlist %s: %s" % (v["url"], e))
            analysed.append(entry)
            continue
        entry["playlist"] = pl
        live = not pl.get("endlist") and pl.get("playlist_type") != "VOD"
        entry["live"] = live
        limit = min(args.timeout, 2 * args.live_seconds + 15) if live else args.timeout
        prc, packets, perr, stopped = demux_packets(ffprobe, v["url"], args.live_seconds if live else None,
                                                    limit)
        if stopped == "timeout" and live:
            problems.append("live: only %.1f s of media demuxed in %.0f s (wanted %.0f s): origin stalled?"
                            % (media_span(packets), limit, args.live_seconds))
        elif stopped == "timeout":
            problems.append("ffprobe demux timed out after %.0f s" % limit)
        elif prc != 0 and stopped is None:
            problems.append("ffprobe demux failed (exit %s): %s" % (prc, " | ".join(perr[-3:])))
        streams = analyse(packets, args.threshold, monotonic=not args.threshold_only)
        bnd = boundaries(streams)
        for st in streams.values():
            st.pop("_runs", None)
        primary = next((si for si, s in streams.items() if s["codec_type"] == "video"),
                       next((si for si, s in streams.items() if s["codec_type"] == "audio"), None))
        fatal = [l for l in perr if any(p in l for p in FATAL_PATTERNS)]
        warnings = [l for l in perr if not any(p in l for p in NOISE_PATTERNS)]
        noise = sum(1 for l in perr if any(p in l for p in NOISE_PATTERNS))
        entry.update({
            "primary_stream": primary,
            "discontinuities": streams[primary]["discontinuities"] if primary is not None else None,
            "demuxed_duration": streams[primary]["demuxed_duration"] if primary is not None else None,
            "boundaries": bnd,
            "stream_analysis": {str(k): v2 for k, v2 in streams.items()},
            "segment_errors": fatal,
            "warnings": warnings[:50],
            "resync_warnings": noise,
            "stopped_early": stopped,
        })
        if not packets:
            problems.append("no packets demuxed from %s" % v["url"])
        if fatal:
            problems.append("%d segment/IO error(s) in %s, first: %s" % (len(fatal), v["url"], fatal[0]))
        if noise:
            problems.append("%d MPEG-TS resync warning(s) in %s: unreadable/garbage segment data"
                            % (noise, v["url"]))
        if not live and primary is not None and packets and not fatal \
                and entry["demuxed_duration"] < pl["extinf_sum"] - args.missing_slack:
            problems.append("only %.3f s of media demuxed but the playlist's EXTINF sum is %.3f s"
                            % (entry["demuxed_duration"], pl["extinf_sum"]))
        if args.strict and primary is not None:
            if not live and entry["discontinuities"] > pl["discontinuity_tags"]:
                problems.append("%d timestamp jump(s) but only %d #EXT-X-DISCONTINUITY tag(s)"
                                % (entry["discontinuities"], pl["discontinuity_tags"]))
        analysed.append(entry)

    first = analysed[0] if analysed else {}
    notes = []
    for b in first.get("boundaries") or []:
        if b.get("audio_end_minus_video_end", 0) < -0.02:
            notes.append("audio ends %.0f ms before video at the splice at %.3f s: Chromium's native HLS "
                         "player leaves a hole in its buffered ranges there and may stall"
                         % (-1000 * b["audio_end_minus_video_end"], b["at"]))
    result["notes"] = notes
    result["variants_analysed"] = analysed
    result["discontinuities"] = first.get("discontinuities")
    result["playlist_discontinuity_tags"] = first.get("playlist", {}).get("discontinuity_tags")
    result["demuxed_duration"] = first.get("demuxed_duration")
    result["boundaries"] = first.get("boundaries")
    result["live"] = first.get("live")
    result["total_duration"] = result["format_duration"] if result["format_duration"] is not None \
        else first.get("demuxed_duration")

    if args.expect_discontinuities is not None and first.get("discontinuities") != args.expect_discontinuities:
        problems.append("expected %d discontinuities, found %s" % (args.expect_discontinuities,
                                                                   first.get("discontinuities")))
    if args.expect_duration is not None:
        d = first.get("demuxed_duration")
        if d is None or abs(d - args.expect_duration) > args.tolerance:
            problems.append("demuxed duration %s differs from expected %.3f by more than %.3f"
                            % (d, args.expect_duration, args.tolerance))

    # 4. Optional full decode
    if args.decode and not first.get("live"):
        cmd = [ffmpeg, "-nostdin", "-v", "error"] + HLS_INPUT_OPTS + ["-i", chosen[0]["url"] if chosen else args.url,
                                                                      "-f", "null", "-"]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
            # The null muxer complains about the DTS overlap ffmpeg leaves at a discontinuity;
            # that is not a decode error.
            derr = [l for l in p.stderr.splitlines()
                    if l.strip() and "non monotonically increasing dts to muxer" not in l]
            result["decode"] = {"exit": p.returncode, "errors": derr[:50], "error_count": len(derr)}
            if p.returncode != 0 or derr:
                problems.append("decode reported %d error line(s), first: %s"
                                % (len(derr), derr[0] if derr else "exit %d" % p.returncode))
        except subprocess.TimeoutExpired:
            problems.append("ffmpeg decode timed out")

    result["ok"] = not problems
    result["reason"] = "ok" if not problems else "; ".join(problems)
    result["wall_seconds"] = round(time.monotonic() - started, 3)
    # Keep the headline fields first for humans.
    order = ["ok", "reason", "url", "total_duration", "format_duration", "demuxed_duration", "codecs",
             "discontinuities", "playlist_discontinuity_tags", "boundaries", "notes", "live"]
    out = {k: result[k] for k in order if k in result}
    out.update({k: v for k, v in result.items() if k not in out})
    print(json.dumps(out, indent=2))
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
