#!/usr/bin/env python3
"""Hostile and legitimate JSON-RPC clients for haul's hostile-client tests. Each attack runs until standard
input closes (or 60 s), after printing one line that says it is under way.

  hostile_client.py nesting URL --depth N --workers W
      W connections POST, as a web page can (text/plain, a foreign Origin), arrays nested N deep, in a loop.
      Prints ATTACKING once every worker has had an answer.
  hostile_client.py unread URL --batches B --calls C
      One connection pipelines B batches of C system.listMethods calls and never reads a reply.
      Prints SENT k (batches the server took within 5 s).
  hostile_client.py idle URL --count N
      N connections that send nothing. Prints OPEN n CLOSED c (c closed by the server, waiting a second for more).
  hostile_client.py probe URL --token T [--unix PATH] [--count N]
      N aria2.getVersion calls one after another (over the Unix socket with --unix).
      Prints {"statuses": [...], "max": seconds} as one JSON line.
"""
import argparse
import http.client
import json
import resource
import select
import socket
import sys
import threading
import time
import urllib.parse


def hold():
    select.select([sys.stdin], [], [], 60)


def address(url):
    parts = urllib.parse.urlsplit(url)
    return parts.hostname, parts.port


def nesting(args):
    body = ("[" * args.depth + "]" * args.depth).encode()
    stop = threading.Event()
    answered = threading.Barrier(args.workers + 1)

    def worker():
        first = True
        while not stop.is_set():
            try:
                connection = http.client.HTTPConnection(*address(args.url), timeout=30)
                connection.request("POST", "/jsonrpc", body, {"Content-Type": "text/plain", "Origin": "http://evil.example"})
                connection.getresponse().read()
                connection.close()
            except OSError:
                pass
            if first:
                first = False
                answered.wait()

    for _ in range(args.workers):
        threading.Thread(target=worker, daemon=True).start()
    answered.wait()
    print("ATTACKING", flush=True)
    hold()
    stop.set()


def unread(args):
    call = '{"jsonrpc":"2.0","id":1,"method":"system.listMethods"}'
    body = ("[" + ",".join([call] * args.calls) + "]").encode()
    host, port = address(args.url)
    request = b"POST /jsonrpc HTTP/1.1\r\nHost: %s:%d\r\nContent-Length: %d\r\n\r\n" % (host.encode(), port, len(body)) + body
    s = socket.create_connection((host, port))
    s.setblocking(False)
    data = request * args.batches
    sent = 0
    deadline = time.monotonic() + 5
    while sent < len(data) and time.monotonic() < deadline:
        _, writable, _ = select.select([], [s], [], 0.05)
        if writable:
            try:
                sent += s.send(data[sent:sent + 65536])
            except BlockingIOError:
                pass
            except OSError:
                break
    print("SENT", sent // len(request), flush=True)
    hold()


def idle(args):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    sockets = []
    for _ in range(args.count):
        try:
            sockets.append(socket.create_connection(address(args.url), timeout=5))
        except OSError:
            pass
    # Every socket at once (select() cannot take descriptors past 1023): those the server closed read as EOF.
    poller = select.poll()
    by_fd = {s.fileno(): s for s in sockets}
    for fd in by_fd:
        poller.register(fd, select.POLLIN)
    closed = 0
    while True:
        events = poller.poll(1000)
        if not events:
            break
        for fd, _ in events:
            poller.unregister(fd)
            try:
                if by_fd[fd].recv(1) == b"":
                    closed += 1
            except OSError:
                closed += 1
    print("OPEN", len(sockets), "CLOSED", closed, flush=True)
    hold()


class UnixConnection(http.client.HTTPConnection):
    def __init__(self, path):
        super().__init__("localhost", timeout=10)
        self.path = path

    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(10)
        self.sock.connect(self.path)


def probe(args):
    body = json.dumps({"jsonrpc": "2.0", "id": "p", "method": "aria2.getVersion", "params": ["token:" + args.token]})
    statuses, slowest = [], 0.0
    for _ in range(args.count):
        connection = UnixConnection(args.unix) if args.unix else http.client.HTTPConnection(*address(args.url), timeout=10)
        started = time.monotonic()
        try:
            connection.request("POST", "/jsonrpc", body.encode(), {"Content-Type": "application/json"})
            response = connection.getresponse()
            response.read()
            statuses.append(response.status)
        except OSError as error:
            statuses.append(str(error))
        slowest = max(slowest, time.monotonic() - started)
        connection.close()
    print(json.dumps({"statuses": statuses, "max": slowest}), flush=True)


def main():
    parser = argparse.ArgumentParser()
    commands = parser.add_subparsers(dest="command", required=True)
    one = commands.add_parser("nesting")
    one.add_argument("url")
    one.add_argument("--depth", type=int, default=500)
    one.add_argument("--workers", type=int, default=8)
    one = commands.add_parser("unread")
    one.add_argument("url")
    one.add_argument("--batches", type=int, default=40)
    one.add_argument("--calls", type=int, default=17500)
    one = commands.add_parser("idle")
    one.add_argument("url")
    one.add_argument("--count", type=int, default=1100)
    one = commands.add_parser("probe")
    one.add_argument("url")
    one.add_argument("--token", default="")
    one.add_argument("--unix")
    one.add_argument("--count", type=int, default=5)
    args = parser.parse_args()
    {"nesting": nesting, "unread": unread, "idle": idle, "probe": probe}[args.command](args)


if __name__ == "__main__":
    main()
