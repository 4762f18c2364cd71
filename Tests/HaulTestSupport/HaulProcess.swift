import Foundation
import HaulCore
#if canImport(Glibc)
import Glibc
#endif

/// A child process under test (usually the built `haul`), with its output captured and every wait bounded.
///
/// Output is read by two background threads as it arrives. The process is SIGKILLed when this
/// object is released while it still runs, so a failing test never leaves it behind.
///
/// Finding binaries: `HaulProcess.binary(named:)` looks in one directory only: `$HAUL_BIN_DIR` when set
/// (`make` sets it to the bin path of the build it just made), else the directory of the running test
/// executable (`/proc/self/exe`, SwiftPM's bin directory such as `.build/x86_64-unknown-linux-gnu/debug`,
/// where `swift build --build-tests` puts every product). A missing binary fails the test; no other
/// build's binary is taken instead.
///
/// Children start with an empty signal mask (see `withDefaultSignalMask`), so SIGTERM and SIGINT
/// reach them even when the test runs on one of Swift's pool threads, which block nearly all signals.
public final class HaulProcess: Sendable {
    /// Which output to search.
    public enum Stream: Sendable {
        case stdout, stderr, either
    }

    /// What the child reads as standard input.
    public enum Input: Sendable {
        /// `/dev/null`: the child sees end of input at once.
        case null
        /// A pipe the test writes with `writeStdin(_:)` and closes with `closeStdin()`.
        case pipe
    }

    /// Failures of the helper itself (not of the child).
    public enum Failure: Error, CustomStringConvertible {
        case binaryNotFound(name: String, directory: BinDirectory)
        case exitedBeforeOutput(text: String, status: Int32, stdout: String, stderr: String)

        public var description: String {
            switch self {
            case .binaryNotFound(let name, let directory):
                "no executable '\(name)' in '\(directory.path)': \(directory.remedy)"
            case .exitedBeforeOutput(let text, let status, let stdout, let stderr):
                "process exited with status \(status) before printing \"\(text)\"\nstdout:\n\(stdout)\nstderr:\n\(stderr)"
            }
        }
    }

    /// Environment variables removed from the inherited environment.
    public static let proxyVariables = [
        "http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY",
    ]

    public let executable: URL
    public let arguments: [String]
    /// Process id of the child.
    public let pid: Int32

    private let process: ProcessBox
    private let stdout = ProcessOutput()
    private let stderr = ProcessOutput()
    private let exit = ExitRecord()
    private let stdinFD: Int32?

    /// Starts `executable` with `arguments`.
    ///
    /// `environment` is added to the inherited one (or replaces it when `inheritEnvironment` is false).
    /// Inherited proxy variables (`http_proxy`, `ALL_PROXY`, ...) are dropped, and
    /// `SWIFT_BACKTRACE=interactive=no` is set unless given, so a crash never waits for a key.
    public init(
        _ executable: URL, arguments: [String] = [], environment: [String: String] = [:],
        inheritEnvironment: Bool = true, currentDirectory: URL? = nil, input: Input = .null
    ) throws {
        self.executable = executable
        self.arguments = arguments
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = Self.childEnvironment(
            inherited: inheritEnvironment ? ProcessInfo.processInfo.environment : [:], given: environment)
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }

        let outPipe = Pipe()
        let errPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        var inPipe: Pipe?
        switch input {
        case .null: process.standardInput = FileHandle.nullDevice
        case .pipe:
            inPipe = Pipe()
            process.standardInput = inPipe
        }
        let exit = self.exit
        process.terminationHandler = { finished in
            let status = finished.terminationStatus
            exit.status.withLock { $0 = finished.terminationReason == .uncaughtSignal ? 128 + status : status }
        }
        try Self.withDefaultSignalMask { try process.run() }
        pid = process.processIdentifier
        self.process = ProcessBox(process)

