import HaulCore

/// The engine's events of one loop pass, sent together at its end: the controller wakes once per pass, not once
/// per event (a thousand small files each answer, write, check and end within a few passes). Order is kept.
/// Owned by the engine thread.
final class EventOutbox {
    private let continuation: AsyncStream<TransferEvent>.Continuation
    private var pending: [TransferEvent] = []

    init(_ continuation: AsyncStream<TransferEvent>.Continuation) {
        self.continuation = continuation
    }

    func post(_ event: TransferEvent) {
        pending.append(event)
    }

    /// Sends what this pass posted.
    func flush() {
        guard !pending.isEmpty else { return }
        for event in pending { continuation.yield(event) }
        pending.removeAll(keepingCapacity: true)
    }

    /// Sends what is left and ends the stream.
    func finish() {
        flush()
        continuation.finish()
    }
}
