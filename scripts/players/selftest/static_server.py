#!/usr/bin/env python3
"""Serves a folder on 127.0.0.1 with CORS, for the player checks' self-test.

  static_server.py DIR

The harness's page is on another origin and plays with `<video crossorigin>`, so every answer
needs `Access-Control-Allow-Origin` (Python's `http.server` sends none). Prints
"Serving HTTP on 127.0.0.1 port N" on its first stdout line, as `http.server` does.
"""

import functools
import http.server
import sys


class CORSHandler(http.server.SimpleHTTPRequestHandler):
    def end_headers(self):
        self.send_header("Access-Control-Allow-Origin", "*")
        super().end_headers()

    def log_message(self, *args):
        pass


def main():
    handler = functools.partial(CORSHandler, directory=sys.argv[1])
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    print("Serving HTTP on 127.0.0.1 port %d" % server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
