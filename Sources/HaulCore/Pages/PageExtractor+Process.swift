import Foundation

/// Running yt-dlp: its environment, its pipes read on dispatch threads, its end waited for through the termination
/// handler, a watchdog for its time limit.
extension PageExtractor {
    struct Output {
        var status: Int32
        var stdout: [UInt8]
        var stderr: [UInt8]
        var overflow: Bool
    }

    /// How long the reads are waited for once yt-dlp ended: a child it left behind may hold its output open.
    static let drainGrace: Duration = .seconds(2)

    /// haul's environment with the task's proxies in place of its own: yt-dlp reads them there, and the environment,
    /// unlike the arguments, is not shown to other users (a proxy's login stays private).
    static func environment(proxies: ProxySettings?) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        guard let proxies else { return environment }
        for name in ["http_proxy", "https_proxy", "all_proxy", "no_proxy"] {
            environment[name] = nil
            environment[name.uppercased()] = nil
        }
        environment["http_proxy"] = proxies.http
        environment["https_proxy"] = proxies.https
        environment["no_proxy"] = proxies.noProxy
        return environment
    }

    func run(arguments: [String], environment: [String: String]) async -> Result<Output, Failure> {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let drained = AsyncStream<Drained>.makeStream()
        let status: Int32
        do {
            let end = try await BoundedProcess.run(process, timeout: timeout) { pid in
                // Our copies of the write ends: the reads end when yt-dlp closes its own.
                try? output.fileHandleForWriting.close()
                try? errors.fileHandleForWriting.close()
                Self.drain(output.fileHandleForReading, .stdout, limit: Self.outputLimit, killing: pid, into: drained.continuation)
                Self.drain(errors.fileHandleForReading, .stderr, limit: Self.errorLimit, killing: nil, into: drained.continuation)
            }
            guard case let .exited(code) = end else { return .failure(.timedOut(timeout)) }
            status = code
        } catch {
            return .failure(.cannotStart("\(executable) could not start: \(error.localizedDescription)"))
        }
        let grace = Task {
            try? await Task.sleep(for: Self.drainGrace)
            drained.continuation.finish()
        }
        var results: [Channel: Drained] = [:]
        for await piece in drained.stream {
            results[piece.channel] = piece
            if results.count == 2 { break }
        }
        grace.cancel()
        guard let out = results[.stdout] else {
            return .failure(.unreadable("a process yt-dlp started still holds its output"))
        }
        return .success(Output(status: status, stdout: out.bytes, stderr: results[.stderr]?.bytes ?? [], overflow: out.overflow))
    }

    enum Channel: Sendable, Hashable {
        case stdout, stderr
    }

    /// What one pipe gave.
    struct Drained: Sendable {
        var channel: Channel
        var bytes: [UInt8]
        var overflow: Bool
    }

    /// Reads `handle` to its end on a dispatch thread, keeping at most `limit` bytes: past it, `pid` is killed (when
    /// given) and the rest is read and dropped; without one, the last `limit` bytes are kept. Yields what it read.
    private static func drain(
        _ handle: FileHandle, _ channel: Channel, limit: Int, killing pid: Int32?, into sink: AsyncStream<Drained>.Continuation
    ) {
        DispatchQueue.global().async {
            let descriptor = handle.fileDescriptor
            var bytes: [UInt8] = []
            var overflow = false
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                if overflow { continue }
                bytes += buffer[0..<count]
                if bytes.count > limit {
                    if let pid {
                        overflow = true
                        bytes = []
                        kill(pid, SIGKILL)
                    } else {
                        bytes.removeFirst(bytes.count - limit)
                    }
                }
            }
            try? handle.close()
            sink.yield(Drained(channel: channel, bytes: bytes, overflow: overflow))
        }
    }
}
