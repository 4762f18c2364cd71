import HaulCore

/// The snapshot a listing a page at a time reads: held from its first page until its last, so the pages of one
/// `haul list` come from one state of the queue even while it changes. One at a time (a second listing takes the
/// place of the first, which then reads on from the latest snapshot); none once the last page is out, nor after
/// `lifetime` (a `haul list | head` stops reading: its snapshot must not stay in the daemon).
final class ListingPin: Sendable {
    private struct Held {
        var snapshot: QueueSnapshot
        /// Which holding this is, so the timer of an earlier one lets nothing go.
        var generation: UInt64
    }

    private let held = PthreadMutex<Held?>(nil)
    private let generations = PthreadMutex<UInt64>(0)
    let lifetime: Duration

    init(lifetime: Duration = .seconds(30)) { self.lifetime = lifetime }

    /// The held snapshot when it is `sequence`.
    func snapshot(sequence: UInt64) -> QueueSnapshot? {
        held.withLock { held in held?.snapshot.sequence == sequence ? held?.snapshot : nil }
    }

    /// Holds `snapshot` while pages of it remain to be read (`more`), else lets it go.
    func update(_ snapshot: QueueSnapshot, more: Bool) {
        let started: UInt64? = held.withLock { held in
            if more {
                guard held?.snapshot.sequence != snapshot.sequence else { return nil }
                let generation = generations.withLock { next in
                    next += 1
                    return next
                }
                held = Held(snapshot: snapshot, generation: generation)
                return generation
            }
            if held?.snapshot.sequence == snapshot.sequence { held = nil }
            return nil
        }
        guard let started else { return }
        Task { [lifetime] in
            try? await Task.sleep(for: lifetime)
            self.held.withLock { held in if held?.generation == started { held = nil } }
        }
    }

    /// Whether it holds a snapshot.
    var isHolding: Bool { held.withLock { $0 != nil } }
}
