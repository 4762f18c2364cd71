import HaulCore

/// Messages for the transfer thread: commands from the controller, and results of disk work done on the worker queue.
enum EngineMessage: Sendable {
    case command(TransferCommand)
    /// A background `fdatasync` of that attempt's part files made what `coverage` says durable.
    case synced(TaskID, attempt: Int, SyncCoverage)
    /// The part file of that attempt was allocated at full size after its split; nil, or why it could not be.
    case allocated(TaskID, attempt: Int, error: DownloadError?)
    /// The closing disk work of a transfer (sync, verify, rename) is done: its outcome and what to record.
    case concluded(TaskID, ClosingResult)
}

/// The locked queue of messages for the transfer thread, plus the wakeup that cuts its poll short.
final class CommandInbox: Sendable {
    private struct State {
        var messages: [EngineMessage] = []
        var wakeup: MultiWakeup?
        var closed = false
    }

    private let state = PthreadMutex(State())

    /// Queues a message and wakes the thread. Ignored once the engine has stopped.
    func post(_ message: EngineMessage) {
        state.withLock { state in
            guard !state.closed else { return }
            state.messages.append(message)
            // Woken under the lock: `close()` takes it before the multi handle is cleaned up.
            state.wakeup?.wake()
        }
    }

    func attach(_ wakeup: MultiWakeup) {
        state.withLock { $0.wakeup = wakeup }
    }

    func drain() -> [EngineMessage] {
        state.withLock { state in
            defer { state.messages.removeAll(keepingCapacity: true) }
            return state.messages
        }
    }

    /// Stops accepting messages and forgets the multi handle.
    func close() {
        state.withLock { state in
            state.closed = true
            state.wakeup = nil
        }
    }
}
