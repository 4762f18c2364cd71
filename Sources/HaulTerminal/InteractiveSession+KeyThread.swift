import Foundation
import HaulCore

extension InteractiveSession {
    /// Runs the live list's key loop on its own thread (ncurses is not thread-safe, and the cooperative
    /// pool must never block) and returns how it ended.
    public static func runOnKeyThread(
        snapshots: SnapshotBox, send: @escaping @Sendable (QueueCommand) -> Void, options: TerminalOptions,
        stopRequested: @escaping @Sendable () -> Bool
    ) async -> Result<SessionEnd, any Error> {
        await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(returning: Result {
                    try run(snapshots: snapshots, send: send, options: options, stopRequested: stopRequested)
                })
            }
            thread.name = "haul.keys"
            thread.start()
        }
    }
}
