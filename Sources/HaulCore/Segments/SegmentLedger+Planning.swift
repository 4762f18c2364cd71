extension SegmentLedger {
    /// Hands out the first leases for up to `connections` connections over the free ranges.
    ///
    /// Connections go one at a time to the range whose share would be largest (a range nobody fetches
    /// yet counts whole), and each range is cut into equal parts at multiples of `alignment`. No part is
    /// smaller than `minSplit` (a free range that is smaller goes whole to one connection), so a file below
    /// 2 × `minSplit` gets one connection, and fewer leases than
    /// `connections` come back when there is not enough to split. Ranges left over stay free for
    /// `leaseNext`. Returns the new leases in file order.
    public mutating func plan(
        connections: Int, minSplit: Int64, alignment: Int64 = SegmentLedger.defaultAlignment
    ) -> [SegmentLease] {
        let minSplit = max(1, minSplit)
        let alignment = max(1, alignment)
        let free = segments.indices.filter { segments[$0].holder == .free }
        guard connections > 0, !free.isEmpty else { return [] }

        var shares = [Int](repeating: 0, count: free.count)
        for _ in 0..<connections {
            var best: (slot: Int, share: Int64)?
            for (slot, index) in free.enumerated() {
                let length = segments[index].length
                let parts = shares[slot]
                if parts > 0, length / Int64(parts + 1) < minSplit { continue }
                let share = length / Int64(max(parts, 1))
                // An unserved range wins a tie: it has nobody yet.
                if best == nil || share > best!.share || (share == best!.share && parts == 0) {
                    best = (slot, share)
                }
            }
            guard let best else { break }
            shares[best.slot] += 1
        }

        var leases: [SegmentLease] = []
        var cutUp: [(index: Int, pieces: [Segment])] = []
        for (slot, index) in free.enumerated() where shares[slot] > 0 {
            let segment = segments[index]
            let cuts = Self.cuts(of: segment.start..<segment.end, parts: shares[slot], minSplit: minSplit, alignment: alignment)
            let bounds = [segment.start] + cuts + [segment.end]
            var pieces: [Segment] = []
            for (start, end) in zip(bounds, bounds.dropFirst()) {
                let id = makeLeaseID()
                pieces.append(Segment(start: start, end: end, holder: .leased(Segment.Lease(id: id))))
                leases.append(SegmentLease(id: id, range: start..<end))
            }
            cutUp.append((index, pieces))
        }
        // Back to front, so the indices of the ranges not yet replaced stay valid.
        for (index, pieces) in cutUp.reversed() { replace(at: index, with: pieces) }
        return leases
    }

    /// A new lease for an idle connection, or nil when there is nothing left worth taking.
    ///
    /// A free range comes first (the one nearest the start of the file, whole). Otherwise the idle
    /// connection takes the larger part of the unreceived bytes of the running lease that would finish
    /// last (dynamic halving):
    /// - **Which lease:** the one with the latest finish, its remaining bytes over its speed in `speeds`
    ///   (bytes per second). A lease missing from a non-empty `speeds` runs at the median of the others; a
    ///   speed of 0 never finishes. With no speeds at all, the lease with the most bytes left goes first.
    /// - **Where to cut:** in the middle with no speeds. With speeds, where both connections would finish
    ///   together, the idle one running at `newSpeed` (nil: the median of `speeds`), but it always takes at
    ///   least half: a slow lease gives up more than half, never less.
    /// - **Limits:** the cut falls on a multiple of `alignment` after the running lease's received bytes,
    ///   and only where the new lease and the running lease's whole range both stay at least `minSplit`.
    ///
    /// The grant then names the running lease's new end, where its connection must stop. Until the new
    /// lease's connection has an answer the cut is provisional: `giveBack` returns an untouched new lease to
    /// the lease it was cut from. Leases in `uncuttable` are not cut (a connection with no answer yet, or one
    /// whose last cut is still provisional).
    public mutating func leaseNext(
        minSplit: Int64, alignment: Int64 = SegmentLedger.defaultAlignment,
        speeds: [SegmentLease.ID: Double] = [:], newSpeed: Double? = nil, uncuttable: Set<SegmentLease.ID> = []
    ) -> SegmentGrant? {
        if let index = segments.firstIndex(where: { $0.holder == .free }) {
            let id = makeLeaseID()
            let segment = segments[index]
            setHolder(.leased(Segment.Lease(id: id)), at: index)
            return SegmentGrant(lease: SegmentLease(id: id, range: segment.start..<segment.end))
        }
        return halve(
            minSplit: max(1, minSplit), alignment: max(1, alignment), speeds: speeds, newSpeed: newSpeed,
            uncuttable: uncuttable)
    }

    /// Cuts running lease `id` at `offset` (rounded up to `alignment`) and hands the rest to a new lease: a
    /// fresh connection takes over a slow one's range while the slow one goes on up to the cut. Nil when the
    /// lease is not running or the cut would leave nothing to take.
    public mutating func takeOver(
        _ id: SegmentLease.ID, from offset: Int64, alignment: Int64 = SegmentLedger.defaultAlignment
    ) -> SegmentGrant? {
        guard let index = index(of: id), case .leased(let lease) = segments[index].holder, lease.isConnected else {
            return nil
        }
        let segment = segments[index]
        let floor = max(offset, segment.start + lease.received)
        let cut = Self.alignDown(floor + max(1, alignment) - 1, max(1, alignment))
        guard cut > segment.start + lease.received, cut < segment.end else { return nil }
        let newID = makeLeaseID()
        setEnd(cut, at: index)
        insert(Segment(start: cut, end: segment.end, holder: .leased(Segment.Lease(id: newID))), at: index + 1)
        return SegmentGrant(
            lease: SegmentLease(id: newID, range: cut..<segment.end), shrunk: SegmentGrant.Shrink(lease: id, newEnd: cut))
    }

    /// Dynamic halving: splits the running lease that would finish last (see `leaseNext`).
    private mutating func halve(
        minSplit: Int64, alignment: Int64, speeds: [SegmentLease.ID: Double], newSpeed: Double?,
        uncuttable: Set<SegmentLease.ID>
    ) -> SegmentGrant? {
        let median = Self.median(Array(speeds.values.filter { $0 > 0 }))
        let thiefSpeed = newSpeed ?? median
        var best: (index: Int, cut: Int64, finish: Double, remaining: Int64)?
        for (index, segment) in segments.enumerated() {
            guard case .leased(let lease) = segment.holder, lease.isConnected, !uncuttable.contains(lease.id) else { continue }
            let cursor = segment.start + lease.received
            let remaining = segment.end - cursor
            let speed = speeds.isEmpty ? nil : max(0, speeds[lease.id] ?? median ?? 0)
            guard let cut = Self.cut(
                cursor: cursor, remaining: remaining, speed: speed, thiefSpeed: thiefSpeed, alignment: alignment),
                segment.end - cut >= minSplit, cut - segment.start >= minSplit else { continue }
            let finish = speed.map { $0 > 0 ? Double(remaining) / $0 : .infinity } ?? Double(remaining)
            if best == nil || (finish, remaining) > (best!.finish, best!.remaining) {
                best = (index, cut, finish, remaining)
            }
        }
        guard let best, case .leased(let victim) = segments[best.index].holder else { return nil }
        let oldEnd = segments[best.index].end
        let id = makeLeaseID()
        setEnd(best.cut, at: best.index)
        insert(Segment(start: best.cut, end: oldEnd, holder: .leased(Segment.Lease(id: id))), at: best.index + 1)
        return SegmentGrant(
            lease: SegmentLease(id: id, range: best.cut..<oldEnd),
            shrunk: SegmentGrant.Shrink(lease: victim.id, newEnd: best.cut))
    }

    /// Where to cut a running lease with `remaining` bytes after `cursor`, running at `speed` (nil: unknown),
    /// for a new connection at `thiefSpeed`: an aligned offset after `cursor` that leaves the new lease at least
    /// half; nil when there is none.
    static func cut(
        cursor: Int64, remaining: Int64, speed: Double?, thiefSpeed: Double?, alignment: Int64
    ) -> Int64? {
        let half = remaining / 2
        var keep = half
        if let speed, let thiefSpeed, thiefSpeed > 0 {
            let share = speed / (speed + thiefSpeed)
            keep = min(half, (Double(remaining) * share).roundedInt64(.down) ?? half)
        }
        var cut = alignDown(cursor + keep, alignment)
        if cut <= cursor { cut = alignDown(cursor, alignment) + alignment }
        return cut <= cursor + half ? cut : nil
    }

    /// The inner cut points that divide `range` into `parts` near-equal pieces at multiples of `alignment`,
    /// each at least `minSplit`; fewer pieces when that is impossible (none: one piece).
    static func cuts(of range: Range<Int64>, parts: Int, minSplit: Int64, alignment: Int64) -> [Int64] {
        let length = range.upperBound - range.lowerBound
        var count = parts
        while count > 1 {
            var cuts: [Int64] = []
            var previous = range.lowerBound
            for part in 1..<count {
                let n = Int64(count), j = Int64(part)
                let ideal = range.lowerBound + (length / n) * j + (length % n) * j / n
                let cut = alignNearest(ideal, alignment)
                guard cut - previous >= minSplit else { break }
                cuts.append(cut)
                previous = cut
            }
            if cuts.count == count - 1, range.upperBound - previous >= minSplit { return cuts }
            count -= 1
        }
        return []
    }

    static func alignDown(_ offset: Int64, _ alignment: Int64) -> Int64 {
        offset - offset % alignment
    }

    static func alignNearest(_ offset: Int64, _ alignment: Int64) -> Int64 {
        alignDown(offset + alignment / 2, alignment)
    }

    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }
}
