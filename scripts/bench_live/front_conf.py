#!/usr/bin/env python3
"""deploy/nginx/seam.conf with its replicas and listen port mapped to loopback, for bench-live.sh.

Usage: front_conf.py SOURCE TARGET LISTEN_PORT REPLICA_PORT...
The file's `server seam-N:8080 <options>;` lines become one `server 127.0.0.1:<port> <options>;`
line per replica (the options, e.g. max_fails, kept as the file has them), `listen 8080;` becomes
the loopback port, and the realip source (compose's network) becomes 127.0.0.1, where the load
generator stands for the CDN; nothing else changes, so the load runs through the balancing as
deployed (scripts/run-topology.sh maps the same lines).
"""
import re
import sys


def main() -> None:
    source, target, listen, *ports = sys.argv[1:]
    text = open(source).read()
    servers = re.findall(r"^( *)server seam-\d+:8080( [^;]*)?;\n", text, re.M)
    if not servers or "listen 8080;" not in text or not ports:
        sys.exit(f"{source} no longer has the 'server seam-N:8080 ...;' and 'listen 8080;' lines bench-live.sh maps")
    indent, options = servers[0]
    lines = "".join(f"{indent}server 127.0.0.1:{port}{options};\n" for port in ports)
    first = re.search(r"^ *server seam-\d+:8080[^;]*;\n", text, re.M)
    head, tail = text[:first.start()], text[first.start():]
    tail = re.sub(r"^ *server seam-\d+:8080[^;]*;\n", "", tail, flags=re.M)
    text = head + lines + tail
    if "set_real_ip_from 172.28.0.0/16;" not in text:
        sys.exit(f"{source} no longer has the 'set_real_ip_from 172.28.0.0/16;' line bench-live.sh maps")
    text = text.replace("set_real_ip_from 172.28.0.0/16;", "set_real_ip_from 127.0.0.1;")
    with open(target, "w") as out:
        out.write(text.replace("listen 8080;", f"listen 127.0.0.1:{listen} backlog=4096;"))


if __name__ == "__main__":
    main()
