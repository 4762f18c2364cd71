import Foundation

/// The pure rules of DESIGN §3: how a task's state moves when a transfer ends or a user acts.
///
/// `waiting → running → completed`; `running → paused` (user); `running → waiting` (retry after a
/// transient error, the process stopping, or an expired link waiting for a new one); `running → failed`;
/// `waiting → failed` (no new link came); `paused|failed → waiting` (user).
public enum TaskLifecycle {
    /// What the controller must do after a transfer ended.
    public enum Effect: Sendable, Equatable {
        case completed
        /// Stopped on request; the task keeps the state the user gave it (paused, or waiting after a resume).
        case stopped
        /// Back in line because the process is stopping; it resumes on the next start.
        case requeued
        case retry(after: Double, error: DownloadError)
        /// Paused by the engine for a reason the user must fix (disk space).
        case pausedByError(DownloadError)
        case failed(DownloadError)
        /// Its link expired and `--on-link-expired` is asked for a new one: it waits for it, not failed
        /// (`linkNotRenewed` fails it if none comes).
        case awaitingLink(DownloadError)
    }

    /// Applies a transfer outcome to the task. `stateBefore` is the state the controller holds now
    /// (the user may have paused or resumed while the transfer was stopping).
    ///
    /// `startedAt` is the durable byte count when the attempt began: an attempt that moved the download
    /// forward before failing resets the count of attempts, so a connection that keeps dropping while
    /// making progress never runs out of retries.
    ///
    /// `renewsLink` says whether a failure that would fail the task asks for a new link instead (`LinkRenewal`):
    /// the task then waits for it.
    public static func apply(
        _ outcome: TransferOutcome, to task: DownloadTask, retryPolicy: RetryPolicy, startedAt: Int64? = nil,
        now: Date = Date(), renewsLink: (DownloadTask, DownloadError) -> Bool = { _, _ in false }
    ) -> (DownloadTask, Effect) {
        var task = task
        switch outcome {
        case let .completed(fileName, bytes):
            task.state = .completed
            task.fileName = fileName
            task.bytesDone = bytes
            task.totalBytes = bytes
            task.stream?.markComplete()
            task.lastError = nil
            task.finishedAt = now
            return (task, .completed)
        case let .paused(durable):
            task.bytesDone = durable
            if task.state == .running {
                task.state = .waiting
                return (task, .requeued)
            }
            return (task, .stopped)
        case let .failed(error, durable):
            task.bytesDone = durable
            task.lastError = error.description
            // The user paused or resumed while it was stopping: respect that, keep the error for the details.
            guard task.state == .running else { return (task, .stopped) }
            if let startedAt, durable > startedAt { task.attempts = 0 }
            task.attempts += 1
            switch retryPolicy.decide(after: error, attempt: task.attempts) {
            case let .retry(after):
                task.state = .waiting
                return (task, .retry(after: after, error: error))
            case .pause:
                task.state = .paused
                return (task, .pausedByError(error))
            case .fail:
                if renewsLink(task, error) {
                    task.state = .waiting
                    return (task, .awaitingLink(error))
                }
                task.state = .failed
                return (task, .failed(error))
            }
        }
    }

    /// `--on-link-expired` gave a task that waited for a new link none it could use: waiting → failed, for the
    /// error that asked for one. A task the user paused or resumed meanwhile keeps that state (nil).
    public static func linkNotRenewed(_ task: DownloadTask, error: DownloadError) -> DownloadTask? {
        guard task.state == .waiting else { return nil }
        var task = task
        task.state = .failed
        task.lastError = error.description
        return task
    }

    /// The controller gives the task a slot: waiting → running.
    public static func start(_ task: DownloadTask) -> DownloadTask? {
        guard task.state == .waiting else { return nil }
        var task = task
        task.state = .running
        // Links are dropped for one attempt: a new one asks every link again.
        task.droppedLinks = []
        return task
    }

    /// A running task gives its slot back (the limit went down, or a task queued before it takes the slot):
    /// running → waiting; the engine's `paused` outcome then leaves it waiting.
    public static func requeue(_ task: DownloadTask) -> DownloadTask? {
        guard task.state == .running else { return nil }
        var task = task
        task.state = .waiting
        return task
    }

    /// A task found `running` when the queue is loaded belonged to a process that died: it waits again and
    /// resumes from its durable byte.
    public static func recover(_ task: DownloadTask) -> DownloadTask? {
        requeue(task)
    }

    /// A user's resume or retry: back in line, with a fresh count of attempts. A finished live recording starts a new
    /// recording part: a new file beside the one it published (its name numbered), from the live edge.
    public static func resume(_ task: DownloadTask) -> DownloadTask? {
        guard resumes(task) else { return nil }
        let recordsAgain = task.state == .completed
        var task = task
        if recordsAgain {
            // Its own mark on the published part would let the new one replace it: the new part is named after it.
            task.requestedName = task.fileName.map(SafeFileName.next(after:)) ?? task.requestedName
            task.stream = nil
            task.fileName = nil
            task.bytesDone = 0
            task.totalBytes = nil
            task.finishedAt = nil
        }
        task.state = .waiting
        // Written only when they change: a paused task with none of them resumes without a copy of its fields.
        if task.attempts != 0 { task.attempts = 0 }
        if task.lastError != nil { task.lastError = nil }
        return task
    }

    /// Whether a user's resume applies to the task (`resume` gives a task): a paused or failed one, or a finished
    /// live recording.
    public static func resumes(_ task: DownloadTask) -> Bool {
        task.state == .paused || task.state == .failed || (task.state == .completed && task.kind?.pauseFinishes == true)
    }

    /// A user's pause: only unfinished, not yet paused tasks.
    public static func pause(_ task: DownloadTask) -> DownloadTask? {
        guard task.state == .waiting || task.state == .running else { return nil }
        var task = task
        task.state = .paused
        return task
    }
}
