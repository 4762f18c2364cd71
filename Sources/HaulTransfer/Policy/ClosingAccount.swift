import HaulCore

/// What a closing leaves on record of a task's part files that did not complete: the durable bytes and, for a
/// download in ranges, the layout (DESIGN §5: the record never runs ahead of what is durable). Pure.
///
/// A value carried from the transfer thread to the closing work.
struct ClosingAccount: Sendable {
    /// What the part files hold now: durable once the closing sync succeeded.
    let held: Int64
    /// What was durable before the closing sync.
    let durable: Int64
    /// The ranges of a segmented download (nil for one stream), and what each had received when the transfer stopped.
    let ledger: SegmentLedger?
    let marks: [SegmentLease.ID: Int64]
    /// A stream's segments with everything appended when it stopped: recorded when the closing made all of it durable.
    let stream: StreamInfo?

    init(held: Int64, durable: Int64, ledger: SegmentLedger? = nil, marks: [SegmentLease.ID: Int64] = [:], stream: StreamInfo? = nil) {
        self.held = held
        self.durable = durable
        self.ledger = ledger
        self.marks = marks
        self.stream = stream
    }

    /// A stream's record after a closing that left `durable` bytes, with the closing's `note`; nil when it covers
    /// other bytes (a sync that failed: the last checkpoint stands) or the task is not a stream.
    func streamRecord(durable: Int64, note: String?) -> StreamInfo? {
        guard var info = stream, info.appendedBytes == durable else { return nil }
        if let note { info.note = note }
        return info
    }

    /// The durable bytes and the layout to record (nil: not segmented; empty: no layout any more) for a task that
    /// failed with `error` (nil: paused) while its part files keep `kept`.
    func recorded(_ kept: ClosingVerdict.KeptBytes, error: DownloadError?) -> (durable: Int64, segments: [SegmentRecord]?) {
        if kept == .nothing { return (0, ledger == nil ? nil : []) }
        guard var ledger else { return (kept == .synced ? held : durable, nil) }
        // What was received before a successful sync is durable now.
        if kept == .synced { for (lease, offset) in marks { ledger.commit(lease, durableUpTo: offset) } }
        if case .rangesIgnored = error {
            // One stream goes on from the durable start of the file.
            return (ResumePoint.contiguousPrefix(of: ledger.records), [])
        }
        return (ledger.committedBytes, ledger.records)
    }

    /// The layout to record once the task completed.
    var completedSegments: [SegmentRecord]? { ledger == nil ? nil : [] }
}
