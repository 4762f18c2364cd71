extension SegmentLedger {
    /// Counts `bytes` more received by the connection of lease `id` (live progress, not yet durable).
    ///
    /// Returns how many were accepted: never past the lease's current end, and none for a released or
    /// unknown lease. Fewer than `bytes` means the connection ran past its range (its end may have moved
    /// down) and must stop.
    @discardableResult
    public mutating func received(_ id: SegmentLease.ID, bytes: Int64) -> Int64 {
        guard bytes > 0, let index = index(of: id), case .leased(var lease) = segments[index].holder,
              lease.isConnected
        else { return 0 }
        let accepted = min(bytes, segments[index].length - lease.received)
        lease.received += accepted
        // A connected lease never changes shape here, so there is nothing to tidy (this runs per chunk).
        updateLease(lease, at: index)
        return accepted
    }

    /// Records that lease `id` is durable up to file offset `offset` (its bytes were written and synced).
    ///
    /// Never counts more than was received and never moves back. Works after `release` too, so the
    /// received bytes of an ended connection can still be committed; once all of them are, the range is done.
    public mutating func commit(_ id: SegmentLease.ID, durableUpTo offset: Int64) {
        guard let index = index(of: id), case .leased(var lease) = segments[index].holder else { return }
        let durable = min(max(offset - segments[index].start, 0), lease.received)
        guard durable > lease.committed else { return }
        lease.committed = durable
        setHolder(.leased(lease), at: index)
    }

    /// The connection of lease `id` ended: the bytes it did not receive become free.
    ///
    /// Its received but uncommitted bytes stay with the lease until `commit` covers them (then the range is
    /// done), or until `abandon` says they are lost. A fully received and committed lease is done at once.
    public mutating func release(_ id: SegmentLease.ID) {
        guard let index = index(of: id), case .leased(var lease) = segments[index].holder, lease.isConnected
        else { return }
        lease.isConnected = false
        let segment = segments[index]
        let receivedEnd = segment.start + lease.received
        replace(at: index, with: [
            Segment(start: segment.start, end: receivedEnd, holder: .leased(lease)),
            Segment(start: receivedEnd, end: segment.end, holder: .free),
        ])
    }

    /// Lease `id`'s uncommitted bytes are lost (a write failed, or the engine drops them): its committed
    /// bytes are done and everything after them becomes free. Ends the lease, connected or not.
    public mutating func abandon(_ id: SegmentLease.ID) {
        guard let index = index(of: id), case .leased(let lease) = segments[index].holder else { return }
        let segment = segments[index]
        let durableEnd = segment.start + lease.committed
        replace(at: index, with: [
            Segment(start: segment.start, end: durableEnd, holder: .done),
            Segment(start: durableEnd, end: segment.end, holder: .free),
        ])
    }

    /// Running lease `id` takes the free bytes right after it, up to `limit` (its connection's request still asks
    /// for them, so no new request is needed). Returns its new end, or nil when nothing free follows it.
    public mutating func absorbFree(after id: SegmentLease.ID, upTo limit: Int64) -> Int64? {
        guard let index = index(of: id), index + 1 < segments.count, case .leased(let lease) = segments[index].holder,
              lease.isConnected, segments[index + 1].holder == .free
        else { return nil }
        let free = segments[index + 1]
        let end = min(free.end, limit)
        guard end > free.start else { return nil }
        setEnd(end, at: index)
        if end == free.end {
            replace(at: index + 1, with: [])
        } else {
            replace(at: index + 1, with: [Segment(start: end, end: free.end, holder: .free)])
        }
        return end
    }
}
