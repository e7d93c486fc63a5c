#!/usr/bin/env python3
"""Summarise a bench-live.sh results directory: a table on stdout and results.json.

Usage: report.py RESULTS_DIR
Reads seam-<N>.json and nginx-<N>.json (LiveLoadBenchmark output), tap-<N>.json (tap_count.py,
optional) and meta.json; with TOPOLOGIES, topology-<store>x<replicas>-<N>.json and its .meta.json and
.tap.json (the configurations behind nginx). Exits 1 when a run had errors (non-2xx, timeouts, closed connections).
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


def topology_section(d, runs, summary):
    """The configurations behind nginx (bench-live.sh TOPOLOGIES): latency next to the in-memory single
    replica of the same N, store queries per reload, PostgreSQL's own count, where the CPU went."""
    files = sorted(glob.glob(os.path.join(d, "topology-*-*.json")))
    files = [p for p in files if re.search(r"topology-([a-z-]+)x(\d+)-(\d+)\.json$", p)]
    if not files:
        return [], False
    lines, failed = [], False
    lines.append("Store and replicas: the same load through nginx (deploy/nginx/seam.conf, per-viewer affinity on "
                 "X-Forwarded-For; each session is a viewer of its own)")
    lines.append("  baseline = the in-memory single replica (seam demo, no balancer) of the same N above; "
                 "ratio = this configuration's latency / the baseline's")
    header = (f"  {'N':>6} {'config':<11} {'ok/s':>6} {'errors':>6} {'p50 ms':>7} {'p99 ms':>7} {'p99.9 ms':>8} "
              f"{'max ms':>7} {'ratio p50/p99/p99.9':>20} {'replicas µs/req':>15} {'gen lag p99':>11}")
    lines.append(header)
    detail = []
    for path in files:
        m = re.search(r"topology-([a-z-]+)x(\d+)-(\d+)\.json$", path)
        store, replicas, n = m.group(1), int(m.group(2)), int(m.group(3))
        tag = f"{store}x{replicas}"
        r = load(path)
        meta_path, tap_path = path[:-5] + ".meta.json", path[:-5] + ".tap.json"
        meta = load(meta_path) if os.path.exists(meta_path) else {}
        tap = load(tap_path) if os.path.exists(tap_path) else None
        rl, u = r["reload"], r["usageDuringReload"]
        lat = rl["latency"]
        ok = rl["ok"]
        failed = failed or rl["errors"] > 0 or rl["notAnsweredAtEnd"] > 0
        base = runs.get(n, {}).get("seam")
        ratios = {k: ratio(lat[k], base["reload"]["latency"][k]) for k in ("p50Ms", "p99Ms", "p999Ms")} if base else None
        cpu = u.get("serverCpuUsPerRequest")
        ratio_text = f"{ratios['p50Ms']:.1f}/{ratios['p99Ms']:.1f}/{ratios['p999Ms']:.1f}x" if ratios else "-"
        lines.append(f"  {n:>6} {tag:<11} {rl['okPerSecond']:>6.0f} {rl['errors']:>6} {lat['p50Ms']:>7.2f} {lat['p99Ms']:>7.2f} "
                     f"{lat['p999Ms']:>8.2f} {lat['maxMs']:>7.1f} {ratio_text:>20} {(f'{cpu:.0f}' if cpu is not None else '-'):>15} "
                     f"{rl['generatorTimerLag']['p99Ms']:>8.2f} ms")
        if rl["errors"]:
            lines.append(f"  {'':>6} {'':<11} errors: statuses {rl['statuses']} failures {rl['failures']}")
        cpu_rows = {c["second"]: c for c in (r.get("cpuTimeline") or [])}
        slow = [b for b in (rl.get("timeline") or []) if b["overSlo"] > 0]
        if cpu_rows and slow:
            others_all = sorted(c["others"] for c in cpu_rows.values())
            worst = max(slow, key=lambda b: b["maxMs"])
            lines.append(f"  {'':>6} {'':<11} {len(slow)} s had answers over {r['options']['sloMs']:g} ms (worst: second {worst['second']}, "
                         f"{worst['maxMs']:.0f} ms); processes other than the replicas and the generator (nginx, PostgreSQL, "
                         f"anything else) used a median {others_all[len(others_all) // 2]:.2f} cores over the run")
        row = {"store": store, "replicas": replicas, "ok_per_s": rl["okPerSecond"], "reloads_answered": ok,
               "errors": rl["errors"], "latency": lat, "ratio_to_memory_single": ratios,
               "replicas_cpu_us_per_request": cpu, "generator_timer_lag_p99_ms": rl["generatorTimerLag"]["p99Ms"],
               "statuses": rl["statuses"], "failures": rl["failures"]}

        out = [f"  N={n} {tag}:"]
        counters = r.get("counters", {})
        def delta(name):
            c = counters.get(name)
            return c["delta"] if c and c.get("present") else None
        queries = delta("seam_store_queries_total")
        per = lambda x: x / ok if (x is not None and ok) else None
        if queries is not None:
            out.append(f"    store queries (seam_store_queries_total, all replicas): {queries:.0f} in the window, "
                       f"{per(queries):.3f} per reload answered ({ok})")
            series = r.get("series") or {}
            by = sorted(((k, v["delta"]) for k, v in series.items() if k.startswith("seam_store_queries_total") and v.get("delta")),
                        key=lambda kv: -kv[1])
            for key, value in by:
                labels = key[len("seam_store_queries_total"):]
                out.append(f"      {labels:<60} {value:>8.0f}  {value / ok if ok else float('nan'):.3f}/reload")
            hits = sum(v["delta"] or 0 for k, v in series.items() if k.startswith("seam_store_cache_lookups_total") and 'hit' in k)
            misses = sum(v["delta"] or 0 for k, v in series.items() if k.startswith("seam_store_cache_lookups_total") and 'miss' in k)
            writes = sorted((k[len("seam_store_live_writes_total"):], v["delta"] or 0) for k, v in series.items()
                            if k.startswith("seam_store_live_writes_total"))
            if writes:
                out.append("    live records written (seam_store_live_writes_total): "
                           + ", ".join(f"{labels} {value:.0f}" for labels, value in writes))
            if hits or misses:
                out.append(f"    cache lookups: {hits:.0f} hits, {misses:.0f} misses ({per(hits):.3f} / {per(misses):.3f} per reload; "
                           f"hit ratio {hits / (hits + misses):.3f})")
            row["store_queries"] = {"total": queries, "per_reload": per(queries),
                                    "by_series": {k: v for k, v in by}, "cache_hits": hits, "cache_misses": misses}
        snaps = r["snapshots"]
        ext = {}
        for key in ("reloadStart", "reloadEnd"):
            try:
                ext[key] = json.loads(snaps.get(key, {}).get("external") or "null")
            except ValueError:
                ext[key] = None
        a, b = ext.get("reloadStart") or {}, ext.get("reloadEnd") or {}
        pa, pb = a.get("postgres") or {}, b.get("postgres") or {}
        if "xact_commit" in pa and "xact_commit" in pb:
            # The start snapshot's own psql session is counted in the end's: two transactions (its
            # connection's start-up and the SELECT; two snapshots back to back differ by 2).
            commits = pb["xact_commit"] - pa["xact_commit"] - 2
            tup = {k: pb[k] - pa[k] for k in pb if k.startswith("tup_") and k in pa}
            out.append(f"    PostgreSQL's view (pg_stat_database, published about once a second): {commits} transactions committed, "
                       f"{per(commits):.3f} per reload; rollbacks {pb['xact_rollback'] - pa['xact_rollback']}; rows inserted "
                       f"{tup.get('tup_inserted', 0)}, updated {tup.get('tup_updated', 0)}, deleted {tup.get('tup_deleted', 0)}, "
                       f"fetched {tup.get('tup_fetched', 0)}")
            row["postgres"] = {"xact_commit": commits, "xact_commit_per_reload": per(commits), "tuples": tup,
                               "xact_rollback": pb["xact_rollback"] - pa["xact_rollback"]}
        elif store.startswith("postgres"):
            out.append(f"    PostgreSQL's view: not read ({pa.get('error') or pb.get('error') or 'no snapshot'})")
        ca, cb = a.get("cpu_s") or {}, b.get("cpu_s") or {}
        seconds = rl["measuredSeconds"] or 1
        cpu_parts = []
        for name in ("postgres", "front", "upstreams"):
            if ca.get(name) is not None and cb.get(name) is not None:
                used = cb[name] - ca[name]
                cpu_parts.append(f"{name} {used / seconds:.2f} cores ({used * 1e6 / max(1, ok):.0f} µs/reload)")
                row.setdefault("cpu", {})[name] = {"seconds": used, "us_per_reload": used * 1e6 / max(1, ok)}
        if u.get("serverCoresBusy") is not None:
            cpu_parts.insert(0, f"replicas {u['serverCoresBusy']:.2f} cores ({cpu:.0f} µs/reload)")
        if cpu_parts:
            out.append("    CPU during the window: " + ", ".join(cpu_parts) + f"; generator {u['generatorCoresBusy']:.2f} cores")
        pages_a, pages_b = snaps.get("reloadStart", {}).get("pages") or {}, snaps.get("reloadEnd", {}).get("pages") or {}
        split = {}
        for page in pages_b:
            before, after = pages_a.get(page, {}), pages_b[page]
            if "seam_http_requests_total" in after and "seam_http_requests_total" in before:
                split[page] = after["seam_http_requests_total"] - before["seam_http_requests_total"]
        if split:
            total = sum(split.values()) or 1
            out.append("    requests per replica (seam_http_requests_total): " +
                       ", ".join(f"{p.replace('http://', '').replace('/metrics', '')} {v:.0f} ({100 * v / total:.0f}%)" for p, v in split.items()))
            row["requests_per_replica"] = split
        fetches = delta("seam_origin_playlist_fetches_total")
        if fetches is not None:
            out.append(f"    origin playlist fetches: {fetches / seconds:.2f}/s (all replicas' counters)"
                       + (f", {tap['playlists_per_s']:.2f}/s in the origin's log" if tap else ""))
            row["origin_fetches_per_s"] = fetches / seconds
        c, mf = r.get("create"), r.get("firstManifest")
        if c:
            base_c = base["create"] if base else None
            out.append(f"    sessions: {c['succeeded']}/{c['requested']} created at {c['perSecond']:.0f}/s, p50 {c['latency']['p50Ms']:.1f} ms, "
                       f"p99 {c['latency']['p99Ms']:.1f} ms" + (f" (baseline {base_c['perSecond']:.0f}/s, p99 {base_c['latency']['p99Ms']:.1f} ms)" if base_c else "")
                       + (f"; master GET p99 {mf['latency']['p99Ms']:.1f} ms" if mf else "")
                       + (f"; {meta['session_rows']} rows in seam_sessions at the end" if meta.get("session_rows") is not None else ""))
            row["create"] = {"created": c["succeeded"], "per_s": c["perSecond"], "latency": c["latency"]}
        per_rss = r.get("serverRssPerSessionBytes", {}).get("reloadEnd")
        if meta.get("heap_before") is not None and meta.get("heap_end") is not None:
            heap = (meta["heap_end"] - meta["heap_before"]) / n
            out.append(f"    memory: heap {heap:.0f} B per session (all replicas), RSS {per_rss:.0f} B per session at the end")
            row["heap_per_session_bytes"] = heap
        for note in r.get("notes", []):
            out.append(f"    note: {note}")
        detail += out
        summary.setdefault(n, {}).setdefault("topologies", {})[tag] = row
    return lines + detail + [""], failed


