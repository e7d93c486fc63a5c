#!/usr/bin/env python3
"""Download a session's multivariant playlist and every media playlist it names into DIR.

Usage: playlists.py MASTER_URL DIR
Writes DIR/master.m3u8 and DIR/<name>.m3u8 for each media playlist (URI last path component),
and prints JSON: {"master": bytes, "media": {name: bytes}, "media_total": bytes}.
"""
import json
import os
import re
import sys
import urllib.parse
import urllib.request


def fetch(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as response:
        if response.status != 200:
            raise SystemExit(f"{url}: HTTP {response.status}")
        return response.read()


def media_uris(master: str) -> list[str]:
    uris, expect_uri = [], False
    for line in master.splitlines():
        line = line.strip()
        if line.startswith("#EXT-X-STREAM-INF"):
            expect_uri = True
        elif line.startswith("#EXT-X-MEDIA") or line.startswith("#EXT-X-I-FRAME-STREAM-INF"):
            m = re.search(r'URI="([^"]+)"', line)
            if m:
                uris.append(m.group(1))
        elif line and not line.startswith("#") and expect_uri:
            uris.append(line)
            expect_uri = False
    return list(dict.fromkeys(uris))


def main() -> None:
    master_url, out_dir = sys.argv[1], sys.argv[2]
    os.makedirs(out_dir, exist_ok=True)
    master = fetch(master_url)
    with open(os.path.join(out_dir, "master.m3u8"), "wb") as f:
        f.write(master)
    sizes = {}
    for uri in media_uris(master.decode("utf-8")):
        url = urllib.parse.urljoin(master_url, uri)
        name = os.path.basename(urllib.parse.urlparse(url).path)
        body = fetch(url)
        with open(os.path.join(out_dir, name), "wb") as f:
            f.write(body)
        sizes[name] = len(body)
    print(json.dumps({"master": len(master), "media": sizes, "media_total": sum(sizes.values())}))


if __name__ == "__main__":
    main()
