/// What changed from one snapshot to a later one, for a front end that holds the older one: the rows that
/// are new or differ, the order only when it changed, and the header figures. An attached list over the
/// socket receives this instead of every row again (ten thousand rows are megabytes of JSON).
///
/// Pure: `init(from:to:)` compares (only the patched rows, when both snapshots have the same rows patched in place),
/// `applied(to:)` rebuilds; tested without a socket.
public struct QueueSnapshotDelta: Sendable, Equatable, Codable {
    /// The sequence of the snapshot this applies to.
    public var base: UInt64
    public var sequence: UInt64
    public var maxConcurrent: Int
    public var totalSpeed: Double?
    public var warning: String?
    public var overallLimit: RateLimit?
    public var schedule: String?
    public var scheduleSuspended: Bool
    public var scheduleCap: RateLimit?
    public var scheduleHeldUntil: String?
    /// Every row's task, in order, when rows came, went or moved; nil when the order is the base's.
    public var order: [TaskID]?
    /// The rows that are new or differ from the base's.
    public var rows: [QueueSnapshot.Row]

    public init(from old: QueueSnapshot, to new: QueueSnapshot) {
        base = old.sequence
        sequence = new.sequence
        maxConcurrent = new.maxConcurrent
        totalSpeed = new.totalSpeed
        warning = new.warning
        overallLimit = new.overallLimit
        schedule = new.schedule
        scheduleSuspended = new.scheduleSuspended
        scheduleCap = new.scheduleCap
        scheduleHeldUntil = new.scheduleHeldUntil
        if old.revision.epoch == new.revision.epoch, old.revision.patched.isSubset(of: new.revision.patched) {
            // Patched rows of the same rows: only those may differ (`RowsRevision`).
            order = nil
            rows = new.revision.patched.sorted().compactMap { old.rows[$0] == new.rows[$0] ? nil : new.rows[$0] }
            return
        }
        let sameOrder = old.rows.count == new.rows.count && zip(old.rows, new.rows).allSatisfy { $0.id == $1.id }
        if sameOrder {
            order = nil
            rows = zip(old.rows, new.rows).compactMap { $0 == $1 ? nil : $1 }
        } else {
            order = new.rows.map(\.id)
            let previous = Dictionary(old.rows.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            rows = new.rows.filter { previous[$0.id] != $0 }
        }
    }

    /// The newer snapshot, from `old`; nil when `old` is not the base (or lacks a row the order names),
    /// and the front end then asks for a whole snapshot.
    ///
    /// - Parameter index: where each task's row is in `old`, when the caller keeps it: with the order unchanged
    ///   and no row changing state, only the changed rows are touched (an attached list's once-a-second update
    ///   then costs the running tasks, not the queue).
    public func applied(to old: QueueSnapshot, index: [TaskID: Int]? = nil) -> QueueSnapshot? {
        guard old.sequence == base else { return nil }
        if order == nil, let index {
            var patched = old
            if rows.allSatisfy({ row in index[row.id].map { patched.updateRow(at: $0, with: row) } ?? false }) {
                patched.maxConcurrent = maxConcurrent
                patched.totalSpeed = totalSpeed
                patched.sequence = sequence
                patched.warning = warning
                patched.overallLimit = overallLimit
                patched.schedule = schedule
                patched.scheduleSuspended = scheduleSuspended
                patched.scheduleCap = scheduleCap
                patched.scheduleHeldUntil = scheduleHeldUntil
                return patched
            }
        }
        var result: [QueueSnapshot.Row]
        if let order {
            var byID = Dictionary(old.rows.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            for row in rows { byID[row.id] = row }
            result = []
            result.reserveCapacity(order.count)
            for id in order {
                guard let row = byID[id] else { return nil }
                result.append(row)
            }
        } else {
            result = old.rows
            let index = Dictionary(result.indices.map { (result[$0].id, $0) }, uniquingKeysWith: { first, _ in first })
            for row in rows {
                guard let position = index[row.id] else { return nil }
                result[position] = row
            }
        }
        var snapshot = QueueSnapshot(
            rows: result, maxConcurrent: maxConcurrent, totalSpeed: totalSpeed, sequence: sequence, warning: warning,
            overallLimit: overallLimit)
        snapshot.schedule = schedule
        snapshot.scheduleSuspended = scheduleSuspended
        snapshot.scheduleCap = scheduleCap
        snapshot.scheduleHeldUntil = scheduleHeldUntil
        return snapshot
    }
}
