import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A real SOCKS5 server (Debian's microsocks) on 127.0.0.1, a child process we own.
///
/// microsocks prints one line per tunnel, `client[N] 127.0.0.1: connected to HOST:PORT`, where HOST is what the
/// client asked for: an IP address when the client resolved the name (`socks5://`), the name itself when the
/// proxy resolved it (`socks5h://`). `connections()` reads them.
///
/// With `hosts`, microsocks runs in a private mount namespace (`unshare -m`) whose `/etc/hosts` also maps those
/// names to 127.0.0.1: names only the proxy can resolve. `namespacesAvailable` says whether that works here.
public final class MicrosocksFixture: Sendable {
    public static let binaryPath = "/usr/bin/microsocks"
    static let unsharePath = "/usr/bin/unshare"

    /// Whether microsocks is installed; tests use it in `.enabled(if:)`.
    public static var isAvailable: Bool { access(binaryPath, X_OK) == 0 }

    /// Whether a private mount namespace can be made here (root, and `unshare` present), for `hosts`.
    public static let namespacesAvailable: Bool = {
        guard geteuid() == 0, access(unsharePath, X_OK) == 0 else { return false }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: unsharePath)
        probe.arguments = ["-m", "sh", "-c", "mount --bind /etc/hosts /etc/hosts"]
        probe.standardOutput = FileHandle.nullDevice
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }()

    /// Fails the test in CI, or skips it elsewhere (`RootOnly`), unless `hosts` can be given here.
    public static func requireNamespaces(sourceLocation: SourceLocation = #_sourceLocation) throws {
        try RootOnly.requireRoot(for: "a private mount namespace", sourceLocation: sourceLocation)
        guard namespacesAvailable else {
            try RootOnly.unavailable(
                "\(unsharePath) -m cannot make a private mount namespace here (mount --bind /etc/hosts failed)",
                sourceLocation: sourceLocation)
        }
    }

    public let port: UInt16
    public let user: String?
    public let password: String?
    private let directory: TemporaryDirectory
    private let process: HaulProcess

    private init(port: UInt16, user: String?, password: String?, directory: TemporaryDirectory, process: HaulProcess) {
        self.port = port
        self.user = user
        self.password = password
        self.directory = directory
        self.process = process
    }

    deinit { stop() }

    /// Starts microsocks on a free loopback port and waits (bounded) until it accepts connections.
    /// With `user` and `password` it wants them (SOCKS5 username/password authentication).
    public static func start(
        user: String? = nil, password: String? = nil, hosts: [String] = [], timeout: Duration = .seconds(10)
    ) async throws -> MicrosocksFixture {
        let directory = try TemporaryDirectory(prefix: "haul-socks")
        let deadline = ContinuousClock.now + timeout
        var lastError = ""
        for _ in 0..<5 {
            guard let port = LoopbackPort.free() else { continue }
            var arguments = ["-i", "127.0.0.1", "-p", String(port)]
            if let user, let password { arguments += ["-u", user, "-P", password] }
            let process: HaulProcess
            if hosts.isEmpty {
                process = try HaulProcess(URL(fileURLWithPath: binaryPath), arguments: arguments)
            } else {
                let file = directory.file("hosts")
                let system = (try? String(contentsOfFile: "/etc/hosts", encoding: .utf8)) ?? "127.0.0.1 localhost\n"
                try (system + "\n" + hosts.map { "127.0.0.1 \($0)\n" }.joined()).write(toFile: file, atomically: true, encoding: .utf8)
                let command = "mount --bind '\(file)' /etc/hosts && exec \(binaryPath) " + arguments.joined(separator: " ")
                process = try HaulProcess(URL(fileURLWithPath: unsharePath), arguments: ["-m", "sh", "-c", command])
            }
            let fixture = MicrosocksFixture(port: port, user: user, password: password, directory: directory, process: process)
            let outcome = try await eventuallyValue(
                "microsocks to listen on 127.0.0.1:\(port)", timeout: ContinuousClock.now.duration(to: deadline)
            ) { () -> Bool? in
                if LoopbackPort.isAccepting(port) { return true }
                return process.exitStatus == nil ? nil : false
            }
            if outcome { return fixture }
            lastError = process.stdoutText() + process.stderrText()
        }
        throw ProxyFixtureFailure(message: "microsocks did not start:\n\(lastError)")
    }

    /// `socks5://` (or another scheme) with the credentials when it has them: `SCHEME://[USER:PASS@]127.0.0.1:PORT`.
    public func url(scheme: String = "socks5", credentials: Bool = true) -> String {
        let login = credentials ? user.flatMap { user in password.map { "\(user):\($0)@" } } ?? "" : ""
        return "\(scheme)://\(login)127.0.0.1:\(port)"
    }

    /// The `HOST:PORT` of every tunnel it made so far, in order.
    public func connections() -> [String] {
        (process.stdoutLines() + process.stderrLines()).compactMap { line in
            line.range(of: "connected to ").map { String(line[$0.upperBound...]).trimmingCharacters(in: .whitespaces) }
        }
    }

    /// Everything it printed so far.
    public func output() -> String { process.stdoutText() + process.stderrText() }

    /// Stops it (SIGTERM, then SIGKILL) and waits; idempotent.
    public func stop() {
        process.terminate(SIGTERM, timeout: .seconds(2))
    }
}

