#!/usr/bin/env python3
"""Parse `wrk --latency` output (stdin) into one JSON object.

Keys: requests_per_s, requests, p50_ms, p75_ms, p90_ms, p99_ms, avg_ms, max_ms, non_2xx,
socket_errors (connect+read+write+timeout); with --cpu-ticks also server_cpu_s and
server_cpu_us_per_request. Exits non-zero if the output has no Requests/sec line.
"""
import json
import re
import sys

UNITS_MS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0, "h": 3600000.0}


def to_ms(text: str) -> float:
    match = re.fullmatch(r"([0-9.]+)(us|ms|s|m|h)", text.strip())
    if not match:
        raise ValueError(f"unreadable wrk duration {text!r}")
    return float(match.group(1)) * UNITS_MS[match.group(2)]


def parse(out: str) -> dict:
    result = {"non_2xx": 0, "socket_errors": 0}
    rps = re.search(r"^Requests/sec:\s+([0-9.]+)", out, re.M)
    if not rps:
        raise SystemExit("wrk output has no Requests/sec line:\n" + out)
    result["requests_per_s"] = float(rps.group(1))
    total = re.search(r"^\s*(\d+) requests in ([0-9.]+\w+)", out, re.M)
    if total:
        result["requests"] = int(total.group(1))
    latency = re.search(r"^\s*Latency\s+(\S+)\s+(\S+)\s+(\S+)", out, re.M)
    if latency:
        result["avg_ms"] = to_ms(latency.group(1))
        result["max_ms"] = to_ms(latency.group(3))
    for pct in ("50", "75", "90", "99"):
        m = re.search(rf"^\s*{pct}%\s+(\S+)", out, re.M)
        if m:
            result[f"p{pct}_ms"] = to_ms(m.group(1))
    non2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    if non2xx:
        result["non_2xx"] = int(non2xx.group(1))
    sock = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    if sock:
        result["socket_errors"] = sum(int(g) for g in sock.groups())
    return result


if __name__ == "__main__":
    import argparse

    args = argparse.ArgumentParser(description=__doc__)
    args.add_argument("--cpu-ticks", type=int, help="server CPU time (user+system) during the run, in clock ticks")
    args.add_argument("--clock-ticks", type=int, default=100, help="clock ticks per second (getconf CLK_TCK)")
    options = args.parse_args()
    result = parse(sys.stdin.read())
    if options.cpu_ticks is not None:
        result["server_cpu_s"] = options.cpu_ticks / options.clock_ticks
        result["server_cpu_us_per_request"] = result["server_cpu_s"] * 1e6 / max(1, result.get("requests", 0))
    print(json.dumps(result))
