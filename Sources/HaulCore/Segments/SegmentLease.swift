/// A range of the file handed to one connection: it requests exactly `range` (`Range: bytes=a-b`).
public struct SegmentLease: Sendable, Hashable {
    /// Names a lease within one ledger; ids are never reused by that ledger.
    public struct ID: Sendable, Hashable, Comparable, CustomStringConvertible {
        public let rawValue: Int

        public init(_ rawValue: Int) { self.rawValue = rawValue }

        public static func < (lhs: ID, rhs: ID) -> Bool { lhs.rawValue < rhs.rawValue }

        public var description: String { "lease \(rawValue)" }
    }

    public var id: ID
    /// The bytes the connection fetches. Its end may later move down when an idle connection takes
    /// part of it (see `SegmentGrant.shrunk`), never below the bytes already received.
    public var range: Range<Int64>

    public init(id: ID, range: Range<Int64>) {
        self.id = id
        self.range = range
    }
}

/// What `SegmentLedger.leaseNext` hands an idle connection.
public struct SegmentGrant: Sendable, Hashable {
    /// A running lease whose end moved down because the new lease took the rest of its range.
    public struct Shrink: Sendable, Hashable {
        /// The running lease that gave up its tail.
        public var lease: SegmentLease.ID
        /// Its new end: its connection must stop there (bytes from here on belong to the new lease).
        public var newEnd: Int64

        public init(lease: SegmentLease.ID, newEnd: Int64) {
            self.lease = lease
            self.newEnd = newEnd
        }
    }

    /// The range the idle connection fetches now.
    public var lease: SegmentLease
    /// Set when the range was split off a running lease (dynamic halving); nil for a free range.
    public var shrunk: Shrink?

    public init(lease: SegmentLease, shrunk: Shrink? = nil) {
        self.lease = lease
        self.shrunk = shrunk
    }
}

/// Where one lease stands, for the engine and for tests.
public struct SegmentLeaseStatus: Sendable, Hashable {
    public var id: SegmentLease.ID
    /// The lease's current range (its end may have moved down since it was granted).
    public var range: Range<Int64>
    /// Bytes from `range.lowerBound` received so far.
    public var received: Int64
    /// Bytes from `range.lowerBound` durable on disk (never more than `received`).
    public var committed: Int64
    /// False once the connection was released: the lease then only waits for its received bytes to be committed.
    public var isConnected: Bool

    public init(id: SegmentLease.ID, range: Range<Int64>, received: Int64, committed: Int64, isConnected: Bool) {
        self.id = id
        self.range = range
        self.received = received
        self.committed = committed
        self.isConnected = isConnected
    }
}
