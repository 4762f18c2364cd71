/// How a snapshot's rows came to be: made whole (a new `epoch`), then patched in place (`patched`), so that a front
/// end which worked something out for an earlier snapshot of the same epoch redoes it for the patched rows only.
///
/// Within one epoch the rows keep their tasks, order, states and groups (`QueueSnapshot.updateRow` refuses
/// anything else); only their other fields change. Epochs are unique in the process, so a front end never mistakes
/// one set of rows for another. A value carried by `QueueSnapshot`; it travels with no encoding (a decoded snapshot
/// starts an epoch of its own).
public struct RowsRevision: Sendable {
    /// The rows were made whole under this number, and never since.
    public let epoch: UInt64
    /// Indices of the rows replaced since the epoch began: a few (the running tasks), never more than the rows.
    public private(set) var patched: Set<Int> = []

    /// A new epoch, with nothing patched yet.
    public init() {
        epoch = Self.counter.withLock { last in
            last += 1
            return last
        }
    }

    mutating func notePatched(_ index: Int) { patched.insert(index) }

    private static let counter = PthreadMutex<UInt64>(0)
}

/// Not what a snapshot shows: two snapshots with the same rows are equal however their rows were made.
extension RowsRevision: Equatable {
    public static func == (_: RowsRevision, _: RowsRevision) -> Bool { true }
}
