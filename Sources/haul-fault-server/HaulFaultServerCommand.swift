import ArgumentParser
import FaultServer
#if canImport(Glibc)
import Glibc
#endif

/// `haul-fault-server`: the loopback fault server as a process, for the demo, benchmarks and manual tests.
struct HaulFaultServerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "haul-fault-server",
        abstract: "Serve scripted HTTP faults on 127.0.0.1.",
        discussion: """
            Any path under /gen/NAME takes its behaviour from the query, e.g.
              /gen/a.bin?size=64m&throttle=4m&drop=10m
            Parameters:
            \(FaultPlan.queryParameters)

            Any path under /hls/NAME serves a generated HLS stream (playlists, segments,
            key) whose faults come from the query, e.g.
              /hls/film/index.m3u8?segments=480&segsize=1m&conncap=4m&key=1&err=7:503:2
            Parameters:
            \(HLSPlan.queryParameters)
            """)

    @Option(help: "Port on 127.0.0.1 (0 picks a free one).")
    var port: UInt16 = 0

    @Option(help: "Write the bound port to this file once the server is ready (after the demo URLs are printed).")
    var portFile: String?

    @Option(help: "Stop after this many seconds.")
    var lifetime: Int = 600

    @Flag(help: "Serve the demo queue `make demo` opens and print its URLs, one per line after \"demo urls:\".")
    var demo = false

    func validate() throws {
        guard lifetime > 0 else { throw ValidationError("--lifetime must be a positive number of seconds, got \(lifetime).") }
    }

    func run() throws {
        // Block the stop signals before any server thread exists, so only `waitForStop` receives them.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)

        let server = try FaultServer(port: port, lifetime: .seconds(lifetime))
        var lines = ["listening on \(server.url(""))"]
        if demo {
            lines.append("demo urls:")
            lines += DemoQueue.install(on: server)
        }
        emit(lines)
        // Last, so a reader that waits for the port file finds the routes installed and the URLs printed.
        if let portFile { try writePortFile(portFile, port: server.port) }
        waitForStop(server, signals: signals)
        server.stop()
    }

    /// Returns on SIGINT, SIGTERM, or once the server has stopped at the end of its lifetime.
    private func waitForStop(_ server: FaultServer, signals: sigset_t) {
        var signals = signals
        var tick = timespec(tv_sec: 0, tv_nsec: 200_000_000)
        while !server.isStopped {
            if sigtimedwait(&signals, nil, &tick) > 0 { return }
        }
    }

    /// Writes lines to stdout at once (unbuffered), so a parent reading the pipe sees them immediately.
    private func emit(_ lines: [String]) {
        let text = Array(lines.map { $0 + "\n" }.joined().utf8)
        text.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = write(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
                if n <= 0 && errno != EINTR { return }
                offset += max(n, 0)
            }
        }
    }

    /// Writes the port through a temporary file and a rename, so readers never see a partial number.
    private func writePortFile(_ path: String, port: UInt16) throws {
        let temporary = path + ".tmp"
        let bytes = Array("\(port)\n".utf8)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw ValidationError("cannot write --port-file \(path): \(String(cString: strerror(errno)))") }
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard written == bytes.count, rename(temporary, path) == 0 else {
            throw ValidationError("cannot write --port-file \(path): \(String(cString: strerror(errno)))")
        }
    }
}
