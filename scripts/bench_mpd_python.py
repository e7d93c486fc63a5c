#!/usr/bin/env python3
"""Baseline for scripts/bench-dash.sh: Python mpegdash parse + write of the same MPD.
Prints one JSON line like the Swift benchmark."""
import json
import os
import sys
import time

import mpegdash
from mpegdash.parser import MPEGDASHParser

path = sys.argv[1]
seconds = float(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[2] == "--seconds" else 2.0
with open(path) as f:
    text = f.read()


def parse_and_serialize():
    return len(MPEGDASHParser.get_as_doc(MPEGDASHParser.parse(text)).toxml())


assert parse_and_serialize() > len(text) // 2
batch = 1
while True:
    start = time.perf_counter()
    for _ in range(batch):
        parse_and_serialize()
    if time.perf_counter() - start > 0.05:
        break
    batch *= 2
best = float("inf")
deadline = time.perf_counter() + seconds
while time.perf_counter() < deadline:
    start = time.perf_counter()
    for _ in range(batch):
        parse_and_serialize()
    best = min(best, (time.perf_counter() - start) / batch)
print(json.dumps({"file": os.path.basename(path), "bytes": len(text.encode()), "us_per_mpd": round(best * 1e6, 3),
                  "mb_per_s": round(len(text.encode()) / best / 1e6, 1), "mpegdash": "0.4.0"}))
