/// One stored row of a task's segment table: the range `start..<end`, of which the first `committed` bytes
/// are durable in the part file.
///
/// `SegmentLedger.records` produces these and `SegmentLedger(total:segments:)` reads them back. A row says
/// nothing about the bytes after `start + committed`: on restore they are free to fetch again.
public struct SegmentRecord: Sendable, Hashable {
    /// First byte of the range.
    public var start: Int64
    /// One past the last byte of the range.
    public var end: Int64
    /// Bytes from `start` that are durable on disk (0 ... end - start).
    public var committed: Int64

    public init(start: Int64, end: Int64, committed: Int64) {
        self.start = start
        self.end = end
        self.committed = committed
    }

    /// Whether every byte of the range is durable.
    public var isComplete: Bool { committed == end - start }
}
