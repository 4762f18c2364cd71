import Foundation
import HaulCore
#if canImport(Glibc)
import Glibc
#endif

/// What became of a background haul an attached list lost, and what the list says about it.
public enum OwnerLoss: Sendable, Equatable {
    /// It shut down cleanly (`haul stop`): its socket is gone and every byte was saved.
    case stopped(pid: Int32)
    /// It is gone but left its socket behind: killed (`kill -9`, the OOM killer) or crashed.
    case died(pid: Int32)
    /// It is alive but stopped by a signal (SIGSTOP, Ctrl-Z): it cannot answer until continued.
    case suspended(pid: Int32)
    /// It is alive and running but did not answer.
    case unresponsive(pid: Int32)

    /// The verdict from what can be seen of the process and its socket.
    public static func judge(pid: Int32, processExists: Bool, processSuspended: Bool, socketRemains: Bool) -> OwnerLoss {
        if !processExists { return socketRemains ? .died(pid: pid) : .stopped(pid: pid) }
        return processSuspended ? .suspended(pid: pid) : .unresponsive(pid: pid)
    }

    /// The verdict for `pid`, looking at `/proc` and at the socket path.
    public static func judge(pid: Int32, socketPath: String) -> OwnerLoss {
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        // The state is the first field after the command name's closing parenthesis; a zombie (Z, X) has ended.
        let state = stat.split(separator: ")").last?.split(separator: " ").first
        let exists = (kill(pid, 0) == 0 || errno == EPERM) && state != "Z" && state != "X"
        return judge(pid: pid, processExists: exists, processSuspended: state == "T" || state == "t",
                     socketRemains: FileManager.default.fileExists(atPath: socketPath))
    }

    /// What the list shows while it waits for a background haul, and prints when it leaves.
    public var message: String {
        switch self {
        case let .stopped(pid):
            "the background haul (pid \(pid)) stopped; every task's bytes are saved — `haul daemon` starts it again"
        case let .died(pid):
            "lost the background haul (pid \(pid)): it ended without saving — `haul daemon` starts it again"
        case let .suspended(pid):
            "the background haul (pid \(pid)) is stopped by a signal — `kill -CONT \(pid)` resumes it"
        case let .unresponsive(pid):
            "the background haul (pid \(pid)) does not answer — `haul list` tries again; `kill \(pid)` ends it"
        }
    }

    /// Success only for a clean stop.
    public var exitStatus: ExitStatus {
        if case .stopped = self { return .success }
        return .taskFailed
    }
}
