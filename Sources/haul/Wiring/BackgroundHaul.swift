import Foundation
import HaulRemote
import HaulStore

/// Starts a background haul: this executable again, headless and kept running, in its own session
/// (no terminal, no SIGHUP), with its output in the state directory's log; then waits until it serves.
enum BackgroundHaul {
    /// Launches `haul ARGUMENTS --headless --keep-running` detached and returns its pid once its control
    /// socket answers (at most `wait`); a child that exits first is reported with its log's last lines.
    static func launch(arguments: [String], state: StateDirectory, wait: Duration = .seconds(15)) async throws -> Int32 {
        let executable = Bundle.main.executablePath ?? CommandLine.arguments[0]
        let argv = [executable] + arguments + ["--headless", "--keep-running"]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, state.logPath, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO)
        // Nothing else of this process goes along: an inherited descriptor (a caller's pipe, a make jobserver,
        // Foundation's child-exit socket) would stay open as long as the background haul runs, so whoever
        // waits for this command's end of output or exit would wait for the daemon's.
        // (glibc's posix_spawn ignores a close that fails, e.g. for the descriptor that listed the directory.)
        for descriptor in inheritedDescriptors() { posix_spawn_file_actions_addclose(&actions, descriptor) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A new session: the background haul has no controlling terminal and outlives this one.
        posix_spawnattr_setflags(&attributes, Int16(Self.spawnSetSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var pid: pid_t = 0
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { for pointer in cArguments { free(pointer) } }
        let code = posix_spawn(&pid, executable, &actions, &attributes, cArguments, environ)
        guard code == 0 else {
            throw CommandFailure.runtime("cannot start a background haul: \(String(cString: strerror(code)))")
        }
        let client = OwnerClient(socketPath: state.socketPath, timeout: .seconds(1))
        let deadline = ContinuousClock.now + wait
        while ContinuousClock.now < deadline {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                throw CommandFailure.runtime("the background haul stopped at once:\n" + logTail(state.logPath))
            }
            if let served = try? await client.processID(), served == pid { return pid }
            try? await Task.sleep(for: .milliseconds(50))
        }
        throw CommandFailure.runtime("the background haul (pid \(pid)) did not answer on \(state.socketPath) within \(wait); see \(state.logPath)")
    }

    /// This process's open descriptors above stderr (`/proc/self/fd`).
    static func inheritedDescriptors() -> [Int32] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.compactMap { Int32($0) }.filter { $0 > STDERR_FILENO }
    }

    /// glibc's `POSIX_SPAWN_SETSID` (a GNU extension the Swift overlay does not import).
    static let spawnSetSID: Int32 = 0x80

    /// The last lines of the log, for a start that failed.
    static func logTail(_ path: String, lines: Int = 5) -> String {
        guard let data = FileManager.default.contents(atPath: path) else { return "(no log at \(path))" }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").suffix(lines).joined(separator: "\n")
    }
}
