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
}
