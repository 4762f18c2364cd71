#!/usr/bin/env python3
"""Speaks to an aria2-style JSON-RPC endpoint the way real clients do, for haul's end-to-end tests.

  rpc_client.py call URL [--method POST] [--body TEXT] [--header 'Name: value']...
      One HTTP request (http.client, so Host and Content-Type are exactly what is given);
      prints {"status", "headers" (lower-case names), "body", "json", "elapsed"} as one JSON line.
  rpc_client.py ws URL [--send TEXT]... [--seconds N] [--header 'Name: value']...
      A WebSocket client (websocket-client, the library aria2p uses): prints OPEN, sends each
      message, then prints every text message it receives, one per line, until N seconds
      have passed or standard input closes.
"""
import argparse
import http.client
import json
import select
import sys
import time
import urllib.parse


def call(args):
    url = urllib.parse.urlsplit(args.url)
    target = url.path + ("?" + url.query if url.query else "")
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=args.timeout)
    headers = [tuple(part.strip() for part in h.split(":", 1)) for h in args.header]
    names = {name.lower() for name, _ in headers}
    connection.putrequest(args.method, target, skip_host=True, skip_accept_encoding=True)
    if "host" not in names:
        connection.putheader("Host", url.netloc)
    for name, value in headers:
        connection.putheader(name, value)
    body = args.body.encode() if args.body is not None else None
    if body is not None:
        connection.putheader("Content-Length", str(len(body)))
    started = time.monotonic()
    connection.endheaders(body)
    response = connection.getresponse()
    text = response.read().decode("utf-8", "replace")
    elapsed = time.monotonic() - started
    try:
        parsed = json.loads(text)
    except ValueError:
        parsed = None
    print(json.dumps({
        "status": response.status,
        "headers": {name.lower(): value for name, value in response.getheaders()},
        "body": text,
        "json": parsed,
        "elapsed": elapsed,
    }), flush=True)


def ws(args):
    import websocket

    socket = websocket.create_connection(args.url, timeout=args.timeout, header=args.header)
    print("OPEN", flush=True)
    for message in args.send:
        socket.send(message)
    socket.settimeout(0.1)
    deadline = time.monotonic() + args.seconds
    while time.monotonic() < deadline:
        ready, _, _ = select.select([sys.stdin], [], [], 0)
        if ready and not sys.stdin.readline():
            break
        try:
            message = socket.recv()
        except websocket.WebSocketTimeoutException:
            continue
        except websocket.WebSocketConnectionClosedException:
            print("CLOSED", flush=True)
            return
        print(message if isinstance(message, str) else message.decode(), flush=True)
    socket.close()


def main():
    parser = argparse.ArgumentParser()
    commands = parser.add_subparsers(dest="command", required=True)
    one = commands.add_parser("call")
    one.add_argument("url")
    one.add_argument("--method", default="POST")
    one.add_argument("--body")
    one.add_argument("--header", action="append", default=[])
    one.add_argument("--timeout", type=float, default=20)
    stream = commands.add_parser("ws")
    stream.add_argument("url")
    stream.add_argument("--send", action="append", default=[])
    stream.add_argument("--header", action="append", default=[])
    stream.add_argument("--seconds", type=float, default=30)
    stream.add_argument("--timeout", type=float, default=10)
    args = parser.parse_args()
    call(args) if args.command == "call" else ws(args)


if __name__ == "__main__":
    main()
