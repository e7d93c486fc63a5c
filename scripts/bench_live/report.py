#!/usr/bin/env python3
"""Summarise a bench-live.sh results directory: a table on stdout and results.json.

Usage: report.py RESULTS_DIR
Reads seam-<N>.json and nginx-<N>.json (LiveLoadBenchmark output), tap-<N>.json (tap_count.py,
optional) and meta.json. Exits 1 when a run had errors (non-2xx, timeouts, closed connections).
"""
import glob
import json
import os
import re
import sys

P99_TARGET_MS = 10.0
MEMORY_TARGET_BYTES = 4096


def load(path):
    with open(path) as f:
        return json.load(f)


def ratio(a, b):
    return a / b if b else float("nan")


def main() -> None:
    d = sys.argv[1]
    meta = load(os.path.join(d, "meta.json"))
    ns = sorted(int(re.search(r"seam-(\d+)\.json$", p).group(1)) for p in glob.glob(os.path.join(d, "seam-*.json")))
    runs = {}
    for n in ns:
        run = {"seam": load(os.path.join(d, f"seam-{n}.json"))}
        for name in ("nginx", "tap"):
            path = os.path.join(d, f"{name}-{n}.json")
            if os.path.exists(path):
                run[name] = load(path)
        runs[n] = run

    first = runs[ns[0]]["seam"]["options"]
    lines = []
    lines.append(f"Live load: N sessions, each reloading its stitched media playlist every {first['reloadS']:g} s "
                 f"(open loop, random phase), {first['durationS']:g} s measured")
    lines.append(f"  content: {meta['content_url']}" + ("  (Seam fetches it through a counting proxy)" if meta["origin_tap"] else ""))
    lines.append("  latency = scheduled send time -> last byte of the answer (queueing in the generator counts); "
                 "baseline = nginx serving one copied playlist under the same schedule")
    header = (f"  {'N':>6} {'server':<6} {'target/s':>8} {'ok/s':>8} {'errors':>6} {'p50 ms':>7} {'p99 ms':>7} "
              f"{'p99.9 ms':>8} {'max ms':>7} {'srv CPU µs/req':>14} {'gen cores':>9} {'gen lag p99':>11} {'conns':>5}")
    lines.append(header)
    failed = False
    summary = {}
    for n, run in runs.items():
        row = {}
        for server in ("seam", "nginx"):
            if server not in run:
                continue
            r = run[server]
            rl, u = r["reload"], r["usageDuringReload"]
            lat = rl["latency"]
            failed = failed or rl["errors"] > 0 or rl["notAnsweredAtEnd"] > 0
            cpu = u.get("serverCpuUsPerRequest")
            lines.append(f"  {n:>6} {server:<6} {rl['scheduledPerSecond']:>8.0f} {rl['okPerSecond']:>8.0f} {rl['errors']:>6} "
                         f"{lat['p50Ms']:>7.2f} {lat['p99Ms']:>7.2f} {lat['p999Ms']:>8.2f} {lat['maxMs']:>7.1f} "
                         f"{(f'{cpu:.0f}' if cpu is not None else '-'):>14} {u['generatorCoresBusy']:>9.2f} "
                         f"{rl['generatorTimerLag']['p99Ms']:>8.2f} ms {r['options']['connections']:>5}")
            row[server] = {"ok_per_s": rl["okPerSecond"], "errors": rl["errors"], "latency": lat,
                           "statuses": rl["statuses"], "failures": rl["failures"],
                           "server_cpu_us_per_request": cpu, "generator_cores_busy": u["generatorCoresBusy"],
                           "generator_timer_lag_p99_ms": rl["generatorTimerLag"]["p99Ms"],
                           "connection_queue_wait_p99_ms": rl["connectionQueueWait"]["p99Ms"],
                           "seconds_with_answer_over_slo": rl["secondsWithAnswerOverSlo"], "over_slo": rl["overSlo"]}
            cpu_rows = {c["second"]: c for c in (r.get("cpuTimeline") or [])}
            slow = [b for b in (rl.get("timeline") or []) if b["overSlo"] > 0]
            if cpu_rows and slow:
                others_slow = [cpu_rows[b["second"]]["others"] for b in slow if b["second"] in cpu_rows]
                others_all = sorted(c["others"] for c in cpu_rows.values())
                worst = max(slow, key=lambda b: b["maxMs"])
                lines.append(f"  {'':>6} {'':<6} {len(slow)} s had answers over {r['options']['sloMs']:g} ms (worst: second {worst['second']}, "
                             f"{worst['maxMs']:.0f} ms); other processes used {sum(others_slow) / max(1, len(others_slow)):.2f} cores "
                             f"in those seconds, median {others_all[len(others_all) // 2]:.2f} over the run")
                row["outlier_seconds"] = [dict(b, others_cores=cpu_rows.get(b["second"], {}).get("others")) for b in slow]
            if rl["errors"]:
                lines.append(f"  {'':>6} {'':<6} errors: statuses {rl['statuses']} failures {rl['failures']}")
        if "nginx" in row:
            s, g = row["seam"]["latency"], row["nginx"]["latency"]
            row["ratio"] = {k: ratio(s[k], g[k]) for k in ("p50Ms", "p99Ms", "p999Ms")}
            lines.append(f"  {n:>6} ratio seam/nginx latency: p50 {row['ratio']['p50Ms']:.1f}x, p99 {row['ratio']['p99Ms']:.1f}x, "
                         f"p99.9 {row['ratio']['p999Ms']:.1f}x; Seam p99 {s['p99Ms']:.2f} ms "
                         f"{'meets' if s['p99Ms'] < P99_TARGET_MS else 'MISSES'} the {P99_TARGET_MS:g} ms target")
        summary[n] = row
    lines.append("")

    lines.append("Origin playlist fetches per second during the reload phase (should not grow with N)")
    lines.append(f"  {'N':>6} {'seam_origin_playlist_fetches_total':>36} {'origin view (proxy log)':>24}")
    for n, run in runs.items():
        c = run["seam"]["counters"].get("seam_origin_playlist_fetches_total")
        counter = f"{c['perSecond']:.2f}/s ({c['delta']:.0f})" if c and c.get("present") else "absent from /metrics"
        tap = run.get("tap")
        view = f"{tap['playlists_per_s']:.2f}/s ({tap['window']['playlists']})" if tap else "no proxy (ORIGIN_TAP=0)"
        lines.append(f"  {n:>6} {counter:>36} {view:>24}")
        summary[n]["origin_fetches"] = {"counter": c, "proxy": tap}
    lines.append("")

    lines.append(f"Seam memory (VmRSS): per session = (RSS - RSS before any session) / N; target < {MEMORY_TARGET_BYTES} B beyond the shared cache")
    lines.append(f"  {'N':>6} {'before MiB':>10} {'created MiB':>11} {'end MiB':>8} {'B/session created':>17} {'B/session at end':>16}")
    for n, run in runs.items():
        snaps = run["seam"]["snapshots"]
        per = run["seam"]["serverRssPerSessionBytes"]
        mib = lambda k: snaps.get(k, {}).get("serverRssKiB", 0) / 1024
        lines.append(f"  {n:>6} {mib('beforeCreate'):>10.1f} {mib('afterCreate'):>11.1f} {mib('reloadEnd'):>8.1f} "
                     f"{per.get('afterCreate', float('nan')):>17.0f} {per.get('reloadEnd', float('nan')):>16.0f}")
        summary[n]["memory"] = {"rss_kib": {k: v.get("serverRssKiB") for k, v in snaps.items()}, "per_session_bytes": per}
    lines.append("")

    heaps = {n: (load(os.path.join(d, f"heap-{n}.json")) if os.path.exists(os.path.join(d, f"heap-{n}.json")) else None) for n in runs}
    if any(heaps.values()):
        lines.append("Seam heap in use (seam_heap_in_use_bytes: malloc'd and not freed, so freed memory malloc keeps is not counted)")
        lines.append(f"  {'N':>6} {'before MiB':>10} {'end MiB':>8} {'B/session':>10}")
        for n, heap in heaps.items():
            if not heap or heap.get("before") is None or heap.get("end") is None:
                lines.append(f"  {n:>6} {'absent':>10}")
                continue
            per = (heap["end"] - heap["before"]) / int(n)
            lines.append(f"  {n:>6} {heap['before'] / 1048576:>10.1f} {heap['end'] / 1048576:>8.1f} {per:>10.0f}")
            summary[n].setdefault("memory", {})["heap_per_session_bytes"] = per
        lines.append("")

    lines.append("Session creation (POST /v1/sessions, bounded concurrency) and first multivariant GET")
    for n, run in runs.items():
        c, m = run["seam"]["create"], run["seam"]["firstManifest"]
        lines.append(f"  N={n}: {c['succeeded']}/{c['requested']} created at {c['perSecond']:.0f}/s with "
                     f"{run['seam']['options']['createConcurrency']} in flight, p50 {c['latency']['p50Ms']:.1f} ms, "
                     f"p99 {c['latency']['p99Ms']:.1f} ms, max {c['latency']['maxMs']:.1f} ms"
                     + (f", non-201 {c['statuses']} {c['failures']}" if c['succeeded'] != c['requested'] else "")
                     + f"; master GET p99 {m['latency']['p99Ms']:.1f} ms")
        summary[n]["create"] = {"created": c["succeeded"], "per_s": c["perSecond"], "latency": c["latency"]}
        for note in run["seam"]["notes"]:
            lines.append(f"  note (N={n}): {note}")
    lines.append("")
    m = meta["machine"]
    lines.append(f"Machine: {m['nproc']} cores, {m['cpu']}, Linux {m['kernel']}, {m['mem']}; the generator (1 event-loop thread), "
                 f"Seam and nginx share them")
    lines.append(f"Load average: {meta['loadavg']['start']} at the start, {meta['loadavg']['end']} at the end")
    lines.append(f"Versions: {meta['versions']}")
    lines.append(f"Command: {meta['command']}")
    if failed:
        lines.append("ERRORS: a run had non-2xx answers, timeouts or unanswered requests (see the rows above)")
    print("\n".join(lines))
    with open(os.path.join(d, "results.json"), "w") as f:
        json.dump({"meta": meta, "runs": summary}, f, indent=2, default=str)
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
