/// A state change worth a line in the headless log or a JSON event; emitted by the controller in order.
public enum ControllerEvent: Sendable, Equatable {
    case added(DownloadTask)
    case started(DownloadTask)
    /// The download started over from byte 0, and why.
    case restarted(DownloadTask, reason: String)
    /// The link is an HLS stream: its playlist resolved (variant, segments; `task.stream`).
    case stream(DownloadTask)
    case paused(DownloadTask)
    /// A link of a task with mirrors was dropped; the transfer goes on over the others.
    case linkDropped(DownloadTask, DroppedLink)
    case retrying(DownloadTask, after: Double, error: DownloadError)
    case completed(DownloadTask)
    case failed(DownloadTask, error: DownloadError)
    case removed(DownloadTask)
    /// One command changed many idle tasks the same way (`pause --all`, `remove --all`): one event for them all,
    /// not one each (the snapshot shows every row). Tasks the command handled one by one have their own event.
    case many(BulkChange)
    /// Something outside any task went wrong (the queue database could not be written); the queue goes on in memory.
    case warning(String)
    /// What the schedule does changed (`scheduled: resumes at 01:00`); nil when it no longer holds or caps the queue.
    case schedule(String?)
}

/// What a command for many tasks did to the idle ones among them: which it paused or removed.
public struct BulkChange: Sendable, Equatable {
    public enum Edit: String, Sendable {
        case paused, removed
    }

    /// The most removed tasks an event carries as they were: as many as aria2's `tellStopped` keeps.
    public static let removedKept = 1000

    public var edit: Edit
    /// The tasks it changed, in id order: aria2 clients are told of each (`onDownloadPause`, `onDownloadStop`).
    public var ids: [TaskID]
    /// The last unfinished ones it removed, as they were (at most `removedKept`): clients list them as removed
    /// until they purge them. Empty for a pause.
    public var removed: [DownloadTask]

    public var count: Int { ids.count }

    public init(_ edit: Edit, ids: [TaskID], removed: [DownloadTask] = []) {
        self.edit = edit
        self.ids = ids
        self.removed = removed
    }
}
