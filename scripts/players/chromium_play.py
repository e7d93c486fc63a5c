#!/usr/bin/env python3
"""Play an HLS URL in headless Chromium's native <video> player and check that it really plays.

Standard library only: the DevTools protocol (CDP) is spoken over a minimal
RFC 6455 WebSocket client implemented below.

Usage:
  chromium_play.py URL [--timeout S] [--rate R] [--expect-duration SECONDS --tolerance T]
                       [--live --watch SECONDS [--max-stall S]] [--gap-jump S] [--json]
  (all options: --help)

Chromium 156 plays HLS natively in <video> with no extra flag; --gap-jump emulates the
gap jumping that its native player lacks (see README.md).

Exit status:
  0  playback verified (VOD: `ended` fired, no error, duration as expected;
     live: watched for --watch seconds, currentTime advanced >= 80 %, no long stall)
  1  playback failed; the reason is printed on stderr and in the JSON summary
  2  bad command line (argparse)
  3  the harness could not run (Chromium missing, failed to start, DevTools unreachable)

See README.md in this folder for details.
"""

import argparse
import base64
import hashlib
import http.server
import json
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

EXIT_OK = 0
EXIT_FAIL = 1
EXIT_ENV = 3

WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


# ---------------------------------------------------------------------------
# Minimal RFC 6455 WebSocket client (client side: masked frames, fragmentation,
# 16/64-bit lengths, ping/pong, close).
# ---------------------------------------------------------------------------

class WebSocketError(Exception):
    pass


# hls.js's nudge (its stall handling with --gap-jump): after this many seconds frozen, at most
# this many times.
NUDGE_AFTER = 5.0
NUDGE_MAX = 3