def breaks_section(d, runs, summary):
    """Breaks decided during each run (Seam's seam_avails_total, kind live: one per session and
    break) and the ad server's view of the requests (its access log: the total and the busiest second)."""
    rows = []
    for n in runs:
        # breaks-seam-N (the single replica) first, then breaks-<store>x<replicas>-N.
        names = sorted((f[len("breaks-"):-len(f"-{n}.avails.json")], f[:-len(".avails.json")])
                       for f in os.listdir(d) if f.startswith("breaks-") and f.endswith(f"-{n}.avails.json"))
        names.sort(key=lambda item: item[0] != "seam")
        for name, prefix in names:
            avails_path, log_path = os.path.join(d, prefix + ".avails.json"), os.path.join(d, prefix + ".adlog.json")
            if not os.path.exists(avails_path):
                continue
            a = load(avails_path)
            log = load(log_path) if os.path.exists(log_path) else None
            rows.append((n, name, a, log))
            entry = summary[n].setdefault("breaks", {})
            entry[name] = {"decisions": a, "ad_server": {k: v for k, v in (log or {}).items() if k != "per_second"}}
    if not rows:
        return []
    lines = ["Breaks decided (seam_avails_total{kind=\"live\"}: one per session and break, whole run) and the ad server's view (its access log)"]
    lines.append(f"  {'N':>6} {'server':<12} {'decided':>8} {'with ads':>9} {'empty by reason':<34} {'prefetched':>10} {'ad requests':>11} {'busiest s':>9}")
    for n, name, a, log in rows:
        share = f"{a['filled_share'] * 100:.1f} %" if a.get("filled_share") is not None else "-"
        reasons = ", ".join(f"{k} {v}" for k, v in sorted(a["empty_reasons"].items(), key=lambda kv: -kv[1])) or "none"
        prefetched = sum(a["prefetched"].values())
        requests = f"{log['requests']}" if log else "-"
        busiest = f"{log['busiest_second_requests']}" if log else "-"
        lines.append(f"  {n:>6} {name:<12} {a['decided']:>8} {share:>9} {reasons:<34} {prefetched:>10} {requests:>11} {busiest:>9}")
    return lines


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
            closed = {k: v["delta"] for k, v in (r.get("series") or {}).items()
                      if k.startswith("seam_http_connections_closed_total") and v.get("delta")}
            if closed:
                lines.append(f"  {'':>6} {'':<6} connections Seam closed itself: {closed}")
                row["connections_closed"] = closed
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

    decision_lines = breaks_section(d, runs, summary)
    if decision_lines:
        lines += decision_lines + [""]

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
    topology_lines, topology_failed = topology_section(d, runs, summary)
    lines += topology_lines
    failed = failed or topology_failed
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
