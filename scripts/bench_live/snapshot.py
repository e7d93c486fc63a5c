#!/usr/bin/env python3
"""What PostgreSQL and the processes around Seam did, read at one moment: bench-live.sh hands this
to LiveLoadBenchmark as --snapshot-command, which runs it at the start and at the end of the
measured reload window and keeps its output in the snapshot, so the deltas cover exactly that window.

Usage: snapshot.py [--postgres URL] [--pid NAME=PID ...]
Prints one JSON object:
  "postgres": the database's row of pg_stat_database (xact_commit, xact_rollback, tup_*) for the
              database URL names. PostgreSQL publishes a backend's counts when it goes idle, at
              most once a second (up to 10 s later for a connection that stays idle), so the
              counts trail by about a second at both ends of the window.
  "cpu_s":    user + system CPU seconds of each PID and its child processes (PostgreSQL's
              backends are the postmaster's children, nginx's workers its master's).
"""
import json
import os
import subprocess
import sys
import time

COLUMNS = ("xact_commit", "xact_rollback", "tup_returned", "tup_fetched", "tup_inserted", "tup_updated", "tup_deleted")


def ticks(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            text = f.read()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()
    return int(fields[11]) + int(fields[12])


def children(pid):
    result = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return result
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children") as f:
                result += [int(word) for word in f.read().split()]
        except OSError:
            pass
    return result


def cpu_seconds(pid):
    own = ticks(pid)
    if own is None:
        return None
    total = own + sum(ticks(child) or 0 for child in children(pid))
    return total / os.sysconf("SC_CLK_TCK")


def postgres(url):
    database = url.rsplit("/", 1)[-1].split("?")[0]
    query = f"SELECT {', '.join(COLUMNS)} FROM pg_stat_database WHERE datname = '{database}'"
    out = subprocess.run(["psql", url, "-XAtq", "-F", " ", "-c", query], capture_output=True, text=True, timeout=10)
    if out.returncode != 0 or not out.stdout.strip():
        return {"error": out.stderr.strip()[:300]}
    return dict(zip(COLUMNS, (int(v) for v in out.stdout.split())))


def main():
    args = sys.argv[1:]
    result = {"epoch": time.time()}
    pids = {}
    while args:
        flag = args.pop(0)
        if flag == "--postgres":
            result["postgres"] = postgres(args.pop(0))
        elif flag == "--pid":
            name, pid = args.pop(0).split("=", 1)
            pids[name] = int(pid)
    result["cpu_s"] = {name: cpu_seconds(pid) for name, pid in pids.items()}
    print(json.dumps(result))


if __name__ == "__main__":
    main()
