import Foundation
import HaulTestSupport

/// A real WebSocket client for the tests: Python's `websocket-client` (the library aria2p uses), driven by a
/// small script with one mode per scenario. Every line it prints is `WORD value...`.
enum WebSocketClient {
    /// Starts the script in `mode` against `url`; `--host H` sets the Host header, `--unix PATH` goes through
    /// a Unix socket instead of TCP; `input: .pipe` for the modes that wait for a line on stdin.
    static func start(
        _ mode: String, url: String, options: [String] = [], input: HaulProcess.Input = .null,
        in directory: TemporaryDirectory
    ) throws -> HaulProcess {
        let script = directory.file("ws_client.py")
        if !FileManager.default.fileExists(atPath: script) {
            try Data(source.utf8).write(to: URL(fileURLWithPath: script))
        }
        return try HaulProcess(
            URL(fileURLWithPath: "/usr/bin/env"), arguments: ["python3", script, mode, url] + options, input: input)
    }

    /// The words after `word` on the first line that starts with it.
    static func field(_ word: String, in process: HaulProcess) -> [String]? {
        process.stdoutLines().first { $0.hasPrefix(word + " ") }.map { $0.split(separator: " ").dropFirst().map(String.init) }
    }

    static let source = #"""
        import socket, sys, time
        import websocket

        mode, url = sys.argv[1], sys.argv[2]
        options = dict(zip(sys.argv[3::2], sys.argv[4::2]))

        def say(*words):
            print(*words, flush=True)

        def connect(small_receive_buffer=False):
            kwargs = {"timeout": 20}
            if "--host" in options:
                kwargs["host"] = options["--host"]
            if "--origin" in options:
                if options["--origin"] == "none":
                    kwargs["suppress_origin"] = True
                else:
                    kwargs["origin"] = options["--origin"]
            if "--unix" in options:
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.settimeout(20)
                s.connect(options["--unix"])
                kwargs["socket"] = s
            elif small_receive_buffer:
                kwargs["sockopt"] = ((socket.SOL_SOCKET, socket.SO_RCVBUF, 65536),)
            return websocket.create_connection(url, **kwargs)

        def say_close(frame):
            data = frame.data
            say("close", frame.opcode, int.from_bytes(data[:2], "big") if len(data) >= 2 else 0)

        def close_handshake(ws):
            ws.send_close(websocket.STATUS_NORMAL)
            # The raw frame: recv_data would send a second close, racing the server's end of the connection.
            say_close(ws.recv_frame())
            ws.shutdown()

        if mode == "echo":
            ws = connect()
            ws.send('{"jsonrpc":"2.0","id":"1","method":"aria2.getVersion"}')
            say("reply", ws.recv())
            ws.send_binary(b'{"binary":1}')
            opcode, data = ws.recv_data()
            say("binary-reply", opcode, data.decode())
            ws.ping("p1")
            opcode, data = ws.recv_data(control_frame=True)
            say("pong", opcode, data.decode())
            started = time.monotonic()
            ws.send('{"params":["token:wrong"]}')
            reply = ws.recv()
            say("unauthorized", round(time.monotonic() - started, 3), reply)
            close_handshake(ws)
        elif mode == "listen":
            ws = connect()
            # Notifications go only to a client that has shown the secret.
            ws.send('{"params":["token:right"]}')
            ws.recv()
            say("ready")
            try:
                ws.settimeout(30)
                say("notification", ws.recv())
                close_handshake(ws)
            except Exception as error:
                say("gone", type(error).__name__)
        elif mode == "refused":
            try:
                connect()
                say("status", 101)
            except websocket.WebSocketBadStatusException as error:
                say("status", error.status_code)
        elif mode == "anonymous":
            ws = connect()
            say("ready")
            ws.settimeout(float(options.get("--seconds", "3")))
            try:
                say("notification", ws.recv())
            except websocket.WebSocketTimeoutException:
                say("silent")
        elif mode == "guess":
            ws = connect()
            for _ in range(int(options["--count"])):
                ws.send('{"params":["token:wrong"]}')
            answered = 0
            deadline = time.monotonic() + float(options["--seconds"])
            while time.monotonic() < deadline:
                ws.settimeout(max(0.01, deadline - time.monotonic()))
                try:
                    ws.recv()
                    answered += 1
                except websocket.WebSocketTimeoutException:
                    break
            say("answered", answered)
        elif mode == "fragments":
            ws = connect()
            piece = "a" * int(options["--piece"])
            ws.send_frame(websocket.ABNF.create_frame(piece, websocket.ABNF.OPCODE_TEXT, 0))
            for _ in range(int(options["--pieces"]) - 1):
                ws.send_frame(websocket.ABNF.create_frame(piece, websocket.ABNF.OPCODE_CONT, 0))
            ws.send_frame(websocket.ABNF.create_frame(piece, websocket.ABNF.OPCODE_CONT, 1))
            say_close(ws.recv_frame())
        elif mode == "unread-then-read":
            # Messages whose answers are --reply bytes each; none is read until a line arrives on stdin, then
            # every one is, and their number is reported.
            ws = connect(small_receive_buffer=True)
            count = int(options["--count"])
            for _ in range(count):
                ws.send("large:" + options["--reply"])
            say("sent", count)
            sys.stdin.readline()
            answers = 0
            try:
                while answers < count:
                    ws.recv()
                    answers += 1
            except Exception:
                pass
            say("answers", answers)
        elif mode == "big":
            ws = connect()
            ws.send("a" * int(options["--size"]))
            say_close(ws.recv_frame())
        """#
}