def _xor_mask(data, mask):
    if not data:
        return b""
    n = len(data)
    key = (mask * (n // 4 + 1))[:n]
    return (int.from_bytes(data, "big") ^ int.from_bytes(key, "big")).to_bytes(n, "big")


class WebSocket:
    OP_CONT, OP_TEXT, OP_BINARY, OP_CLOSE, OP_PING, OP_PONG = 0x0, 0x1, 0x2, 0x8, 0x9, 0xA

    def __init__(self, url, timeout=10.0):
        u = urllib.parse.urlsplit(url)
        if u.scheme != "ws":
            raise WebSocketError("only ws:// URLs are supported: %s" % url)
        host, port = u.hostname, u.port or 80
        path = (u.path or "/") + ("?" + u.query if u.query else "")
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = bytearray()
        self.closed = False
        self._frag_op = None
        self._frag = []
        key = base64.b64encode(os.urandom(16)).decode()
        req = ("GET %s HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n" % (path, host, port, key))
        self.sock.sendall(req.encode("ascii"))
        deadline = time.monotonic() + timeout
        while b"\r\n\r\n" not in self.buf:
            if time.monotonic() > deadline or len(self.buf) > 65536:
                raise WebSocketError("WebSocket handshake timed out")
            chunk = self.sock.recv(4096)
            if not chunk:
                raise WebSocketError("connection closed during WebSocket handshake")
            self.buf += chunk
        idx = self.buf.index(b"\r\n\r\n")
        head = bytes(self.buf[:idx]).decode("latin-1")
        del self.buf[:idx + 4]
        lines = head.split("\r\n")
        parts = lines[0].split(" ", 2)
        if len(parts) < 2 or parts[1] != "101":
            raise WebSocketError("WebSocket handshake refused: %r" % lines[0])
        headers = {}
        for line in lines[1:]:
            k, _, v = line.partition(":")
            headers[k.strip().lower()] = v.strip()
        accept = base64.b64encode(hashlib.sha1((key + WS_GUID).encode()).digest()).decode()
        if headers.get("sec-websocket-accept") != accept:
            raise WebSocketError("bad Sec-WebSocket-Accept in handshake")

    def _send_frame(self, opcode, payload):
        header = bytearray([0x80 | opcode])
        n = len(payload)
        if n < 126:
            header.append(0x80 | n)
        elif n < 65536:
            header.append(0x80 | 126)
            header += struct.pack(">H", n)
        else:
            header.append(0x80 | 127)
            header += struct.pack(">Q", n)
        mask = os.urandom(4)
        self.sock.sendall(bytes(header) + mask + _xor_mask(payload, mask))

    def send_text(self, text):
        if self.closed:
            raise WebSocketError("WebSocket is closed")
        self._send_frame(self.OP_TEXT, text.encode("utf-8"))

    def _parse_frame(self):
        """Return (fin, opcode, payload) if a whole frame is buffered, else None."""
        b = self.buf
        if len(b) < 2:
            return None
        fin, op = b[0] & 0x80, b[0] & 0x0F
        masked, n = b[1] & 0x80, b[1] & 0x7F
        i = 2
        if n == 126:
            if len(b) < 4:
                return None
            n = struct.unpack(">H", bytes(b[2:4]))[0]
            i = 4
        elif n == 127:
            if len(b) < 10:
                return None
            n = struct.unpack(">Q", bytes(b[2:10]))[0]
            i = 10
        mask = None
        if masked:
            if len(b) < i + 4:
                return None
            mask = bytes(b[i:i + 4])
            i += 4
        if len(b) < i + n:
            return None
        payload = bytes(b[i:i + n])
        del b[:i + n]
        if mask:
            payload = _xor_mask(payload, mask)
        return bool(fin), op, payload

    def recv(self, timeout):
        """Return the next complete text/binary message (str/bytes), or None on timeout."""
        deadline = time.monotonic() + max(0.0, timeout)
        while True:
            frame = self._parse_frame()
            while frame is not None:
                fin, op, payload = frame
                if op == self.OP_PING:
                    self._send_frame(self.OP_PONG, payload)
                elif op == self.OP_PONG:
                    pass
                elif op == self.OP_CLOSE:
                    try:
                        self._send_frame(self.OP_CLOSE, payload[:2])
                    except OSError:
                        pass
                    self.closed = True
                    raise WebSocketError("WebSocket closed by peer")
                elif op in (self.OP_TEXT, self.OP_BINARY):
                    if fin:
                        return payload.decode("utf-8") if op == self.OP_TEXT else payload
                    self._frag_op, self._frag = op, [payload]
                elif op == self.OP_CONT:
                    if self._frag_op is None:
                        raise WebSocketError("continuation frame without a start frame")
                    self._frag.append(payload)
                    if fin:
                        data = b"".join(self._frag)
                        op0, self._frag_op, self._frag = self._frag_op, None, []
                        return data.decode("utf-8") if op0 == self.OP_TEXT else data
                else:
                    raise WebSocketError("unknown WebSocket opcode %d" % op)
                frame = self._parse_frame()
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            self.sock.settimeout(remaining)
            try:
                chunk = self.sock.recv(1 << 20)
            except socket.timeout:
                return None
            if not chunk:
                self.closed = True
                raise WebSocketError("WebSocket connection closed")
            self.buf += chunk

    def close(self):
        if not self.closed:
            try:
                self._send_frame(self.OP_CLOSE, struct.pack(">H", 1000))
            except OSError:
                pass
            self.closed = True
        try:
            self.sock.close()
        except OSError:
            pass


# ---------------------------------------------------------------------------
# DevTools protocol on top of the WebSocket
# ---------------------------------------------------------------------------

class CDPError(Exception):
    pass


class CDP:
    def __init__(self, ws):
        self.ws = ws
        self.next_id = 0
        self.pending_events = []

    def call(self, method, params=None, session=None, timeout=15.0):
        self.next_id += 1
        mid = self.next_id
        msg = {"id": mid, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        self.ws.send_text(json.dumps(msg))
        deadline = time.monotonic() + timeout
        while True:
            raw = self.ws.recv(deadline - time.monotonic())
            if raw is None:
                raise CDPError("timed out waiting for %s" % method)
            m = json.loads(raw)
            if m.get("id") == mid:
                if "error" in m:
                    raise CDPError("%s failed: %s" % (method, m["error"].get("message")))
                return m.get("result", {})
            if "method" in m:
                self.pending_events.append(m)

    def events(self, timeout):
        """Collect events for up to `timeout` seconds (returns early once something arrived)."""
        out, self.pending_events = self.pending_events, []
        deadline = time.monotonic() + timeout
        while True:
            raw = self.ws.recv(0 if out else deadline - time.monotonic())
            if raw is None:
                if out or time.monotonic() >= deadline:
                    return out
                continue
            m = json.loads(raw)
            if "method" in m:
                out.append(m)


# ---------------------------------------------------------------------------
# The player page
# ---------------------------------------------------------------------------

PAGE = r"""<!doctype html>
<html><head><meta charset="utf-8"><title>seam native HLS player</title>
<link rel="icon" href="data:,"></head>
<body style="margin:0;background:#000">
<video id="v" crossorigin="anonymous" muted autoplay playsinline width="640" height="360"></video>
<script>
(function () {
  "use strict";
  var cfg = __CONFIG__;
  var v = document.getElementById("v");
  var t0 = performance.now();
  var S = window.__seam = { events: [], pageErrors: [] };
  function now() { return (performance.now() - t0) / 1000; }
  function num(x) {
    if (typeof x !== "number" || isNaN(x)) return null;
    if (x === Infinity) return "Infinity";
    return x;
  }
  function ranges(r) {
    var out = [];
    for (var i = 0; i < r.length; i++) out.push([r.start(i), r.end(i)]);
    return out;
  }
  S.canPlayHls = v.canPlayType("application/vnd.apple.mpegurl");
  S.canPlayXMpegUrl = v.canPlayType("application/x-mpegURL");
  var names = ["loadstart", "loadedmetadata", "loadeddata", "durationchange", "canplay",
               "canplaythrough", "play", "playing", "pause", "waiting", "stalled", "seeking",
               "seeked", "ended", "error", "emptied", "abort", "ratechange", "resize"];
  names.forEach(function (name) {
    v.addEventListener(name, function () {
      var e = { t: now(), type: name, currentTime: v.currentTime, duration: num(v.duration),
                readyState: v.readyState, networkState: v.networkState };
      if (name === "error" && v.error) e.error = { code: v.error.code, message: v.error.message };
      if (name === "resize") { e.videoWidth = v.videoWidth; e.videoHeight = v.videoHeight; }
      if (name === "ratechange") e.playbackRate = v.playbackRate;
      S.events.push(e);
    });
  });
  window.addEventListener("error", function (e) { S.pageErrors.push(String(e.message)); });
  S.snapshot = function (from) {
    var q = v.getVideoPlaybackQuality ? v.getVideoPlaybackQuality() : null;
    return JSON.stringify({
      t: now(), currentTime: v.currentTime, duration: num(v.duration), paused: v.paused,
      ended: v.ended, seeking: v.seeking, readyState: v.readyState, networkState: v.networkState,
      playbackRate: v.playbackRate, videoWidth: v.videoWidth, videoHeight: v.videoHeight,
      error: v.error ? { code: v.error.code, message: v.error.message } : null,
      decodedFrames: q ? q.totalVideoFrames : null, droppedFrames: q ? q.droppedVideoFrames : null,
      buffered: ranges(v.buffered), played: ranges(v.played), seekable: ranges(v.seekable),
      events: S.events.slice(from), pageErrors: S.pageErrors.slice(0), gapJumps: S.gapJumps,
      rgb: cfg.samples ? S.frameColor() : null
    });
  };
  // --samples: the average colour of the frame's top-left corner (away from any text), so a
  // test can tell which picture is on screen (the demo ads are solid colours).
  var canvas = document.createElement("canvas");
  canvas.width = 32; canvas.height = 18;
  S.frameColor = function () {
    if (v.readyState < 2) return null;
    try {
      var ctx = canvas.getContext("2d", { willReadFrequently: true });
      ctx.drawImage(v, 0, 0, 32, 18);
      var d = ctx.getImageData(0, 0, 6, 4).data, r = 0, g = 0, b = 0, n = d.length / 4;
      for (var i = 0; i < d.length; i += 4) { r += d[i]; g += d[i + 1]; b += d[i + 2]; }
      return [Math.round(r / n), Math.round(g / n), Math.round(b / n)];
    } catch (e) {
      return "unreadable: " + String(e);
    }
  };
  // Optional gap jumping (like hls.js' gap controller / Shaka's gap jumping): Chromium's
  // native HLS player does not skip small holes in the buffered ranges.
  S.gapJumps = [];
  if (cfg.gapJump > 0) {
    var lastT = -1, sinceT = performance.now();
    setInterval(function () {
      var ct = v.currentTime, nowMs = performance.now();
      if (ct !== lastT || v.paused || v.seeking || v.ended) { lastT = ct; sinceT = nowMs; return; }
      if (nowMs - sinceT < 250) return;
      var b = v.buffered, cur = -1, next = -1;
      for (var i = 0; i < b.length; i++) {
        if (b.start(i) <= ct && ct <= b.end(i)) cur = i;
        if (b.start(i) > ct && next < 0) next = i;
      }
      if (next < 0) return;
      var holeStart = cur >= 0 ? b.end(cur) : ct;
      // The renderer stops ~60 ms of wall time before a hole, i.e. further ahead at high rates,
      // and up to ~120 ms on a loaded machine (it sat 0.98 s of media before a hole at 8x); on a
      // busier one further still (1.25 s before a 48 ms hole at 8x, frozen for good: a suite
      // run under stress). So a playhead frozen for 1.5 s also jumps a hole up to 0.5 s of wall
      // time ahead; frozen that long, it is not waiting for anything the hole lets through.
      var reach = (nowMs - sinceT >= 1500 ? 0.5 : 0.15) * v.playbackRate;
      var nearEnd = holeStart - ct <= Math.max(0.25, reach);
      if (nearEnd && b.start(next) - holeStart <= cfg.gapJump) {
        S.gapJumps.push({ t: now(), from: ct, to: b.start(next) + 0.001,
                          gap: b.start(next) - holeStart, skipped: b.start(next) - ct });
        v.currentTime = b.start(next) + 0.001;
        sinceT = nowMs;
      }
    }, 50);
  }
  v.defaultPlaybackRate = cfg.rate;
  v.playbackRate = cfg.rate;
  v.src = cfg.src;
  var p = v.play();
  if (p && p.catch) p.catch(function (err) {
    S.events.push({ t: now(), type: "play-rejected", message: String(err) });
  });
})();
</script></body></html>
"""


class _PageHandler(http.server.BaseHTTPRequestHandler):
    page_bytes = b""

    def do_GET(self):
        if self.path.split("?")[0] in ("/", "/player.html"):
            body = self.server.page_bytes
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)
        else:
            self.send_response(204)
            self.send_header("Content-Length", "0")
            self.end_headers()

    def log_message(self, *args):
        pass


def start_page_server(html):
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _PageHandler)
    srv.daemon_threads = True
    srv.page_bytes = html.encode("utf-8")
    th = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True)
    th.start()
    return srv


