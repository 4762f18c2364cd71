import HaulCore

/// What a checkpoint records: the bytes each lease received, committed once a sync covering them is done
/// (DESIGN §5, §7), and the cookies servers set (§8).
extension ActiveTransfer {
    /// What each lease received up to now, for a checkpoint: committed once a sync covering them is done.
    func receivedMarks() -> [SegmentLease.ID: Int64] {
        guard let ledger else { return [:] }
        var marks: [SegmentLease.ID: Int64] = [:]
        for lease in leases {
            guard let status = ledger.status(of: lease) else {
                leases.remove(lease)
                continue
            }
            marks[lease] = status.range.lowerBound + status.received
        }
        return marks
    }

    /// A sync that covered `bytes` (a single stream) or `marks` (ranges) finished: record them.
    func synced(bytes: Int64, marks: [SegmentLease.ID: Int64]) {
        guard var ledger else {
            guard bytes > durable else { return }
            durable = bytes
            reportCookies()
            return emit(.checkpoint(request.id, durableBytes: bytes))
        }
        reportCookies()
        for (lease, offset) in marks { ledger.commit(lease, durableUpTo: offset) }
        self.ledger = ledger
        durable = ledger.committedBytes
        emit(.segmentCheckpoint(request.id, ledger.records, durableBytes: durable))
    }

    /// Reports the cookies servers set since the last report, for the task to keep (at checkpoints: cookies
    /// rarely change, and a resume needs only those of the bytes it keeps).
    func reportCookies() {
        guard let changed = cookies.checkpoint() else { return }
        emit(.cookies(request.id, changed))
    }
}
