import HaulCore

/// The snapshot a listing a page at a time reads: held from its first page until its last, so the pages of one
/// `haul list` come from one state of the queue even while it changes. One at a time (a second listing takes the
/// place of the first, which then reads on from the latest snapshot); none once the last page is out.
final class ListingPin: Sendable {
    private let held = PthreadMutex<QueueSnapshot?>(nil)

    /// The held snapshot when it is `sequence`.
    func snapshot(sequence: UInt64) -> QueueSnapshot? {
        held.withLock { held in held?.sequence == sequence ? held : nil }
    }

    /// Holds `snapshot` while pages of it remain to be read (`more`), else lets it go.
    func update(_ snapshot: QueueSnapshot, more: Bool) {
        held.withLock { held in
            if more {
                held = snapshot
            } else if held?.sequence == snapshot.sequence {
                held = nil
            }
        }
    }

    /// Whether it holds a snapshot.
    var isHolding: Bool { held.withLock { $0 != nil } }
}
