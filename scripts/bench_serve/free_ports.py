#!/usr/bin/env python3
"""Print N distinct free TCP ports on 127.0.0.1, one per line (held open together, then released).

    free_ports.py N            ports the kernel picks (its ephemeral range)
    free_ports.py N LOW HIGH   ports from LOW..HIGH, below the ephemeral range, so a script running
                               beside others that take the kernel's picks cannot be given the same
                               port between its pick and its bind (.ci/run's OpenAPI check)
"""
import random
import socket
import sys

count = int(sys.argv[1]) if len(sys.argv) > 1 else 1
low, high = (int(sys.argv[2]), int(sys.argv[3])) if len(sys.argv) > 3 else (0, 0)
sockets = []
try:
    candidates = random.sample(range(low, high + 1), high - low + 1) if high else []
    while len(sockets) < count:
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if high:
            if not candidates:
                sys.exit(f"free_ports.py: no {count} free ports between {low} and {high}")
            try:
                s.bind(("127.0.0.1", candidates.pop()))
            except OSError:
                s.close()
                continue
        else:
            s.bind(("127.0.0.1", 0))
        sockets.append(s)
    for s in sockets:
        print(s.getsockname()[1])
finally:
    for s in sockets:
        s.close()
