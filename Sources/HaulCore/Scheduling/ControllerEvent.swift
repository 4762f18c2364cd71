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
    /// Something outside any task went wrong (the queue database could not be written); the queue goes on in memory.
    case warning(String)
    /// What the schedule does changed (`scheduled: resumes at 01:00`); nil when it no longer holds or caps the queue.
    case schedule(String?)
}
