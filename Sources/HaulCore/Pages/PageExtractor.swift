import Foundation

/// Asks yt-dlp what a web page holds (DESIGN §11, TECH_NOTES §I.4): `yt-dlp -J --no-warnings -- URL`, no download,
/// without a shell, for at most `timeout`, its output read up to `outputLimit`. Runs off the controller actor and the
/// engine thread: the process is waited for through its termination handler and its pipes are read on dispatch
/// threads, so no cooperative thread blocks.
public struct PageExtractor: Sendable {
    /// The yt-dlp to run (an absolute path).
    public var executable: String
    public var timeout: Duration
    /// The most bytes of JSON read: pages with many formats run to a few hundred KB, a playlist of 200 to a few MB.
    public static let outputLimit = 16 << 20
    /// The most of its error output kept (its last lines say why it failed).
    static let errorLimit = 64 << 10

    public init(executable: String, timeout: Duration = .seconds(60)) {
        self.executable = executable
        self.timeout = timeout
    }

    /// Why yt-dlp gave no answer haul can use.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        case cannotStart(String)
        /// It exited with this status; its last `ERROR:` line, if any.
        case failed(status: Int32, error: String?)
        case timedOut(Duration)
        case tooLarge(limit: Int)
        /// It printed something that is not a page's JSON (`null`, garbage): why it did not decode.
        case unreadable(String)

        public var description: String {
            switch self {
            case let .cannotStart(reason): reason
            case let .failed(status, error): error ?? "yt-dlp exited with status \(status)"
            case let .timedOut(limit): "yt-dlp did not answer within \(limit)"
            case let .tooLarge(limit): "yt-dlp's answer is larger than \(limit >> 20) MB"
            case let .unreadable(reason): "yt-dlp's answer is not a page's JSON (\(reason))"
            }
        }
    }

    /// What the page at `url` holds, asked through the task's proxies (nil: the environment's, as for a task from before
    /// they were recorded).
    public func extract(_ url: String, proxies: ProxySettings? = nil) async -> Result<PageInfo, Failure> {
        let run: Output
        switch await self.run(arguments: ["-J", "--no-warnings", "--", url], environment: Self.environment(proxies: proxies)) {
        case let .success(output): run = output
        case let .failure(failure): return .failure(failure)
        }
        if run.timedOut { return .failure(.timedOut(timeout)) }
        if run.overflow { return .failure(.tooLarge(limit: Self.outputLimit)) }
        guard run.status == 0 else { return .failure(.failed(status: run.status, error: Self.lastError(run.stderr))) }
        return Self.decode(run.stdout)
    }

    /// `bytes` as a page, or why not.
    public static func decode(_ bytes: [UInt8]) -> Result<PageInfo, Failure> {
        let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("{") else {
            return .failure(.unreadable(text.isEmpty ? "no output" : "it starts \(String(text.prefix(20)).escapingAllControlCharacters)"))
        }
        do {
            return .success(try JSONDecoder().decode(PageInfo.self, from: Data(text.utf8)))
        } catch {
            return .failure(.unreadable("invalid JSON"))
        }
    }

    /// The last `ERROR:` line of yt-dlp's error output, control characters escaped and cut to a line's length.
    static func lastError(_ bytes: [UInt8]) -> String? {
        let lines = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline)
        guard let line = lines.last(where: { $0.hasPrefix("ERROR:") }) else { return nil }
        let text = String(line).escapingAllControlCharacters
        return text.count > 400 ? String(text.prefix(400)) + "…" : text
    }

    struct Output {
        var status: Int32
        var stdout: [UInt8]
        var stderr: [UInt8]
        var overflow: Bool
        var timedOut: Bool
    }

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

    private func run(arguments: [String], environment: [String: String]) async -> Result<Output, Failure> {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let ended = AsyncStream<Int32>.makeStream()
        process.terminationHandler = { ended.continuation.yield($0.terminationStatus); ended.continuation.finish() }
        do {
            try process.run()
        } catch {
            return .failure(.cannotStart("\(executable) could not start: \(error.localizedDescription)"))
        }
        // Our copies of the write ends: the reads end when yt-dlp closes its own.
        try? output.fileHandleForWriting.close()
        try? errors.fileHandleForWriting.close()
        let pid = process.processIdentifier
        let timedOut = PthreadMutex(false)
        let watchdog = Task {
            try? await Task.sleep(for: timeout)
            guard !Task.isCancelled else { return }
            timedOut.withLock { $0 = true }
            kill(pid, SIGTERM)
            try? await Task.sleep(for: .seconds(2))
            guard !Task.isCancelled else { return }
            kill(pid, SIGKILL)
        }
        async let stdout = Self.drain(output.fileHandleForReading, limit: Self.outputLimit, killing: pid)
        async let stderr = Self.drain(errors.fileHandleForReading, limit: Self.errorLimit, killing: nil)
        var status: Int32 = -1
        for await code in ended.stream { status = code }
        let (out, err) = await (stdout, stderr)
        watchdog.cancel()
        return .success(Output(status: status, stdout: out.bytes, stderr: err.bytes, overflow: out.overflow, timedOut: timedOut.withLock { $0 }))
    }

    /// Reads `handle` to its end on a dispatch thread, keeping at most `limit` bytes: past it, `pid` is killed (when
    /// given) and the rest is read and dropped; without one, the last `limit` bytes are kept.
    private static func drain(_ handle: FileHandle, limit: Int, killing pid: Int32?) async -> (bytes: [UInt8], overflow: Bool) {
        await withCheckedContinuation { continuation in
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
                continuation.resume(returning: (bytes, overflow))
            }
        }
    }
}