# ---------------------------------------------------------------------------
# Chromium process management
# ---------------------------------------------------------------------------

BASE_FLAGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--autoplay-policy=no-user-gesture-required",
    "--remote-debugging-port=0",
    "--remote-debugging-address=127.0.0.1",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-extensions",
    "--disable-component-update",
    "--disable-background-networking",
    "--disable-sync",
    "--disable-background-timer-throttling",
    "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
    "--disable-dev-shm-usage",
    "--password-store=basic",
    "--ignore-certificate-errors",
    "--window-size=800,600",
]


def find_chromium(explicit):
    cands = [explicit] if explicit else [os.environ.get("SEAM_CHROMIUM"), "chromium",
                                         "chromium-browser", "google-chrome"]
    for c in cands:
        if not c:
            continue
        p = shutil.which(c)
        if p:
            return p
    return None


class HarnessError(Exception):
    """The harness itself could not run (exit 3)."""


class Result:
    def __init__(self, args):
        self.args = args
        self.ok = False
        self.reason = ""
        self.events = []
        self.snap = {}
        self.console_errors = []
        self.network_errors = []
        self.media_errors = []
        self.media_log = []
        self.stalls = []
        self.freezes = []
        self.nudges = []
        self.first_playing_t = None
        self.start_current_time = None
        self.first_playing_wall = None
        self.started = time.monotonic()
        self.chromium_version = None
        self.can_play_hls = None
        self.flags = []
        self.screenshot = None
        self.warnings = []
        self.media_requests = 0


def tail(path, n=15):
    try:
        with open(path, "rb") as f:
            lines = f.read().decode("utf-8", "replace").splitlines()
        return lines[-n:]
    except OSError:
        return []


def become_subreaper():
    """Linux: orphaned Chromium helpers are re-parented to us, so we can reap them."""
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(36, 1, 0, 0, 0) == 0  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        return False


