import HaulCore

/// The answer to `haul.rows`: a page of a snapshot's rows, so `haul list` through a running haul reads the queue a
/// page at a time (100,000 rows as one answer took the CLI 304 MiB to decode).
public struct RowsPage: Sendable, Codable {
    /// The snapshot the page is from; the next page asked with it comes from the same snapshot while the owner
    /// still holds it (`ListingPin`).
    public var sequence: UInt64
    /// Rows in that snapshot.
    public var total: Int
    /// Where the page's first row is in the snapshot.
    public var from: Int
    /// What the schedule does now (`QueueSnapshot.schedule`).
    public var schedule: String?
    public var rows: [QueueSnapshot.Row]

    public init(sequence: UInt64, total: Int, from: Int, schedule: String?, rows: [QueueSnapshot.Row]) {
        self.sequence = sequence
        self.total = total
        self.from = from
        self.schedule = schedule
        self.rows = rows
    }
}

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
