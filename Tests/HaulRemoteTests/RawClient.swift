import Foundation
import HaulTestSupport

/// An attacker at the socket level, in Python: pipelines requests it never reads, or holds idle connections.
/// Every line it prints is `WORD value...`.
enum RawClient {
    /// Starts the script in `mode` against 127.0.0.1:`port`.
    static func start(_ mode: String, port: Int, options: [String] = [], in directory: TemporaryDirectory) throws
        -> HaulProcess
    {
        let script = directory.file("raw_client.py")
        if !FileManager.default.fileExists(atPath: script) {
            try Data(source.utf8).write(to: URL(fileURLWithPath: script))
        }
        return try HaulProcess(
            URL(fileURLWithPath: "/usr/bin/env"), arguments: ["python3", script, mode, String(port)] + options,
            input: .pipe)
    }

    static let source = #"""
        import select, socket, sys, time

        mode, port = sys.argv[1], int(sys.argv[2])
        options = dict(zip(sys.argv[3::2], sys.argv[4::2]))

        def say(*words):
            print(*words, flush=True)

        def wait_for_stdin_to_close(seconds):
            select.select([sys.stdin], [], [], seconds)

        if mode == "unread":
            # Pipelined POSTs, sent as fast as the server takes them; replies are never read.
            body = b"x" * int(options["--body"])
            request = (b"POST /jsonrpc HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Length: %d\r\n\r\n" % (port, len(body))) + body
            s = socket.create_connection(("127.0.0.1", port))
            s.setblocking(False)
            data = request * int(options["--count"])
            sent = 0
            deadline = time.monotonic() + float(options["--seconds"])
            while sent < len(data) and time.monotonic() < deadline:
                _, writable, _ = select.select([], [s], [], 0.05)
                if writable:
                    try:
                        sent += s.send(data[sent:sent + 65536])
                    except BlockingIOError:
                        pass
                    except OSError:
                        break
            say("sent", sent // len(request))
            wait_for_stdin_to_close(60)
        elif mode == "unread-then-read":
            # Pipelined POSTs whose answers are --reply bytes each (port 0 with --unix PATH: the Unix socket).
            # No answer is read until a line arrives on stdin; then every one is, and their number is reported.
            count = int(options["--count"])
            body = b"large:%d" % int(options["--reply"])
            if "--unix" in options:
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                address, host = options["--unix"], b"localhost"
            else:
                s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                address, host = ("127.0.0.1", port), b"127.0.0.1:%d" % port
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
            s.connect(address)
            request = (b"POST /jsonrpc HTTP/1.1\r\nHost: %s\r\nContent-Length: %d\r\n\r\n" % (host, len(body))) + body
            s.sendall(request * count)
            say("sent", count)
            sys.stdin.readline()
            s.settimeout(30)
            pending = bytearray()
            answers = 0
            def receive():
                chunk = s.recv(1 << 20)
                pending.extend(chunk)
                return len(chunk) > 0
            try:
                while answers < count:
                    end = pending.find(b"\r\n\r\n")
                    if end < 0:
                        if not receive():
                            break
                        continue
                    head = pending[:end].decode("latin-1").lower().split("\r\n")
                    length = int(next(line.split(":", 1)[1] for line in head if line.startswith("content-length:")))
                    while len(pending) < end + 4 + length:
                        if not receive():
                            raise EOFError
                    del pending[:end + 4 + length]
                    answers += 1
            except (EOFError, OSError):
                pass
            say("answers", answers)
            wait_for_stdin_to_close(60)
        elif mode == "idle":
            # Connections that send nothing; reports how many the server closed at once.
            sockets = [socket.create_connection(("127.0.0.1", port)) for _ in range(int(options["--count"]))]
            closed = 0
            for s in sockets:
                readable, _, _ = select.select([s], [], [], 0.5)
                if readable and s.recv(1) == b"":
                    closed += 1
            say("closed", closed)
            wait_for_stdin_to_close(60)
        """#
}