def _reap_group_zombies(pgid, skip_pid):
    try:
        pids = [int(d) for d in os.listdir("/proc") if d.isdigit()]
    except OSError:
        return
    for pid in pids:
        if pid == skip_pid:
            continue
        try:
            with open("/proc/%d/stat" % pid) as f:
                st = f.read()
        except OSError:
            continue
        fields = st[st.rfind(")") + 2:].split()
        if len(fields) > 2 and fields[2] == str(pgid) and fields[0] == "Z":
            try:
                os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                pass


def _group_alive(pgid):
    """True while any non-zombie process is left in process group `pgid`."""
    try:
        pids = [d for d in os.listdir("/proc") if d.isdigit()]
    except OSError:
        try:
            os.killpg(pgid, 0)
            return True
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
    for pid in pids:
        try:
            with open("/proc/%s/stat" % pid) as f:
                st = f.read()
        except OSError:
            continue
        fields = st[st.rfind(")") + 2:].split()
        if len(fields) > 2 and fields[2] == str(pgid) and fields[0] != "Z":
            return True
    return False


def kill_process_group(proc):
    """Terminate the Chromium we started and every helper in its process group."""
    if proc is None:
        return
    pgid = proc.pid  # started with start_new_session=True, so it leads its own group
    for sig, grace in ((signal.SIGTERM, 5.0), (signal.SIGKILL, 5.0)):
        proc.poll()
        if proc.returncode is not None and not _group_alive(pgid):
            return
        try:
            os.killpg(pgid, sig)
        except (ProcessLookupError, PermissionError):
            pass
        end = time.monotonic() + grace
        while time.monotonic() < end:
            proc.poll()
            _reap_group_zombies(pgid, proc.pid)
            if proc.returncode is not None and not _group_alive(pgid):
                return
            time.sleep(0.05)


def _raise_exit(signum, frame):
    raise SystemExit(128 + signum)


# ---------------------------------------------------------------------------
# Analysis helpers
# ---------------------------------------------------------------------------

def compute_stalls(events, end_t):
    """`waiting` after the first `playing` opens a stall; the next `playing` closes it."""
    stalls, open_at, open_ct, seen_playing = [], None, None, False
    for e in events:
        typ = e["type"]
        if typ == "playing":
            if open_at is not None:
                stalls.append({"start": round(open_at, 3), "end": round(e["t"], 3),
                               "duration": round(e["t"] - open_at, 3),
                               "currentTime": round(open_ct, 3)})
                open_at = None
            seen_playing = True
        elif typ == "waiting" and seen_playing and open_at is None:
            open_at, open_ct = e["t"], e["currentTime"]
        elif typ in ("ended", "error", "emptied") and open_at is not None:
            stalls.append({"start": round(open_at, 3), "end": round(e["t"], 3),
                           "duration": round(e["t"] - open_at, 3),
                           "currentTime": round(open_ct, 3), "unresolved": True})
            open_at = None
    if open_at is not None:
        stalls.append({"start": round(open_at, 3), "end": round(end_t, 3),
                       "duration": round(end_t - open_at, 3),
                       "currentTime": round(open_ct, 3), "unresolved": True})
    return stalls


def played_seconds(snap):
    return round(sum(max(0.0, b - a) for a, b in snap.get("played") or []), 3)


# ---------------------------------------------------------------------------
# Main run
# ---------------------------------------------------------------------------

def run(args, res):
    chromium = find_chromium(args.chromium)
    if not chromium:
        raise HarnessError("no chromium binary found (install Debian's `chromium` or pass --chromium)")
    try:
        out = subprocess.run([chromium, "--version"], capture_output=True, text=True, timeout=30)
        res.chromium_version = out.stdout.strip() or None
    except (OSError, subprocess.TimeoutExpired):
        pass

    tmp = tempfile.mkdtemp(prefix="seam-chromium-")
    proc = None
    srv = None
    ws = None
    log_path = os.path.join(tmp, "chromium.log")
    try:
        cfg = {"src": args.url, "rate": args.rate, "gapJump": args.gap_jump, "samples": args.samples}
        srv = start_page_server(PAGE.replace("__CONFIG__", json.dumps(cfg)))
        page_url = "http://127.0.0.1:%d/player.html" % srv.server_address[1]

        profile = os.path.join(tmp, "profile")
        os.mkdir(profile)
        flags = BASE_FLAGS + ["--user-data-dir=" + profile] + list(args.chromium_flag or [])
        res.flags = flags
        logf = open(log_path, "wb")
        try:
            proc = subprocess.Popen([chromium] + flags + ["about:blank"], stdin=subprocess.DEVNULL,
                                    stdout=logf, stderr=subprocess.STDOUT, start_new_session=True)
        finally:
            logf.close()

        # --remote-debugging-port=0: Chromium writes the chosen port to DevToolsActivePort.
        port_file = os.path.join(profile, "DevToolsActivePort")
        deadline = time.monotonic() + 30
        ws_path = None
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise HarnessError("chromium exited with status %s before DevTools came up: %s"
                                   % (proc.returncode, " | ".join(tail(log_path, 5))))
            try:
                with open(port_file) as f:
                    lines = f.read().split("\n")
                if len(lines) >= 2 and lines[0].strip() and lines[1].strip():
                    port, ws_path = int(lines[0]), lines[1].strip()
                    break
            except (OSError, ValueError):
                pass
            time.sleep(0.1)
        if not ws_path:
            raise HarnessError("DevTools port file did not appear within 30 s: %s"
                               % " | ".join(tail(log_path, 5)))
        try:
            ws = WebSocket("ws://127.0.0.1:%d%s" % (port, ws_path))
        except (OSError, WebSocketError) as e:
            raise HarnessError("cannot connect to DevTools: %s" % e)
        cdp = CDP(ws)
        try:
            target = cdp.call("Target.createTarget", {"url": "about:blank"})["targetId"]
            sess = cdp.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
            for dom in ("Runtime", "Log", "Network", "Page", "Inspector", "Media"):
                try:
                    cdp.call(dom + ".enable", session=sess)
                except CDPError as e:
                    res.warnings.append(str(e))
            cdp.call("Page.navigate", {"url": page_url}, session=sess)
        except (CDPError, WebSocketError) as e:
            raise HarnessError("DevTools setup failed: %s" % e)

        drive(args, res, cdp, sess, proc, log_path)

        try:
            cdp.call("Browser.close", timeout=3)
        except (CDPError, WebSocketError, OSError):
            pass
    finally:
        if ws is not None:
            ws.close()
        kill_process_group(proc)
        if srv is not None:
            srv.shutdown()
            srv.server_close()
        for _ in range(5):
            shutil.rmtree(tmp, ignore_errors=True)
            if not os.path.exists(tmp):
                break
            time.sleep(0.2)


