/// Which bytes of one file are durable, which are being fetched and by which connection, and which are
/// still free: the bookkeeping of a segmented download, as a pure value.
///
/// The ranges tile `0..<total` exactly and never overlap. Each is one of
/// - **done**: every byte is committed (durable in the part file and allowed into the database);
/// - **leased**: a connection fetches it; the lease counts bytes received and, of those, bytes committed;
///   after its connection is released a lease keeps only its received bytes until they are committed;
/// - **free**: nobody fetches it yet.
///
/// `plan` hands out the first leases, `leaseNext` feeds an idle connection (a free range, else the larger
/// half of the lease that would finish last), `received`, `commit`, `release` and `abandon` follow the
/// connections, and `records` gives the rows to store. Every method is pure bookkeeping: the engine that
/// owns the connections keeps one ledger per task on its thread and carries out what it returns.
public struct SegmentLedger: Sendable, Equatable {
    /// Split points fall on multiples of this many bytes unless the caller says otherwise.
    public static let defaultAlignment: Int64 = 64 * 1024

    /// Size of the file in bytes.
    public let total: Int64
    /// The ranges in file order; each has at least one byte.
    private(set) var segments: [Segment]
    /// The id the next lease gets.
    private var nextLeaseID = 1

    /// A file of `total` bytes, all free.
    public init(total: Int64) {
        precondition(total >= 0, "a file cannot have \(total) bytes")
        self.total = total
        segments = total > 0 ? [Segment(start: 0, end: total, holder: .free)] : []
    }

    /// A file of `total` bytes restored from stored rows (after a restart or a crash): each row's committed
    /// bytes are done, everything else is free and nothing is leased.
    ///
    /// Rows may come in any order and need not cover the file. Returns nil when they cannot describe this
    /// file: a range outside `0..<total`, an empty or overlapping range, or a committed count outside the
    /// range. The caller then starts the file over.
    public init?(total: Int64, segments rows: [SegmentRecord]) {
        guard total >= 0 else { return nil }
        self.init(total: total)
        var restored: [Segment] = []
        var position: Int64 = 0
        for row in rows.sorted(by: { $0.start < $1.start }) {
            guard row.start >= position, row.start < row.end, row.end <= total,
                  row.committed >= 0, row.committed <= row.end - row.start
            else { return nil }
            if row.start > position { restored.append(Segment(start: position, end: row.start, holder: .free)) }
            let durableEnd = row.start + row.committed
            restored.append(Segment(start: row.start, end: durableEnd, holder: .done))
            restored.append(Segment(start: durableEnd, end: row.end, holder: .free))
            position = row.end
        }
        if position < total { restored.append(Segment(start: position, end: total, holder: .free)) }
        segments = restored
        normalize()
    }

    // MARK: Reading

    /// Bytes durable on disk, over the whole file.
    public var committedBytes: Int64 { segments.reduce(0) { $0 + $1.committedLength } }

    /// Bytes received so far (committed ones included), over the whole file.
    public var receivedBytes: Int64 { segments.reduce(0) { $0 + $1.receivedLength } }

    /// Whether every byte is committed (leases whose bytes are all committed may still await `release`).
    public var isComplete: Bool { committedBytes == total }

    /// The leases whose connections are running, in file order.
    public var activeLeases: [SegmentLeaseStatus] {
        segments.compactMap { segment in
            guard case .leased(let lease) = segment.holder, lease.isConnected else { return nil }
            return segment.status(of: lease)
        }
    }

    /// Where lease `id` stands; nil once it is done, abandoned or unknown.
    public func status(of id: SegmentLease.ID) -> SegmentLeaseStatus? {
        guard let index = index(of: id), case .leased(let lease) = segments[index].holder else { return nil }
        return segments[index].status(of: lease)
    }

    /// The lease of the range right before lease `id`'s, when a lease holds it.
    public func lease(before id: SegmentLease.ID) -> SegmentLease.ID? {
        guard let index = index(of: id), index > 0, case .leased(let lease) = segments[index - 1].holder else { return nil }
        return lease.id
    }

    /// The rows to store: each is a run of done ranges, possibly followed by one range committed only in part.
    /// Free ranges and ranges with nothing committed give no row, so the table stays small.
    public var records: [SegmentRecord] {
        var rows: [SegmentRecord] = []
        for segment in segments {
            let committed = segment.committedLength
            guard committed > 0 else { continue }
            if let last = rows.last, last.isComplete, last.end == segment.start {
                rows[rows.count - 1] = SegmentRecord(
                    start: last.start, end: segment.end, committed: last.committed + committed)
            } else {
                rows.append(SegmentRecord(start: segment.start, end: segment.end, committed: committed))
            }
        }
        return rows
    }

    // MARK: Internals shared by the extensions

    /// The position of lease `id` in `segments`.
    func index(of id: SegmentLease.ID) -> Int? {
        segments.firstIndex { segment in
            if case .leased(let lease) = segment.holder { return lease.id == id }
            return false
        }
    }

    /// A fresh lease id.
    mutating func makeLeaseID() -> SegmentLease.ID {
        defer { nextLeaseID += 1 }
        return SegmentLease.ID(nextLeaseID)
    }

    /// Replaces `segments[index]` by `replacement` (in file order, together covering the same bytes), then tidies up.
    mutating func replace(at index: Int, with replacement: [Segment]) {
        segments.replaceSubrange(index...index, with: replacement)
        normalize()
    }

    /// Inserts `segment` at `index` without tidying up (the caller keeps the tiling).
    mutating func insert(_ segment: Segment, at index: Int) {
        segments.insert(segment, at: index)
    }

    /// Sets the holder of `segments[index]`, then tidies up.
    mutating func setHolder(_ holder: Segment.Holder, at index: Int) {
        segments[index].holder = holder
        normalize()
    }

    /// Stores new progress for the lease at `segments[index]` without tidying up.
    mutating func updateLease(_ lease: Segment.Lease, at index: Int) {
        segments[index].holder = .leased(lease)
    }

    /// Moves the end of `segments[index]` to `end`: down when the caller gives the freed bytes to a new
    /// segment, up over bytes the caller took out of the tiling.
    mutating func setEnd(_ end: Int64, at index: Int) {
        segments[index].end = end
    }

    /// Drops empty ranges, turns released leases that are fully committed into done ranges, and merges
    /// neighbouring free ranges and neighbouring done ranges.
    private mutating func normalize() {
        var tidy: [Segment] = []
        tidy.reserveCapacity(segments.count)
        for var segment in segments where segment.end > segment.start {
            if case .leased(let lease) = segment.holder, !lease.isConnected, lease.committed == segment.length {
                segment.holder = .done
            }
            if let last = tidy.last, last.end == segment.start, last.holder == segment.holder,
               segment.holder == .free || segment.holder == .done {
                tidy[tidy.count - 1].end = segment.end
            } else {
                tidy.append(segment)
            }
        }
        segments = tidy
    }
}
