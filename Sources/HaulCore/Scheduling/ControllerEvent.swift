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

/// What a command for many tasks did to the idle ones among them: how many it paused or removed.
public struct BulkChange: Sendable, Equatable {
    public enum Edit: String, Sendable {
        case paused, removed
    }

    public var edit: Edit
    public var count: Int

    public init(_ edit: Edit, count: Int) {
        self.edit = edit
        self.count = count
    }
}