def handle_cdp_event(res, ev, requests):
    m, p = ev.get("method"), ev.get("params", {})
    if m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
        text = " ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", []))
        res.console_errors.append(text[:500])
    elif m == "Runtime.exceptionThrown":
        d = p.get("exceptionDetails", {})
        res.console_errors.append(("exception: " + (d.get("exception", {}).get("description")
                                                    or d.get("text", "")))[:500])
    elif m == "Log.entryAdded":
        e = p.get("entry", {})
        if e.get("level") == "error":
            res.console_errors.append(("%s: %s" % (e.get("source"), e.get("text")))[:500])
    elif m == "Network.requestWillBeSent":
        rid = p.get("requestId")
        info = requests.setdefault(rid, {})
        info["url"] = p.get("request", {}).get("url")
        info["sent"] = time.monotonic()
        if info.get("entry") is not None and not info["entry"].get("url"):
            info["entry"]["url"] = info["url"]
        if p.get("type") == "Media":
            res.media_requests += 1
    elif m in ("Network.responseReceivedExtraInfo", "Network.responseReceived"):
        # ExtraInfo carries the real status even when ORB later blocks the body.
        rid = p.get("requestId")
        status = p.get("statusCode") if m.endswith("ExtraInfo") else p.get("response", {}).get("status")
        info = requests.setdefault(rid, {})
        if m == "Network.responseReceived":
            info["url"] = p.get("response", {}).get("url", info.get("url"))
        if status and status >= 400 and not info.get("reported"):
            info["reported"] = True
            entry = {"url": info.get("url"), "status": status}
            info["entry"] = entry
            res.network_errors.append(entry)
    elif m == "Network.loadingFinished":
        info = requests.setdefault(p.get("requestId"), {})
        info["done"] = True
        info["finished"] = time.monotonic()
    elif m == "Network.loadingFailed":
        rid = p.get("requestId")
        info = requests.setdefault(rid, {})
        info["done"] = True
        err = p.get("errorText")
        if info.get("entry") is not None:
            info["entry"]["error"] = err
        elif not p.get("canceled") and err != "net::ERR_ABORTED":
            info["reported"] = True
            res.network_errors.append({"url": info.get("url"), "error": err})
    elif m == "Media.playerErrorsRaised":
        for e in p.get("errors", []):
            res.media_errors.append({k: e.get(k) for k in ("errorType", "code", "data") if k in e})
    elif m == "Media.playerMessagesLogged":
        for msg in p.get("messages", []):
            if msg.get("level") in ("error", "warning"):
                res.media_log.append(("%s: %s" % (msg.get("level"), msg.get("message")))[:500])
    elif m in ("Inspector.targetCrashed", "Target.targetCrashed"):
        return "renderer crashed"
    elif m == "Inspector.detached":
        return "DevTools detached: %s" % p.get("reason")
    return None


def drive(args, res, cdp, sess, proc, log_path):
    trace = open(args.trace, "w") if args.trace else None
    try:
        _drive(args, res, cdp, sess, proc, trace)
    finally:
        if trace:
            trace.close()


