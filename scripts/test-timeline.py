#!/usr/bin/env python3
"""Sums up a test timeline (SEAM_TEST_TIMELINE=FILE swift test; docs/testing.md).

    scripts/test-timeline.py FILE [TOP]

For each gate: how long something held it (the union of holds), how busy it was over the run,
and the TOP holders by time held, with how long each waited for its place. The browser gate
(`chromium`) is the suite's critical path when it is busy most of the run.
"""
import sys
from collections import defaultdict


def union_length(intervals):
    total, end = 0.0, None
    start = None
    for a, b in sorted(intervals):
        if end is None or a > end:
            if end is not None:
                total += end - start
            start, end = a, b
        else:
            end = max(end, b)
    if end is not None:
        total += end - start
    return total


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 15
    rows = []
    with open(sys.argv[1]) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 5:
                continue
            asked, given, released = map(float, parts[:3])
            rows.append((asked, given, released, parts[3], parts[4]))
    if not rows:
        print("no holds recorded")
        return 1
    run_end = max(r[2] for r in rows)
    by_gate = defaultdict(list)
    for r in rows:
        by_gate[r[3]].append(r)
    for gate, holds in sorted(by_gate.items()):
        busy = union_length([(g, e) for _, g, e, _, _ in holds])
        first = min(g for _, g, _, _, _ in holds)
        last = max(e for _, _, e, _, _ in holds)
        print(f"{gate}: {len(holds)} holds, held {busy:.0f} s of the run's {run_end:.0f} s "
              f"(first at {first:.0f} s, last released at {last:.0f} s)")
        per_test = defaultdict(lambda: [0.0, 0.0, 0])
        for asked, given, released, _, test in holds:
            per_test[test][0] += released - given
            per_test[test][1] += given - asked
            per_test[test][2] += 1
        for test, (held, waited, n) in sorted(per_test.items(), key=lambda kv: -kv[1][0])[:top]:
            times = f" x{n}" if n > 1 else ""
            print(f"  {held:7.1f} s held, {waited:6.1f} s waited{times}  {test[:140]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
