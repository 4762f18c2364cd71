/// One range of a `SegmentLedger`: `start..<end` and who holds it.
struct Segment: Sendable, Equatable {
    /// Who holds a range.
    enum Holder: Sendable, Equatable {
        /// Nobody fetches it yet.
        case free
        /// Every byte is committed.
        case done
        /// A connection fetches it, or did and its received bytes wait to be committed.
        case leased(Lease)
    }

    /// A lease's progress, counted in bytes from the range's start.
    struct Lease: Sendable, Equatable {
        var id: SegmentLease.ID
        var received: Int64 = 0
        var committed: Int64 = 0
        /// False after `release`: the range then ends at the received bytes and waits for them to be committed.
        var isConnected = true
    }

    var start: Int64
    var end: Int64
    var holder: Holder

    var length: Int64 { end - start }

    /// Bytes of the range that are durable.
    var committedLength: Int64 {
        switch holder {
        case .free: 0
        case .done: length
        case .leased(let lease): lease.committed
        }
    }

    /// Bytes of the range received so far (committed ones included).
    var receivedLength: Int64 {
        switch holder {
        case .free: 0
        case .done: length
        case .leased(let lease): lease.received
        }
    }

    /// The public view of `lease`, which holds this range.
    func status(of lease: Lease) -> SegmentLeaseStatus {
        SegmentLeaseStatus(
            id: lease.id, range: start..<end, received: lease.received, committed: lease.committed,
            isConnected: lease.isConnected)
    }
}
