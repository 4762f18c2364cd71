import Foundation
import Glibc

/// Runs a command inside a detached tmux session on a private server, types into it and reads the
/// screen as a person would; every wait is bounded.
public final class TmuxDriver: Sendable {
    public let session: String
    private let socket: String

    public static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") }

    /// Starts `command` (a shell command line) in a `width`×`height` UTF-8 terminal. When it ends, the pane
    /// shows `EXITED=<status>` and `TTY: icanon echo` (or `-icanon -echo`), so tests can check the terminal was restored.
    public init(command: String, width: Int = 100, height: Int = 20) throws {
        let id = UUID().uuidString.prefix(8)
        session = "haul-\(id)"
        socket = "haul-test-\(id)"
        let script = "\(command); echo EXITED=$?; echo TTY: $(stty -a | tr \" \" \"\\n\" | grep -E \"^-?(icanon|echo)$\"); sleep 60"
        try run(capturing: false, [
            "-u", "new-session", "-d", "-s", session, "-x", "\(width)", "-y", "\(height)",
            "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=tmux-256color SWIFT_BACKTRACE=interactive=no sh -c '\(script)'",
        ])
    }

    deinit { kill() }

    /// The visible screen as text lines.
    public func screen() -> String {
        (try? run(capturing: true, ["capture-pane", "-p", "-t", session])) ?? ""
    }

    /// The pane's title, as the program in it set it (OSC 2).
    public func title() -> String {
        ((try? run(capturing: true, ["display-message", "-p", "-t", session, "#{pane_title}"])) ?? "")
            .trimmingCharacters(in: .newlines)
    }

    /// Sends tmux key names (`Space`, `Enter`, `Escape`, `q`) or literal text with `literal: true`.
    public func send(_ keys: String..., literal: Bool = false) throws {
        try run(capturing: false, ["send-keys", "-t", session] + (literal ? ["-l"] : []) + keys)
    }

    public func resize(width: Int, height: Int) throws {
        try run(capturing: false, ["resize-window", "-t", session, "-x", "\(width)", "-y", "\(height)"])
    }

    /// Waits until the screen contains `text` and returns the screen.
    @discardableResult
    public func waitFor(_ text: String, timeout: Duration = .seconds(10), fileID: String = #fileID, line: Int = #line) async throws -> String {
        try await eventuallyValue("screen showing \"\(text)\"", timeout: timeout, poll: .milliseconds(100), fileID: fileID, line: line) {
            let screen = self.screen()
            return screen.contains(text) ? screen : nil
        }
    }

    /// Waits until `condition` holds for the screen and returns it.
    @discardableResult
    public func waitFor(_ what: String, timeout: Duration = .seconds(10), fileID: String = #fileID, line: Int = #line,
                        _ condition: @escaping (String) -> Bool) async throws -> String {
        try await eventuallyValue(what, timeout: timeout, poll: .milliseconds(100), fileID: fileID, line: line) {
            let screen = self.screen()
            return condition(screen) ? screen : nil
        }
    }

    public func kill() {
        _ = try? run(capturing: false, ["kill-server"])
    }

    /// Runs one tmux client command through posix_spawn and waitpid (Foundation's Process does not reap
    /// children reliably from test threads, which block SIGCHLD). Only `capture-pane` reads output: the first
    /// command starts the tmux server, which would hold an output pipe open forever.
    @discardableResult
    private func run(capturing: Bool, _ arguments: [String]) throws -> String {
        var pipe: [Int32] = [-1, -1]
        if capturing { guard Glibc.pipe(&pipe) == 0 else { throw TmuxFailure(arguments: arguments) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if capturing {
            posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
            posix_spawn_file_actions_addclose(&actions, pipe[0])
            posix_spawn_file_actions_addclose(&actions, pipe[1])
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        let argv = (["/usr/bin/tmux", "-L", socket] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/usr/bin/tmux", &actions, &attributes, argv, environ)
        var output: [UInt8] = []
        if capturing {
            close(pipe[1])
            if spawned == 0 {
                var buffer = [UInt8](repeating: 0, count: 65536)
                while true {
                    let n = read(pipe[0], &buffer, buffer.count)
                    if n < 0, errno == EINTR { continue }
                    if n <= 0 { break }
                    output += buffer[0..<n]
                }
            }
            close(pipe[0])
        }
        guard spawned == 0 else { throw TmuxFailure(arguments: arguments) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return String(decoding: output, as: UTF8.self)
    }
}

/// tmux could not be started.
public struct TmuxFailure: Error, CustomStringConvertible {
    public var arguments: [String]
    public var description: String { "could not run tmux \(arguments.joined(separator: " "))" }
}