def _drive(args, res, cdp, sess, proc, trace):
    requests = {}
    deadline = res.started + args.timeout
    max_stall = args.max_stall if args.max_stall is not None else (6.0 if args.live else None)
    last_ct, last_move_t = None, None
    freeze_start, freeze_ct = None, None
    reason = None
    while True:
        try:
            for ev in cdp.events(0.25):
                if trace:
                    trace.write(json.dumps(ev) + "\n")
                why = handle_cdp_event(res, ev, requests)
                if why:
                    reason = why
            raw = cdp.call("Runtime.evaluate",
                           {"expression": "window.__seam ? window.__seam.snapshot(%d) : null"
                                          % len(res.events), "returnByValue": True},
                           session=sess, timeout=10)
        except (CDPError, WebSocketError, OSError) as e:
            if proc.poll() is not None:
                reason = "chromium exited unexpectedly (status %s)" % proc.returncode
            else:
                reason = reason or "DevTools connection failed: %s" % e
            break
        if reason:
            break
        val = raw.get("result", {}).get("value")
        if val is None:
            if time.monotonic() > deadline:
                reason = "timeout: player page never loaded"
                break
            continue
        snap = json.loads(val)
        res.events.extend(snap.pop("events"))
        res.snap = snap
        if res.can_play_hls is None:
            try:
                r2 = cdp.call("Runtime.evaluate", {"expression": "window.__seam.canPlayHls",
                                                   "returnByValue": True}, session=sess)
                res.can_play_hls = r2.get("result", {}).get("value")
            except (CDPError, WebSocketError):
                pass
        t = snap["t"]
        ct = snap["currentTime"]
        if args.samples:
            # One line per poll for a caller feeding the playhead to something (SeamKit) live.
            print("SAMPLE " + json.dumps({"t": round(t, 3), "currentTime": ct, "paused": snap["paused"],
                                          "ended": snap["ended"], "seeking": snap["seeking"], "rgb": snap.get("rgb")}),
                  flush=True)

        if res.first_playing_t is None:
            for e in res.events:
                if e["type"] == "playing":
                    res.first_playing_t = e["t"]
                    res.start_current_time = e["currentTime"]
                    res.first_playing_wall = time.monotonic()
                    break

        # Freeze detection: currentTime not moving while it should be.
        if res.first_playing_t is not None:
            if last_ct is None or ct != last_ct or snap["paused"] or snap["ended"] or snap["seeking"]:
                if freeze_start is not None and t - freeze_start >= 1.0:
                    res.freezes.append({"start": round(freeze_start, 3), "end": round(t, 3),
                                        "duration": round(t - freeze_start, 3),
                                        "currentTime": round(freeze_ct, 3)})
                freeze_start = None
                last_move_t = t
            elif freeze_start is None:
                freeze_start, freeze_ct = last_move_t if last_move_t is not None else t, ct
            last_ct = ct

        if args.screenshot and res.screenshot is None and ct > 1.0:
            try:
                shot = cdp.call("Page.captureScreenshot", {"format": "png"}, session=sess)
                with open(args.screenshot, "wb") as f:
                    f.write(base64.b64decode(shot["data"]))
                res.screenshot = args.screenshot
            except (CDPError, WebSocketError, OSError, KeyError) as e:
                res.warnings.append("screenshot failed: %s" % e)
                res.screenshot = False

        err = snap.get("error")
        if err:
            reason = "media error %s (%s): %s" % (err.get("code"), MEDIA_ERR.get(err.get("code"), "?"),
                                                 err.get("message") or "(no message)")
            break
        rejected = [e for e in res.events if e["type"] == "play-rejected"]
        if rejected and res.first_playing_t is None:
            reason = "play() was rejected: %s" % rejected[0].get("message")
            break

        if args.live:
            if snap["ended"]:
                reason = "stream ended during the live watch (playlist has ENDLIST?)"
                break
            if res.first_playing_t is not None and t - res.first_playing_t >= args.watch:
                break
        else:
            if snap["ended"]:
                break

        target = nudge_target(args, snap, freeze_start, res.nudges, requests)
        if target is not None:
            try:
                cdp.call("Runtime.evaluate", {"expression": "document.querySelector('video').currentTime = %r"
                                                            % target}, session=sess, timeout=10)
            except (CDPError, WebSocketError, OSError) as e:
                res.warnings.append("nudge failed: %s" % e)
            res.nudges.append({"t": round(t, 3), "from": round(ct, 3), "to": round(target, 3),
                               "buffered": snap.get("buffered"), "readyState": snap["readyState"]})
            res.freezes.append({"start": round(freeze_start, 3), "end": round(t, 3),
                                "duration": round(t - freeze_start, 3), "currentTime": round(freeze_ct, 3),
                                "nudged": True})
            freeze_start, last_ct, last_move_t = None, None, t
            continue

        # A nudge's seek that never completes (`seeking` counts as moving above) is stuck too.
        if res.nudges and not snap["ended"] and t - res.nudges[-1]["t"] > args.stuck_timeout \
                and ct < res.nudges[-1]["to"] + 0.5:
            reason = "playback stuck after %d nudge(s): currentTime %.3f %.1f s after the last (readyState %s, " \
                     "seeking %s; buffered %s)%s" % (len(res.nudges), ct, t - res.nudges[-1]["t"], snap["readyState"],
                                                     snap["seeking"], json.dumps(snap.get("buffered")),
                                                     in_flight_hint(requests))
            break

        if max_stall is not None and freeze_start is not None and t - freeze_start > max_stall:
            reason = "stall longer than --max-stall %.1f s: currentTime stuck at %.3f (readyState %s)%s" \
                     % (max_stall, ct, snap["readyState"], gap_hint(snap))
            break
        if res.first_playing_t is not None and freeze_start is not None \
                and t - freeze_start > args.stuck_timeout:
            wp = [e for e in res.events if e["type"] in ("waiting", "playing")]
            reason = "playback stuck: currentTime stayed at %.3f for %.1f s (readyState %s, %s; buffered %s)%s%s" % (
                ct, t - freeze_start, snap["readyState"],
                "waiting" if wp and wp[-1]["type"] == "waiting" else "no waiting event",
                json.dumps(snap.get("buffered")), gap_hint(snap), in_flight_hint(requests))
            break
        if time.monotonic() > deadline:
            if res.first_playing_t is None:
                reason = "timeout after %.0f s: playback never started (readyState %s, networkState %s)" \
                         % (args.timeout, snap["readyState"], snap["networkState"])
            else:
                reason = "timeout after %.0f s: currentTime %.3f of %s" % (args.timeout, ct, snap["duration"])
            break

    # Late events (e.g. the network failure behind a media error) may still be in flight.
    try:
        for _ in range(3):
            for ev in cdp.events(0.3):
                if trace:
                    trace.write(json.dumps(ev) + "\n")
                handle_cdp_event(res, ev, requests)
    except (CDPError, WebSocketError, OSError):
        pass
    if freeze_start is not None and res.snap and res.snap.get("t", 0) - freeze_start >= 1.0:
        res.freezes.append({"start": round(freeze_start, 3), "end": round(res.snap["t"], 3),
                            "duration": round(res.snap["t"] - freeze_start, 3),
                            "currentTime": round(freeze_ct, 3), "unresolved": True})
    end_t = res.snap.get("t", 0.0) if res.snap else 0.0
    res.stalls = compute_stalls(res.events, end_t)
    res.longest_stall = max([s["duration"] for s in res.stalls] + [f["duration"] for f in res.freezes]
                            + [0.0])
    judge(args, res, reason, max_stall)


