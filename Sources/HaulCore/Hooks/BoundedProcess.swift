import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process run to its end within a time limit (a hook, yt-dlp): SIGTERM at the limit, SIGKILL 2 s later, and
/// the wait ends 1 s after that even when a child it left behind still holds its output (Foundation then never
/// reports the end).
enum BoundedProcess {
    enum End: Equatable {
        case exited(Int32)
        case timedOut
    }

    /// Starts `process` (set up by the caller) and waits for it; `started` runs once it runs, with its pid (to close
    /// the caller's pipe ends or start reading them). Throws when it cannot start.
    static func run(_ process: Process, timeout: Duration, started: (Int32) -> Void = { _ in }) async throws -> End {
        let ended = AsyncStream<Int32>.makeStream()
        process.terminationHandler = { ended.continuation.yield($0.terminationStatus); ended.continuation.finish() }
        try process.run()
        let pid = process.processIdentifier
        started(pid)
        let timedOut = PthreadMutex(false)
        let watchdog = Task {
            try? await Task.sleep(for: timeout)
            guard !Task.isCancelled else { return }
            timedOut.withLock { $0 = true }
            kill(pid, SIGTERM)
            try? await Task.sleep(for: .seconds(2))
            guard !Task.isCancelled else { return }
            kill(pid, SIGKILL)
            try? await Task.sleep(for: .seconds(1))
            ended.continuation.finish()
        }
        var status: Int32 = -1
        for await code in ended.stream { status = code }
        watchdog.cancel()
        return timedOut.withLock { $0 } ? .timedOut : .exited(status)
    }
}