/// A real HTTP proxy (Debian's tinyproxy) on 127.0.0.1, a child process we own, logging every connection and
/// request (`LogLevel Info`) to its own file.
public final class TinyproxyFixture: Sendable {
    public static let binaryPath = "/usr/bin/tinyproxy"

    /// Whether tinyproxy is installed; tests use it in `.enabled(if:)`.
    public static var isAvailable: Bool { access(binaryPath, X_OK) == 0 }

    public let port: UInt16
    private let directory: TemporaryDirectory
    private let process: HaulProcess

    private init(port: UInt16, directory: TemporaryDirectory, process: HaulProcess) {
        self.port = port
        self.directory = directory
        self.process = process
    }

    deinit { stop() }

    /// Starts tinyproxy on a free loopback port and waits (bounded) until it accepts connections.
    /// `extra` is added to its configuration (`BasicAuth user pass`, `ConnectPort N`, ...).
    public static func start(extra: String = "", timeout: Duration = .seconds(10)) async throws -> TinyproxyFixture {
        let directory = try TemporaryDirectory(prefix: "haul-tinyproxy")
        let deadline = ContinuousClock.now + timeout
        var lastError = ""
        for _ in 0..<5 {
            guard let port = LoopbackPort.free() else { continue }
            let config = directory.file("tinyproxy.conf")
            try """
                Port \(port)
                Listen 127.0.0.1
                Timeout 30
                Allow 127.0.0.1
                LogLevel Info
                LogFile "\(directory.file("tinyproxy.log"))"
                \(extra)

                """.write(toFile: config, atomically: true, encoding: .utf8)
            let process = try HaulProcess(URL(fileURLWithPath: binaryPath), arguments: ["-d", "-c", config])
            let fixture = TinyproxyFixture(port: port, directory: directory, process: process)
            let outcome = try await eventuallyValue(
                "tinyproxy to listen on 127.0.0.1:\(port)", timeout: ContinuousClock.now.duration(to: deadline)
            ) { () -> Bool? in
                if LoopbackPort.isAccepting(port) { return true }
                return process.exitStatus == nil ? nil : false
            }
            if outcome { return fixture }
            lastError = process.stdoutText() + process.stderrText() + fixture.log()
        }
        throw ProxyFixtureFailure(message: "tinyproxy did not start:\n\(lastError)")
    }

    /// `http://127.0.0.1:PORT`.
    public var url: String { "http://127.0.0.1:\(port)" }

    /// Its log so far.
    public func log() -> String {
        (try? String(contentsOfFile: directory.file("tinyproxy.log"), encoding: .utf8)) ?? ""
    }

    /// The request lines it logged (`GET http://127.0.0.1:8080/f HTTP/1.1`), in order.
    public func requests() -> [String] {
        log().split(separator: "\n").compactMap { line in
            guard line.contains("Request (file descriptor") else { return nil }
            return line.range(of: "): ").map { String(line[$0.upperBound...]) }
        }
    }

    /// Stops it (SIGTERM, then SIGKILL) and waits; idempotent.
    public func stop() {
        process.terminate(SIGTERM, timeout: .seconds(2))
    }
}

/// A proxy fixture failed to start; carries what it printed.
public struct ProxyFixtureFailure: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