def nudge_target(args, snap, freeze_start, nudges, requests):
    """Where to nudge a frozen playhead, or None. With --gap-jump (hls.js's gap controller),
    also its nudge: a VOD playhead frozen for NUDGE_AFTER s with nothing buffered ahead of it and
    no request in flight is moved 0.1 s ahead (then 0.2, 0.3: at most NUDGE_MAX times), as
    hls.js does before it gives up on a stall: Chromium's VOD engine stops scheduling its checks
    once it counts every segment fetched (HlsRenditionImpl::CheckState), so a buffered range that
    ends short of them would freeze it for good; a seek past the buffered end makes it fetch
    them again (not seen here yet: the one stall seen with its buffered ranges had media buffered ahead). A hole before
    buffered media is the gap jumper's to cross (up to --gap-jump) or a defect to report, never
    nudged over."""
    if not args.gap_jump or args.live or freeze_start is None or len(nudges) >= NUDGE_MAX:
        return None
    ct = snap["currentTime"]
    if snap["t"] - freeze_start <= NUDGE_AFTER or snap["ended"] or snap["paused"]:
        return None
    if any(r[0] > ct for r in (snap.get("buffered") or [])):
        return None
    if any("sent" in info and not info.get("done") for info in requests.values()):
        return None
    return ct + 0.1 * (len(nudges) + 1)


def in_flight_hint(requests):
    """The requests sent and not finished (nor failed) when playback stopped, oldest first: what
    the player is waiting for, if it waits for the network."""
    now = time.monotonic()
    pending = sorted(((info["sent"], info.get("url")) for info in requests.values()
                      if "sent" in info and not info.get("done")), key=lambda item: item[0])
    finished = sorted(((info["finished"], info.get("url")) for info in requests.values() if "finished" in info),
                      key=lambda item: item[0])
    last = "; last finished: " + ", ".join(
        "%s (%.1f s ago)" % (url, now - at) for at, url in finished[-3:]) if finished else ""
    if not pending:
        return "; no request in flight" + last
    return "; in flight: " + ", ".join("%s (%.1f s)" % (url, now - sent) for sent, url in pending[:5]) + last


def gap_hint(snap):
    """Explain a stall caused by a hole in the buffered ranges just ahead of currentTime."""
    ct, rs = snap.get("currentTime", 0.0), snap.get("buffered") or []
    for a, b in zip(rs, rs[1:]):
        if a[1] <= ct + 1.0 and ct < b[0] <= ct + 2.0:
            return ("; buffered ranges have a %.0f ms gap %.3f-%.3f just ahead (Chromium's native HLS "
                    "player does not jump gaps; --gap-jump 0.5 emulates hls.js/Shaka)"
                    % ((b[0] - a[1]) * 1000, a[1], b[0]))
    return ""


MEDIA_ERR = {1: "MEDIA_ERR_ABORTED", 2: "MEDIA_ERR_NETWORK", 3: "MEDIA_ERR_DECODE",
             4: "MEDIA_ERR_SRC_NOT_SUPPORTED"}


def judge(args, res, reason, max_stall):
    snap = res.snap or {}
    problems = []
    if not args.allow_http_errors and res.network_errors:
        e = res.network_errors[0]
        problems.append("%d failed HTTP request(s), first: %s %s"
                        % (len(res.network_errors), e.get("status") or e.get("error"), e.get("url")))
    if reason:
        problems.append(reason)
    if not problems:
        if res.first_playing_t is None:
            problems.append("playback never started")
        if snap.get("videoWidth", 0) > 0 and not snap.get("decodedFrames"):
            problems.append("no video frames were decoded")
        if args.live:
            adv = snap.get("currentTime", 0.0) - (res.start_current_time or 0.0)
            need = args.watch * args.min_advance
            if adv < need:
                problems.append("currentTime advanced only %.2f s during a %.0f s watch (need >= %.2f)"
                                % (adv, args.watch, need))
        else:
            d = snap.get("duration")
            if not snap.get("ended"):
                problems.append("`ended` never fired")
            if args.expect_duration is not None:
                if not isinstance(d, (int, float)):
                    problems.append("duration is %r, expected %.3f" % (d, args.expect_duration))
                elif abs(d - args.expect_duration) > args.tolerance:
                    problems.append("duration %.3f s differs from expected %.3f s by more than %.3f s"
                                    % (d, args.expect_duration, args.tolerance))
            if isinstance(d, (int, float)) and d > 0:
                played = played_seconds(snap)
                # What --gap-jump itself stepped over is listed in gap_jumps, not skipped by the
                # player: at 8x the renderer stops up to 1.2 s before a hole, so each jump over a
                # splice's few-millisecond audio gap leaves that much unplayed.
                jumped = sum(j.get("skipped", 0) for j in snap.get("gapJumps", [])) \
                    + sum(n["to"] - n["from"] for n in res.nudges)
                if played < d - max(args.tolerance, 1.0) - jumped:
                    problems.append("only %.3f s of %.3f s were played (skipped content?)" % (played, d))
        if max_stall is not None and res.longest_stall > max_stall:
            problems.append("longest stall %.2f s exceeds --max-stall %.2f s" % (res.longest_stall, max_stall))
    res.ok = not problems
    res.reason = "ok" if res.ok else "; ".join(problems)


