/// What the controller has taken but not yet written to the store (group commit, DESIGN §5), as a pure value:
/// task changes and segment layouts, each the latest for its task, and when durable bytes were last recorded, so
/// progress goes to the store at most once per `spacing` however fast it comes.
struct SaveBuffer: Sendable {
    /// The shortest time between two progress transactions outside the tick.
    static let spacing: Duration = .milliseconds(50)

    /// Task changes not yet written, the latest of each.
    private(set) var tasks: [TaskID: DownloadTask] = [:]
    /// Segment layouts not yet written, the latest of each task.
    private(set) var segments: [TaskID: [SegmentRecord]] = [:]
    private var lastProgress: ContinuousClock.Instant

    init(now: ContinuousClock.Instant) {
        lastProgress = now
    }

    var isEmpty: Bool { tasks.isEmpty && segments.isEmpty }

    /// Takes `task`'s new state, with the layout it carries when there is one.
    mutating func take(_ task: DownloadTask, segments layout: [SegmentRecord]?) {
        tasks[task.id] = task
        if let layout { segments[task.id] = layout }
    }

    /// The task changes were written.
    mutating func tasksWritten() { tasks = [:] }
    /// The layouts were written.
    mutating func segmentsWritten() { segments = [:] }

    /// Durable bytes were recorded at `now`.
    mutating func progressRecorded(at now: ContinuousClock.Instant) { lastProgress = now }

    /// Whether progress coming at `now` is recorded now, or left to the next tick.
    func progressDue(at now: ContinuousClock.Instant) -> Bool { now - lastProgress >= Self.spacing }
}
