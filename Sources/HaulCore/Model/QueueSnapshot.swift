import Foundation

/// A read-only copy of the whole queue, handed to front ends on every change and once a second.
public struct QueueSnapshot: Sendable, Equatable, Codable {
    /// One task as a front end sees it: the stored task plus live figures.
    public struct Row: Sendable, Equatable, Identifiable, Codable {
        public var task: DownloadTask
        /// Bytes written so far (live; may run ahead of `task.bytesDone`, which is durable).
        public var bytesReceived: Int64
        /// Bytes per second over the sliding window; nil when there is no sample yet or the transfer stalled.
        public var speed: Double?
        /// Seconds left; nil when unknown.
        public var eta: Double?
        /// When a waiting task will be retried, if it is backing off.
        public var retryAt: Date?
        /// A running task that has received nothing for a few seconds (shown as "stalled", not as a speed).
        public var isStalled = false
        /// Connections open for a running task.
        public var connections = 0
        /// A running download over several connections, byte by byte: done, in flight, waiting.
        public var segmentMap: SegmentMap?
        /// A limit set for this task while the queue runs.
        public var rateLimit: RateLimit?
        /// Connections this task may use (`-s`, or as set while the queue runs).
        public var split = 1

        public var id: TaskID { task.id }

        public init(task: DownloadTask, bytesReceived: Int64, speed: Double? = nil, eta: Double? = nil, retryAt: Date? = nil) {
            self.task = task
            self.bytesReceived = bytesReceived
            self.speed = speed
            self.eta = eta
            self.retryAt = retryAt
        }
    }

    /// Unfinished tasks in queue order, then completed ones newest first.
    public var rows: [Row] {
        get { storedRows }
        set {
            storedRows = newValue
            tally = Tally(newValue)
            revision = RowsRevision()
        }
    }
    private var storedRows: [Row]
    /// How the rows were made: whole, then patched (`updateRow`); front ends redo only what the patches touched.
    public private(set) var revision = RowsRevision()
    /// How many rows are in each state, and where the running ones are: remote clients poll these
    /// every second, so they are counted once per snapshot, not once per question.
    public private(set) var tally: Tally
    public var maxConcurrent: Int
    /// Sum of the running tasks' speeds; nil when none has a sample.
    public var totalSpeed: Double?
    /// Monotonic counter, bumped on every published snapshot.
    public var sequence: UInt64
    /// The latest warning from the store (for example a write that failed), shown as a one-line banner;
    /// nil when there is none.
    public var warning: String?
    /// The cap on the sum of all downloads; nil for none.
    public var overallLimit: RateLimit?
    /// What the schedule does now (`scheduled: resumes at 01:00`); nil when it does nothing.
    public var schedule: String?
    /// The user set the schedule aside until its next change.
    public var scheduleSuspended = false
    /// The schedule's cap on all downloads now (nil when it sets none); the cap that holds is the lower of this and
    /// `overallLimit`.
    public var scheduleCap: RateLimit?
    /// When the schedule lets the queue run again (`23:00`, `Mon 01:00`, `never`), while it holds the queue; else nil.
    public var scheduleHeldUntil: String?
    /// Tasks of the queue not in `rows` yet: a long queue's first screen, shown while the rest is read (an attached
    /// list's first page, a live list's first tasks); 0 in a whole snapshot. Not sent: a snapshot sent is whole.
    public var rowsToCome = 0
    /// The process that owns the queue, as an attached list last reached it (it changes when the background haul
    /// is restarted); nil in the owner's own snapshots.
    public var ownerProcessID: Int32?

    public init(
        rows: [Row] = [], maxConcurrent: Int = 3, totalSpeed: Double? = nil, sequence: UInt64 = 0, warning: String? = nil,
        overallLimit: RateLimit? = nil
    ) {
        storedRows = rows
        tally = Tally(rows)
        self.maxConcurrent = maxConcurrent
        self.totalSpeed = totalSpeed
        self.sequence = sequence
        self.warning = warning
        self.overallLimit = overallLimit
    }

    enum CodingKeys: String, CodingKey {
        case storedRows = "rows", tally, maxConcurrent, totalSpeed, sequence, warning, overallLimit, schedule, scheduleSuspended, ownerProcessID
        case scheduleCap, scheduleHeldUntil
    }

    /// Replaces the row at `index` by `row` of the same task in the same state and group (new live figures, a new
    /// retry time) without counting every row again: the per-second refresh of a large queue costs what changed.
    /// Returns false, changing nothing, when the row is not that task in that state and group.
    public mutating func updateRow(at index: Int, with row: Row) -> Bool {
        guard storedRows.indices.contains(index), storedRows[index].id == row.id,
              storedRows[index].task.state == row.task.state, storedRows[index].task.group == row.task.group
        else { return false }
        storedRows[index] = row
        revision.notePatched(index)
        return true
    }

    /// The snapshot with no rows but its tally (counts and running positions) kept: what an encoder writes
    /// around the rows when it writes them one at a time (`SnapshotJSON` in HaulRemote).
    public var shell: QueueSnapshot {
        var shell = self
        shell.storedRows = []
        return shell
    }

    public func count(of state: TaskState) -> Int { tally.counts[state] ?? 0 }

    /// The running rows, in queue order.
    public var running: [Row] { tally.running.map { rows[$0] } }

    /// Counts by state and the indices of running rows.
    public struct Tally: Sendable, Equatable, Codable {
        public var counts: [TaskState: Int] = [:]
        public var running: [Int] = []

        init(_ rows: [Row]) {
            // Counted in place, then kept by state: no hashing per row.
            var byState = [Int](repeating: 0, count: TaskState.allCases.count)
            for (index, row) in rows.enumerated() {
                let state = row.task.state
                byState[Self.slot(state)] += 1
                if state == .running { running.append(index) }
            }
            for state in TaskState.allCases where byState[Self.slot(state)] > 0 { counts[state] = byState[Self.slot(state)] }
        }

        private static func slot(_ state: TaskState) -> Int {
            switch state {
            case .waiting: 0
            case .running: 1
            case .paused: 2
            case .completed: 3
            case .failed: 4
            }
        }
    }

    /// Where the Downloading list's tasks (everything unfinished, in queue order) are in `rows`: a screen shows
    /// a few of 10,000 tasks without copying the others (a row is several hundred bytes).
    public var downloadingIndices: [Int] { rows.indices.filter { rows[$0].task.state.isUnfinished } }
    /// Where the Completed list's tasks (newest first) are in `rows`.
    public var completedIndices: [Int] { rows.indices.filter { rows[$0].task.state == .completed } }
}