def summary(args, res):
    snap = res.snap or {}
    d = snap.get("duration")
    adv = None
    if res.start_current_time is not None and snap:
        adv = round(snap.get("currentTime", 0.0) - res.start_current_time, 3)
    return {
        "ok": res.ok,
        "reason": res.reason,
        "url": args.url,
        "mode": "live" if args.live else "vod",
        "rate": args.rate,
        "duration": d if isinstance(d, (int, float)) else None,
        "duration_infinite": d == "Infinity",
        "current_time": snap.get("currentTime"),
        "start_current_time": res.start_current_time,
        "advanced": adv,
        "played_seconds": played_seconds(snap) if snap else 0.0,
        "ended": snap.get("ended", False),
        "decoded_frames": snap.get("decodedFrames"),
        "dropped_frames": snap.get("droppedFrames"),
        "video_width": snap.get("videoWidth"),
        "video_height": snap.get("videoHeight"),
        "ready_state": snap.get("readyState"),
        "network_state": snap.get("networkState"),
        "error": snap.get("error"),
        "startup_seconds": round(res.first_playing_t, 3) if res.first_playing_t is not None else None,
        "stalls": res.stalls,
        "gap_jumps": snap.get("gapJumps", []),
        "freezes": res.freezes,
        "nudges": res.nudges,
        "longest_stall": round(getattr(res, "longest_stall", 0.0), 3),
        "buffered": snap.get("buffered"),
        "played": snap.get("played"),
        "seekable": snap.get("seekable"),
        "events": [{k: (round(v, 3) if isinstance(v, float) else v) for k, v in e.items()}
                   for e in res.events],
        "errors": ([{"type": "media", **snap["error"]}] if snap.get("error") else [])
                  + [{"type": "page", "message": m} for m in snap.get("pageErrors", [])],
        "console_errors": res.console_errors,
        "network_errors": res.network_errors,
        "media_requests": res.media_requests,
        "media_errors": res.media_errors,
        "media_log": res.media_log[:50],
        "can_play_type_hls": res.can_play_hls,
        "chromium_version": res.chromium_version,
        "chromium_flags": res.flags,
        "screenshot": res.screenshot or None,
        "warnings": res.warnings,
        "wall_seconds": round(time.monotonic() - res.started, 3),
    }


def main(argv=None):
    ap = argparse.ArgumentParser(description="Play an HLS URL in headless Chromium (native HLS) and verify it.")
    ap.add_argument("url")
    ap.add_argument("--timeout", type=float, default=180.0, help="overall limit in seconds (default 180)")
    ap.add_argument("--rate", type=float, default=1.0,
                    help="playbackRate for VOD (default 1; 4 or 8 to speed up tests); ignored with --live")
    ap.add_argument("--expect-duration", type=float, help="VOD: expected video.duration in seconds")
    ap.add_argument("--tolerance", type=float, default=0.5, help="tolerance for --expect-duration (default 0.5)")
    ap.add_argument("--live", action="store_true", help="live mode: watch for --watch seconds")
    ap.add_argument("--watch", type=float, default=30.0, help="live: seconds to watch after playback starts")
    ap.add_argument("--max-stall", type=float, default=None,
                    help="fail if any single stall is longer (default 6 s in live mode; off for VOD)")
    ap.add_argument("--min-advance", type=float, default=0.8,
                    help="live: currentTime must advance by at least this fraction of --watch (default 0.8)")
    ap.add_argument("--stuck-timeout", type=float, default=30.0,
                    help="fail early if currentTime does not move for this long after starting (default 30)")
    ap.add_argument("--gap-jump", type=float, default=0.0, metavar="S",
                    help="jump holes of up to S seconds in the buffered ranges when stuck, like hls.js/Shaka "
                         "(default 0 = off: native Chromium behaviour); jumps are listed in gap_jumps")
    ap.add_argument("--allow-http-errors", action="store_true",
                    help="do not fail on HTTP >= 400 / network failures seen by the browser")
    ap.add_argument("--samples", action="store_true",
                    help="print a line 'SAMPLE {json}' per poll (~4/s): time, currentTime, paused, frame colour")
    ap.add_argument("--screenshot", metavar="PNG", help="save a screenshot once currentTime > 1 s")
    ap.add_argument("--trace", metavar="FILE", help="write every DevTools event received as JSON lines")
    ap.add_argument("--chromium", help="browser binary (default: $SEAM_CHROMIUM or `chromium` on PATH)")
    ap.add_argument("--chromium-flag", action="append", metavar="FLAG",
                    help="extra Chromium command-line flag (repeatable)")
    ap.add_argument("--json", action="store_true", help="print the JSON summary on stdout")
    args = ap.parse_args(argv)
    if args.live:
        args.rate = 1.0
    if args.rate <= 0 or args.rate > 16:
        ap.error("--rate must be in (0, 16]")

    become_subreaper()
    signal.signal(signal.SIGTERM, _raise_exit)
    signal.signal(signal.SIGINT, _raise_exit)
    signal.signal(signal.SIGHUP, _raise_exit)
    res = Result(args)
    code = EXIT_OK
    try:
        run(args, res)
        code = EXIT_OK if res.ok else EXIT_FAIL
    except HarnessError as e:
        res.ok, res.reason, code = False, "harness error: %s" % e, EXIT_ENV
    except KeyboardInterrupt:
        res.ok, res.reason, code = False, "interrupted", EXIT_FAIL
    except SystemExit as e:
        res.ok, res.reason, code = False, "terminated by signal", (e.code if isinstance(e.code, int) else 1)
    out = summary(args, res)
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        print("%s: %s (duration=%s currentTime=%s decodedFrames=%s longestStall=%.2fs gapJumps=%d wall=%.1fs)"
              % ("PASS" if res.ok else "FAIL", res.reason, out["duration"] if out["duration"] is not None
                 else ("Infinity" if out["duration_infinite"] else None),
                 out["current_time"], out["decoded_frames"], out["longest_stall"], len(out["gap_jumps"]),
                 out["wall_seconds"]))
    if not res.ok:
        print("chromium_play: FAIL: %s" % res.reason, file=sys.stderr)
    sys.stdout.flush()
    return code


if __name__ == "__main__":
    sys.exit(main())