        // Own private copies of our pipe ends, so Foundation's handles can go.
        stdout.startReading(fcntl(outPipe.fileHandleForReading.fileDescriptor, F_DUPFD_CLOEXEC, 0))
        stderr.startReading(fcntl(errPipe.fileHandleForReading.fileDescriptor, F_DUPFD_CLOEXEC, 0))
        try? outPipe.fileHandleForReading.close()
        try? errPipe.fileHandleForReading.close()
        if let inPipe {
            stdinFD = fcntl(inPipe.fileHandleForWriting.fileDescriptor, F_DUPFD_CLOEXEC, 0)
            try? inPipe.fileHandleForWriting.close()
        } else {
            stdinFD = nil
        }
    }

    /// The environment a child gets: `inherited` without proxy variables, `SWIFT_BACKTRACE=interactive=no`
    /// unless set, a configuration directory that holds nothing, then `given` on top.
    public static func childEnvironment(inherited: [String: String], given: [String: String]) -> [String: String] {
        var environment = inherited
        // Tests talk to 127.0.0.1 only: never let an inherited proxy setting route them elsewhere.
        for name in proxyVariables { environment[name] = nil }
        // Nor the settings file of whoever runs the tests (a test that wants one passes --config or this variable).
        environment["XDG_CONFIG_HOME"] = "/nonexistent/haul-tests-config"
        environment["SWIFT_BACKTRACE"] = environment["SWIFT_BACKTRACE"] ?? "interactive=no"
        environment.merge(given) { _, new in new }
        return environment
    }

    /// Starts the built executable `name` found by `binary(named:)`.
    public convenience init(
        binary name: String, arguments: [String] = [], environment: [String: String] = [:],
        currentDirectory: URL? = nil, input: Input = .null
    ) throws {
        try self.init(
            Self.binary(named: name), arguments: arguments, environment: environment,
            currentDirectory: currentDirectory, input: input)
    }

    deinit {
        if exitStatus == nil { Glibc.kill(pid, SIGKILL) }
        closeStdin()
    }

    /// Runs `body` with no signal blocked on the calling thread, then restores the thread's mask.
    ///
    /// A child inherits the signal mask of the thread that spawns it, and Foundation's `Process`
    /// spawns on the calling thread. Threads of Swift's cooperative pool block nearly every signal,
    /// so without this a child started from async test code never sees SIGTERM or SIGINT.
    private static func withDefaultSignalMask<T>(_ body: () throws -> T) rethrows -> T {
        var empty = sigset_t()
        var previous = sigset_t()
        sigemptyset(&empty)
        pthread_sigmask(SIG_SETMASK, &empty, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        return try body()
    }

    // MARK: Running state

    /// The exit status once the child has ended: its exit code, or 128 + signal number when a signal killed it.
    public var exitStatus: Int32? { exit.status.withLock { $0 } }

    public var isRunning: Bool { exitStatus == nil }

    /// Sends `signal` to the child (default SIGTERM).
    public func kill(_ signal: Int32 = SIGTERM) {
        guard isRunning else { return }
        Glibc.kill(pid, signal)
    }

    /// Waits (polling, bounded) until the child ends and its output is fully read; returns `exitStatus`.
    public func waitForExit(timeout: Duration, fileID: String = #fileID, line: Int = #line) async throws -> Int32 {
        let status = try await eventuallyValue(
            "\(executable.lastPathComponent) to exit", timeout: timeout, poll: .milliseconds(10),
            fileID: fileID, line: line
        ) { exitStatus }
        // A grandchild may hold the pipes open; never wait long for them.
        try? await eventually(timeout: .seconds(1), poll: .milliseconds(5)) { stdout.isFinished && stderr.isFinished }
        return status
    }

    /// Stops the child from synchronous code (e.g. a `defer`): `signal`, then SIGKILL if it outlives `timeout`.
    /// Blocks the calling thread for at most `timeout` plus one second. Returns the exit status if it ended.
    @discardableResult
    public func terminate(_ signal: Int32 = SIGTERM, timeout: Duration = .seconds(3)) -> Int32? {
        kill(signal)
        if let status = blockUntilExit(timeout: timeout) { return status }
        kill(SIGKILL)
        return blockUntilExit(timeout: .seconds(1))
    }

    private func blockUntilExit(timeout: Duration) -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let status = exitStatus { return status }
            usleep(5_000)
        }
        return exitStatus
    }

    // MARK: Input

    /// Writes `text` to the child's stdin (only with `input: .pipe`).
    public func writeStdin(_ text: String) {
        guard let stdinFD else { return }
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = write(stdinFD, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return }
                offset += n
            }
        }
    }

    /// Closes the child's stdin so it reads end of input. Idempotent.
    public func closeStdin() {
        guard let stdinFD else { return }
        process.closeInputOnce { close(stdinFD) }
    }

    // MARK: Output

    public func stdoutText() -> String { stdout.text }
    /// Raw stdout bytes so far (for binary output).
    public func stdoutBytes() -> [UInt8] { stdout.bytes }
    public func stderrText() -> String { stderr.text }
    public func stdoutLines() -> [String] { stdout.lines }
    public func stderrLines() -> [String] { stderr.lines }

    /// Waits until a line of `stream` contains `text` and returns that line.
    /// Throws `TimedOut` after `timeout`, or `Failure.exitedBeforeOutput` as soon as the child has ended without it.
    @discardableResult
    public func waitForOutput(
        containing text: String, in stream: Stream = .either, timeout: Duration,
        fileID: String = #fileID, line: Int = #line
    ) async throws -> String {
        try await eventuallyValue("output containing \"\(text)\"", timeout: timeout, fileID: fileID, line: line) {
            let ended = exitStatus != nil && stdout.isFinished && stderr.isFinished
            let lines: [String]
            switch stream {
            case .stdout: lines = stdout.lines
            case .stderr: lines = stderr.lines
            case .either: lines = stdout.lines + stderr.lines
            }
            if let found = lines.first(where: { $0.contains(text) }) { return found }
            if ended {
                throw Failure.exitedBeforeOutput(
                    text: text, status: exitStatus ?? -1, stdout: stdout.text, stderr: stderr.text)
            }
            return nil
        }
    }
}
