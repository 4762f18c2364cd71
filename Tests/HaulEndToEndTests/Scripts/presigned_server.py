#!/usr/bin/env python3
"""A loopback stand-in for a presigned-URL store (S3's shape), for haul's end-to-end tests.

  presigned_server.py LOG --size N [--lifetime SECONDS]
Binds 127.0.0.1 on a free port and prints "PORT N". GET /ANY answers N bytes of a fixed pattern, with
ranges (206, one range), a strong ETag and keep-alive. Like S3 with a presigned URL, it refuses with 400 any
request that carries Authorization (or Cookie). Every request is appended to LOG as one JSON line
{"path", "headers"}. It exits by itself after the lifetime (default 120 s).
"""
import http.server
import json
import re
import sys
import threading


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        with open(self.server.log, "a") as log:
            log.write(json.dumps({"path": self.path, "headers": dict(self.headers.items())}) + "\n")
        size = self.server.size
        if "Authorization" in self.headers or "Cookie" in self.headers:
            body = b"<Error><Code>InvalidArgument</Code><Message>Only one auth mechanism allowed</Message></Error>"
            self.send_response(400)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        start, end = 0, size - 1
        match = re.fullmatch(r"bytes=(\d+)-(\d*)", self.headers.get("Range", ""))
        if match:
            start = int(match.group(1))
            end = min(int(match.group(2)), size - 1) if match.group(2) else size - 1
            self.send_response(206)
            self.send_header("Content-Range", "bytes %d-%d/%d" % (start, end, size))
        else:
            self.send_response(200)
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("ETag", '"presigned-%d"' % size)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(end - start + 1))
        self.end_headers()
        position = start
        while position <= end:
            chunk = min(65536, end - position + 1)
            self.wfile.write(bytes((i % 251) for i in range(position, position + chunk)))
            position += chunk

    def log_message(self, *args):
        pass


def main():
    lifetime = float(sys.argv[sys.argv.index("--lifetime") + 1]) if "--lifetime" in sys.argv else 120
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.log = sys.argv[1]
    server.size = int(sys.argv[sys.argv.index("--size") + 1])
    print("PORT", server.server_address[1], flush=True)
    threading.Timer(lifetime, server.shutdown).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
