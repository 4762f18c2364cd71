import Foundation
import HaulTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A background haul started by `haul daemon` for one test. It is not a child of the test (the daemon
/// command's child, re-parented when that command exits), so it is found by pid; `kill()` (call it in a
/// `defer`) makes sure no test leaves one behind.
final class BackgroundDaemon: Sendable {
    let pid: Int32
    let socket: String
    /// What `haul daemon` printed on stderr: the pid, the socket and the log.
    let messages: String

    /// Runs `haul daemon ARGS --state-dir S -d D` to its end (bounded) and reads the pid and socket it printed.
    init(_ run: HaulRun, _ arguments: [String] = [], timeout: Duration = .seconds(20)) async throws {
        let command = try run.start(["daemon"] + arguments)
        let status = try await command.waitForExit(timeout: timeout)
        messages = command.stderrText()
        guard status == 0, let pid = Self.pid(in: messages),
              let socket = messages.split(separator: "\n").first(where: { $0.contains("socket ") })
        else {
            throw DaemonFailure(status: status, stdout: command.stdoutText(), stderr: messages)
        }
        self.pid = pid
        self.socket = String(socket.split(separator: " ", maxSplits: 1).last ?? "").trimmingCharacters(in: .whitespaces)
    }

    /// The number after "(pid " in `text`.
    static func pid(in text: String) -> Int32? {
        guard let range = text.range(of: "(pid ") else { return nil }
        return Int32(text[range.upperBound...].prefix { $0.isNumber })
    }

    var isAlive: Bool { ProcessStat(pid: pid)?.isAlive ?? false }

    /// SIGKILL when still alive. Idempotent; for cleanup.
    func kill() {
        if isAlive { Glibc.kill(pid, SIGKILL) }
    }

    deinit { kill() }
}

struct DaemonFailure: Error, CustomStringConvertible {
    var status: Int32
    var stdout: String
    var stderr: String
    var description: String { "haul daemon exited \(status)\nstdout:\n\(stdout)\nstderr:\n\(stderr)" }
}

/// Fields of `/proc/PID/stat`; nil when there is no such process.
struct ProcessStat {
    var state: Character
    var session: Int32
    var ttyNumber: Int32

    init?(pid: Int32) {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/stat") else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        // "pid (comm) S ppid pgrp session tty_nr ...": comm may hold spaces and parentheses.
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 4, let state = fields[0].first, let session = Int32(fields[3]), let tty = Int32(fields[4]) else {
            return nil
        }
        self.state = state
        self.session = session
        ttyNumber = tty
    }

    /// Running or sleeping: not a zombie waiting for a parent that may never reap it.
    var isAlive: Bool { state != "Z" && state != "X" }
}

extension HaulRun {
    /// `haul list --json` that must succeed, decoded.
    func listStrict() async throws -> [[String: Any]] {
        let (status, out, err) = try await run(["list", "--json"], timeout: .seconds(20))
        guard status == 0 else { throw DaemonFailure(status: status, stdout: out, stderr: err) }
        return out.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// `haul stop`, which must succeed; its message on failure.
    func expectStop(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let (status, out, err) = try await run(["stop"], timeout: .seconds(30))
        let log = (try? String(contentsOfFile: state + "/haul.log", encoding: .utf8)) ?? "(no log)"
        #expect(status == 0, "haul stop: \(out)\(err)\nlog:\n\(log)", sourceLocation: sourceLocation)
    }

    /// The `state` of task `id` in `rows` from `list()`.
    static func state(of id: Int, in rows: [[String: Any]]) -> String? {
        rows.first { $0["id"] as? Int == id }?["state"] as? String
    }

    static func bytes(of id: Int, in rows: [[String: Any]]) -> Int? {
        rows.first { $0["id"] as? Int == id }?["bytes"] as? Int
    }
}

/// The first screen line that contains `name`.
func row(_ name: String, in screen: String) -> Substring? {
    screen.split(separator: "\n").first { $0.contains(name) }
}

/// Writes an executable script through a close-on-exec descriptor. A process the test runner spawns on another
/// thread meanwhile must not inherit the file open for writing: running the script would then fail with
/// ETXTBSY ("text file busy") for as long as that process lives.
func writeExecutable(_ path: String, _ text: String) throws {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
    guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
    defer { close(descriptor) }
    let bytes = Array(text.utf8)
    guard write(descriptor, bytes, bytes.count) == bytes.count else {
        throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
    }
}
