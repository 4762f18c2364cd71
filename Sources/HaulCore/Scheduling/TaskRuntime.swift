import Foundation

/// What the controller knows of a task beyond its stored record, in one place per task: the attempt the
/// engine holds, the back-off before a retry, bytes not yet recorded, and a removal waiting for the engine.
/// A task with none of these has no entry.
struct TaskRuntime: Sendable {
    /// A transfer the engine holds (started, no `finished` yet).
    struct Attempt: Sendable {
        /// Durable bytes when the attempt began: an attempt that moved past them resets the retry count.
        var startByte: Int64
        /// Bytes in the part file (live; may run ahead of the durable count).
        var position: Int64
        var meter = SpeedMeter()
        /// Connections the engine has open for it.
        var connections = 0
        /// Where a download over several connections stands, live.
        var segmentMap: SegmentMap?

        init(startByte: Int64) {
            self.startByte = startByte
            position = startByte
        }
    }

    /// When a waiting task may be retried.
    struct Backoff: Sendable {
        var instant: ContinuousClock.Instant
        var date: Date
    }

    /// The task was removed while the engine still held it; the engine deletes the part file when asked.
    struct Removal: Sendable {
        var task: DownloadTask
        var deleteFile: Bool
    }

    var attempt: Attempt?
    var backoff: Backoff?
    /// A durable byte count not yet written to the store.
    var unrecordedBytes: Int64?
    /// A durable segment layout not yet written to the store.
    var unrecordedSegments: [SegmentRecord]?
    var removal: Removal?
    /// The server answered an extra connection's range with the whole file: one connection from now on.
    var singleConnection = false
    /// The bandwidth cap set for this task while the queue runs, over `--limit-rate`.
    var rate = RateOverride.inherit
    /// The task's own cap: one set live, else the one it was added with (0: none, whatever the run's).
    func rate(of task: DownloadTask) -> RateOverride {
        guard rate == .inherit, let stored = task.requestOptions.rateLimit else { return rate }
        return RateLimit(bytesPerSecond: stored).map(RateOverride.limited) ?? .unlimited
    }
    /// Connections set for this task while the queue runs, over `-s`.
    var split: Int?
    /// `--on-link-expired` runs for it now: the failure a new link would undo (the task waits, held out of the slots).
    var renewing: DownloadError?
    /// The link `--on-link-expired` gave it last, with its bytes then.
    var linkGiven: LinkRenewal.Given?
    /// The user resumed it outside the schedule's run windows: it runs anyway.
    var startedByHand = false
    /// The most bytes its attempts have held durable since it last retried on its own: an attempt that gets no
    /// further has not moved the file forward and does not renew the retries (a file whose ETag changes on every
    /// request, on a connection that drops halfway, started over and fetched the same half without end).
    var mostDurable: Int64?

    var isEmpty: Bool {
        attempt == nil && backoff == nil && unrecordedBytes == nil && unrecordedSegments == nil && removal == nil
            && !singleConnection && rate == .inherit && split == nil && renewing == nil && linkGiven == nil && !startedByHand
            && mostDurable == nil
    }
}

/// The runtime records by task; entries that become empty are dropped.
struct RuntimeTable: Sendable {
    private(set) var byID: [TaskID: TaskRuntime] = [:]

    subscript(id: TaskID) -> TaskRuntime {
        get { byID[id] ?? TaskRuntime() }
        set { byID[id] = newValue.isEmpty ? nil : newValue }
    }

    /// Whether the engine holds the task.
    func isInFlight(_ id: TaskID) -> Bool { byID[id]?.attempt != nil }

    /// Gives back the room of records a command for every task dropped (100,000 resumed by hand, then removed).
    mutating func compact() { byID.giveBackRoom() }

    /// The tasks the engine holds.
    var inFlight: [TaskID] { byID.compactMap { $0.value.attempt == nil ? nil : $0.key } }

    var hasAttempts: Bool { byID.values.contains { $0.attempt != nil } }
    var hasBackoff: Bool { byID.values.contains { $0.backoff != nil } }
    var hasRenewals: Bool { byID.values.contains { $0.renewing != nil } }

    /// The tasks waiting for `--on-link-expired` to give them a new link.
    var renewals: [TaskID] { byID.compactMap { $0.value.renewing == nil ? nil : $0.key } }

    /// Retry times of the tasks backing off, for the slot policy.
    var backoffInstants: [TaskID: ContinuousClock.Instant] {
        var instants: [TaskID: ContinuousClock.Instant] = [:]
        for (id, runtime) in byID { if let backoff = runtime.backoff { instants[id] = backoff.instant } }
        return instants
    }

    /// Takes every unrecorded byte count and segment layout, for the store.
    mutating func takeUnrecorded() -> (bytes: [TaskID: Int64], segments: [TaskID: [SegmentRecord]]) {
        var bytes: [TaskID: Int64] = [:]
        var segments: [TaskID: [SegmentRecord]] = [:]
        for (id, runtime) in byID where runtime.unrecordedBytes != nil || runtime.unrecordedSegments != nil {
            bytes[id] = runtime.unrecordedBytes
            segments[id] = runtime.unrecordedSegments
            self[id].unrecordedBytes = nil
            self[id].unrecordedSegments = nil
        }
        return (bytes, segments)
    }
}
