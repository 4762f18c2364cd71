import Foundation

/// `--on-link-expired CMD` (DESIGN §8): when a link answers 401, 403, 404 or 410 (also before any byte was
/// fetched: a link that expired while the task waited in the queue), CMD runs with the task's GID and link,
/// without a shell and for at most `timeout`; a link on the first line it prints becomes the task's by the rules
/// of `set-url`. While it runs the task waits for the new link; it fails only if none comes. It runs once per
/// link it gave: a link it gave that expires again before fetching a byte does not run it again, so a script
/// that keeps printing dead links cannot loop.
public struct LinkRenewal: Sendable {
    public var command: String
    public var timeout: Duration
    /// The answers that say a link expired or was revoked.
    public static let expiredStatuses: Set<Int> = [401, 403, 404, 410]
    /// The most of its output read: one link is far shorter.
    static let outputLimit = 64 << 10

    public init(command: String, timeout: Duration = .seconds(60)) {
        self.command = command
        self.timeout = timeout
    }

    /// The link the command gave a task last, and the task's durable bytes when it was given.
    public struct Given: Sendable, Equatable {
        public var link: String
        public var bytes: Int64

        public init(link: String, bytes: Int64) {
            self.link = link
            self.bytes = bytes
        }
    }

    /// Whether the failure `error` of `task` calls for a new link: an expired link's answer, unless the link is
    /// the one the command gave last (`lastGiven`) and no byte was fetched from it.
    public static func applies(to task: DownloadTask, error: DownloadError, lastGiven: Given?) -> Bool {
        guard let code = error.httpCode, expiredStatuses.contains(code) else { return false }
        guard let lastGiven, lastGiven.link == task.url else { return true }
        return task.bytesDone > lastGiven.bytes
    }

    /// Runs the command for `task`; the first non-empty line it printed, or why there is none.
    public func newLink(for task: DownloadTask) async -> Result<String, RenewalFailure> {
        let process = Process()
        let output = Pipe()
        do {
            process.executableURL = URL(fileURLWithPath: try DownloadHooks.resolve(command))
        } catch {
            return .failure(.cannotStart("\(command) was not found"))
        }
        // Credentials stay out of other processes' arguments (`ps` shows them to every user).
        process.arguments = [task.id.gid, URLValidation.redacted(task.url)]
        process.environment = HookEnvironment.forHooks()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let status: Int32
        do {
            switch try await BoundedProcess.run(process, timeout: timeout) {
            case .timedOut: return .failure(.noLink("\(command) did not finish within \(timeout)"))
            case let .exited(code): status = code
            }
        } catch {
            return .failure(.cannotStart("\(command) could not start: \(error.localizedDescription)"))
        }
        guard status == 0 else { return .failure(.noLink("\(command) exited with status \(status)")) }
        let text = String(decoding: Self.readAvailable(output.fileHandleForReading.fileDescriptor), as: UTF8.self)
        let line = text.split(whereSeparator: \.isNewline).first { !$0.allSatisfy(\.isWhitespace) }
        guard let line else { return .failure(.noLink("\(command) printed no link")) }
        return .success(line.trimmingCharacters(in: .whitespaces))
    }

    /// Why a renewal gave no link.
    public enum RenewalFailure: Error, Sendable, Equatable, CustomStringConvertible {
        case cannotStart(String)
        case noLink(String)

        public var description: String {
            switch self {
            case let .cannotStart(text), let .noLink(text): text
            }
        }
    }

    /// What the ended command left in its output pipe, up to `outputLimit`, without waiting for a child it
    /// may have left holding the pipe open.
    static func readAvailable(_ descriptor: Int32) -> [UInt8] {
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < outputLimit {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return Array(bytes.prefix(outputLimit))
    }
}
