/// When the controller publishes a snapshot (DESIGN §4), as a pure value on given instants: after a change on the
/// next tick or, when events come fast, at most one per `spacing`; once a second while tasks run, patching only
/// their rows when nothing else changed. The actor asks it and does the publishing.
///
/// A whole snapshot costs O(queue), so the spacing grows with what the last one cost: building them takes at most
/// `costShare` of the controller's time however long the queue (a thousand small files ending among 100,000
/// waiting ones), and a short queue still sees each change within `spacing`.
struct SnapshotPacer: Sendable {
    /// What a tick publishes.
    enum Publication: Sendable, Equatable {
        case nothing
        /// Every row built again.
        case full
        /// The running tasks' figures patched into the last snapshot.
        case patch
    }

    /// What a change that wants to be seen soon asks for.
    enum Soon: Sendable, Equatable {
        /// Publish now: the last one is at least `spacing` old.
        case now
        /// Wake at this instant and publish then (`scheduledFired`).
        case wake(ContinuousClock.Instant)
        /// A wake is already on its way.
        case waiting
    }

    /// The shortest time between two snapshots when events come fast.
    static let spacing: Duration = .milliseconds(20)
    /// The longest: a change is seen within this however long the queue.
    static let longestSpacing: Duration = .seconds(1)
    /// At most this share of the time goes to building whole snapshots (1/20).
    static let costShare = 20

    /// The time between two whole snapshots now: `spacing`, or `costShare` times what the last whole one cost.
    private(set) var currentSpacing = spacing

    /// Rows came, went or changed since the last snapshot.
    private(set) var rowsChanged = true
    /// Only the live figures of running tasks changed (the once-a-second refresh).
    private(set) var figuresChanged = false
    /// Nil before the first snapshot: it is due at once.
    private var lastPublished: ContinuousClock.Instant?
    private var lastSecond: ContinuousClock.Instant
    private var wakeScheduled = false

    init(now: ContinuousClock.Instant) {
        lastSecond = now
    }

    mutating func rowsDidChange() { rowsChanged = true }
    mutating func figuresDidChange() { figuresChanged = true }

    /// Whether a second has passed since the last time this said so (the tick's once-a-second work is due).
    mutating func secondElapsed(at now: ContinuousClock.Instant) -> Bool {
        guard now - lastSecond >= .seconds(1) else { return false }
        lastSecond = now
        return true
    }

    /// What the tick at `now` publishes; `untold` events always go out with a full snapshot, once the last one is
    /// `currentSpacing` old.
    func onTick(untold: Bool, at now: ContinuousClock.Instant) -> Publication {
        if rowsChanged || untold { return isDue(at: now) ? .full : .nothing }
        return figuresChanged ? .patch : .nothing
    }

    /// A snapshot was published at `now`; `cost` is what building it took when it was built whole.
    mutating func published(at now: ContinuousClock.Instant, cost: Duration? = nil) {
        lastPublished = now
        rowsChanged = false
        figuresChanged = false
        if let cost { currentSpacing = min(Self.longestSpacing, max(Self.spacing, cost * Self.costShare)) }
    }

    /// A change at `now` that front ends should see soon.
    mutating func soon(at now: ContinuousClock.Instant) -> Soon {
        guard let lastPublished, !isDue(at: now) else { return .now }
        let due = lastPublished + currentSpacing
        rowsChanged = true
        guard !wakeScheduled else { return .waiting }
        wakeScheduled = true
        return .wake(due)
    }

    private func isDue(at now: ContinuousClock.Instant) -> Bool {
        lastPublished.map { now >= $0 + currentSpacing } ?? true
    }

    /// The wake came: whether there is still something to publish.
    mutating func wakeFired(untold: Bool) -> Bool {
        wakeScheduled = false
        return rowsChanged || untold
    }
}
