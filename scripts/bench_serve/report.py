#!/usr/bin/env python3
"""Summarise a bench-serve.sh results directory as a compact table (stdout) and results.json.

Usage: report.py RESULTS_DIR
Reads wrk-<encoding>-<server>-<round>.json (encoding plain or gzip), create-cold.txt, create-warm.txt ("status seconds" per line),
mem-<name>.json, sizes.json and meta.json, all written by scripts/bench-serve.sh.
"""
import glob
import json
import os
import statistics
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def percentile(values, pct):
    """Nearest-rank percentile (no interpolation), as for a small sample."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * pct // 100))  # ceil(n * pct / 100)
    return ordered[int(rank) - 1]


def creations(path):
    rows = []
    with open(path) as f:
        for line in f:
            if line.strip():
                status, seconds = line.split()
                rows.append((int(status), float(seconds) * 1000))
    return rows


def main() -> None:
    d = sys.argv[1]
    meta = load(os.path.join(d, "meta.json"))
    out = {"meta": meta, "serving": {}}

    lines = []
    w = meta["wrk"]
    invalid = False
    out["encodings"] = {}
    for encoding in ("plain", "gzip"):
        servers = {}
        for server in ("nginx", "seam", "nio-floor", "hb-floor"):
            rounds = [load(p) for p in sorted(glob.glob(os.path.join(d, f"wrk-{encoding}-{server}-*.json")))]
            if not rounds:
                continue
            best = max(rounds, key=lambda r: r["requests_per_s"])
            servers[server] = {"rounds": rounds, "best": best}
        if len(servers) < 2:
            continue
        ratio = servers["seam"]["best"]["requests_per_s"] / servers["nginx"]["best"]["requests_per_s"]
        asked = "no Accept-Encoding" if encoding == "plain" else "Accept-Encoding: gzip (nginx gzip_static, Seam's gzip copy)"
        lines.append(f"Serving one stitched media playlist ({meta['playlist']}, {meta['playlist_bytes']} bytes, same bytes from both), {asked}")
        lines.append(f"  wrk -t{w['threads']} -c{w['connections']} -d{w['duration']}s --latency, {w['warmup']}s warm-up each, "
                     f"{len(servers['seam']['rounds'])} alternating rounds; best round reported")
        lines.append(f"  {'server':<9} {'rounds req/s':>18} {'best req/s':>11} {'p50 ms':>7} {'p99 ms':>7} "
                     f"{'cores busy':>10} {'CPU µs/req':>10} {'errors':>7}")
        for name, s in servers.items():
            rounds = " / ".join(f"{r['requests_per_s']:.0f}" for r in s["rounds"])
            b = s["best"]
            errors = sum(r["non_2xx"] + r["socket_errors"] for r in s["rounds"])
            invalid = invalid or any(r["non_2xx"] for r in s["rounds"])
            # CPU: the server's own user+system time during the best round (all threads/processes).
            busy = b.get("server_cpu_s", float("nan")) / w["duration"]
            s["cpu_us_per_request"] = min(r.get("server_cpu_us_per_request", float("nan")) for r in s["rounds"])
            lines.append(f"  {name:<9} {rounds:>18} {b['requests_per_s']:>11.0f} {b.get('p50_ms', float('nan')):>7.2f} "
                         f"{b.get('p99_ms', float('nan')):>7.2f} {busy:>10.2f} {s['cpu_us_per_request']:>10.1f} {errors:>7}")
        lines.append(f"  ratio seam/nginx, requests/s (best vs best): {ratio:.2f}x")
        cpu_ratio = servers["seam"]["cpu_us_per_request"] / servers["nginx"]["cpu_us_per_request"]
        lines.append(f"  ratio seam/nginx, server CPU per request (lowest vs lowest): {cpu_ratio:.2f}x")
        # The stack's floors (FLOORS=1): bare SwiftNIO and bare Hummingbird answering the same bytes.
        for floor in ("nio-floor", "hb-floor"):
            if floor in servers:
                f_ratio = servers[floor]["best"]["requests_per_s"] / servers["nginx"]["best"]["requests_per_s"]
                f_cpu = servers[floor]["cpu_us_per_request"] / servers["nginx"]["cpu_us_per_request"]
                lines.append(f"  ratio {floor}/nginx: requests/s {f_ratio:.2f}x, server CPU per request {f_cpu:.2f}x")
        lines.append("")
        out["encodings"][encoding] = {"servers": servers, "ratio": ratio, "cpu_ratio": cpu_ratio}
    if invalid:
        lines.append("  INVALID: a server answered non-2xx during a measured run (see wrk-*.txt)")
        lines.append("")

    cold = creations(os.path.join(d, "create-cold.txt"))
    warm = creations(os.path.join(d, "create-warm.txt"))
    warm_ms = [ms for status, ms in warm if status == 201]
    bad = [status for status, _ in cold + warm if status != 201]
    out["create"] = {"first_ms": cold[0][1], "n": len(warm_ms), "median_ms": statistics.median(warm_ms),
                     "p95_ms": percentile(warm_ms, 95), "min_ms": min(warm_ms), "max_ms": max(warm_ms),
                     "non_201": bad}
    c = out["create"]
    lines.append("Session creation: sequential POST /v1/sessions against the demo origin and ad server (loopback)")
    lines.append(f"  first (cold creative cache) {c['first_ms']:8.1f} ms")
    lines.append(f"  next N={c['n']:<3}  median      {c['median_ms']:8.1f} ms   p95 {c['p95_ms']:.1f} ms   "
                 f"(min {c['min_ms']:.1f}, max {c['max_ms']:.1f})" + (f"   non-201: {bad}" if bad else ""))
    lines.append("")

    sizes = load(os.path.join(d, "sizes.json"))
    out["sizes"] = sizes
    out["memory"] = {}
    for path in sorted(glob.glob(os.path.join(d, "mem-*.json"))):
        mem = load(path)
        name = mem["name"]
        per_kib = (mem["after_kib"] - mem["before_kib"]) / mem["created"]
        entry = dict(mem, rss_per_session_kib=per_kib)
        title = "the demo title (60 s)" if name == "demo" else "a 2-hour title (1,200 segments per rendition)"
        lines.append(f"Memory per idle session, {title}: {mem['created']} sessions created ({mem['parallel']} in parallel)")
        lines.append(f"  seam VmRSS {mem['before_kib'] / 1024:.1f} MiB -> {mem['after_kib'] / 1024:.1f} MiB "
                     f"(read {mem['settle_s']}s after the last one): {per_kib:.1f} KiB per session")
        if None not in (mem.get("heap_before"), mem.get("heap_after"), mem.get("heap_deleted")):
            grown = (mem["heap_after"] - mem["heap_before"]) / mem["created"] / 1024
            held = (mem["heap_after"] - mem["heap_deleted"]) / mem["created"] / 1024
            entry.update(heap_growth_per_session_kib=grown, heap_held_per_session_kib=held)
            lines.append(f"  heap (seam_heap_in_use_bytes) {mem['heap_before'] / 1048576:.1f} -> "
                         f"{mem['heap_after'] / 1048576:.1f} MiB, {mem['heap_deleted'] / 1048576:.1f} MiB after deleting them: "
                         f"{held:.1f} KiB held per session (freed by its delete); {grown:.1f} KiB grown per session created "
                         f"(also the demo's own log of each ad request, same process)")
        out["memory"][name] = entry
        lines.append("")
    serialized = sizes["master"] + sizes["media_total"] + sizes["tracking"]
    lines.append(f"  for context, one demo session serializes to {serialized / 1024:.1f} KiB: master {sizes['master']} B, "
                 f"{len(sizes['media'])} media playlists {sizes['media_total']} B, tracking JSON {sizes['tracking']} B")
    lines.append("")
    m = meta["machine"]
    lines.append(f"Machine: {m['nproc']} cores, {m['cpu']}, Linux {m['kernel']}, {m['mem']}; nginx worker_processes {m['nproc']}")
    lines.append(f"Load average: {meta['loadavg']['before_wrk']} before wrk, {meta['loadavg']['end']} at the end")
    lines.append(f"Versions: {meta['versions']}")
    lines.append(f"Command: {meta['command']}")

    print("\n".join(lines))
    with open(os.path.join(d, "results.json"), "w") as f:
        json.dump(out, f, indent=2)
    if invalid:
        sys.exit(1)


if __name__ == "__main__":
    main()
