#!/usr/bin/env python3
"""A loopback HTTP server that records every request's headers, for haul's end-to-end tests.

  header_server.py LOG [--lifetime SECONDS]
Binds 127.0.0.1 on a free port and prints "PORT N". GET /NAME?size=N answers N bytes (default 4096)
of a fixed pattern; every request is appended to LOG as one JSON line {"path", "headers"}.
It exits by itself after the lifetime (default 120 s).
"""
import http.server
import json
import sys
import threading
import urllib.parse


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        size = int(urllib.parse.parse_qs(url.query).get("size", ["4096"])[0])
        with open(self.server.log, "a") as log:
            log.write(json.dumps({"path": url.path, "headers": dict(self.headers.items())}) + "\n")
        body = bytes(i % 251 for i in range(size))
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(size))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def main():
    lifetime = float(sys.argv[sys.argv.index("--lifetime") + 1]) if "--lifetime" in sys.argv else 120
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.log = sys.argv[1]
    print("PORT", server.server_address[1], flush=True)
    threading.Timer(lifetime, server.shutdown).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
