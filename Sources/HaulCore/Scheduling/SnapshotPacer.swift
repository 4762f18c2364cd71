/// When the controller publishes a snapshot (DESIGN §4), as a pure value on given instants: after a change on the
/// next tick or, when events come fast, at most one per `spacing`; once a second while tasks run, patching only
/// their rows when nothing else changed. The actor asks it and does the publishing.
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

    /// The shortest time between two snapshots when events come fast: a snapshot costs O(queue).
    static let spacing: Duration = .milliseconds(20)

    /// Rows came, went or changed since the last snapshot.
    private(set) var rowsChanged = true
    /// Only the live figures of running tasks changed (the once-a-second refresh).
    private(set) var figuresChanged = false
    private var lastPublished: ContinuousClock.Instant
    private var lastSecond: ContinuousClock.Instant
    private var wakeScheduled = false

    init(now: ContinuousClock.Instant) {
        lastPublished = now
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

    /// What the tick publishes; `untold` events always go out with a full snapshot.
    func onTick(untold: Bool) -> Publication {
        if rowsChanged || untold { return .full }
        return figuresChanged ? .patch : .nothing
    }

    /// A snapshot was published at `now`.
    mutating func published(at now: ContinuousClock.Instant) {
        lastPublished = now
        rowsChanged = false
        figuresChanged = false
    }

    /// A change at `now` that front ends should see soon.
    mutating func soon(at now: ContinuousClock.Instant) -> Soon {
        let due = lastPublished + Self.spacing
        guard now < due else { return .now }
        rowsChanged = true
        guard !wakeScheduled else { return .waiting }
        wakeScheduled = true
        return .wake(due)
    }

    /// The wake came: whether there is still something to publish.
    mutating func wakeFired(untold: Bool) -> Bool {
        wakeScheduled = false
        return rowsChanged || untold
    }
}
