/// Persistence of the queue; `HaulStore` implements it on SQLite.
///
/// Every method is synchronous and quick (one small transaction). Implementations must be safe
/// to call from any thread; the controller actor is the only caller in a transferring process.
public protocol TaskStore: Sendable {
    /// Every task, unfinished ones in queue order then completed ones.
    func loadAll() throws -> [DownloadTask]
    /// Tasks with the given ids (missing ids are skipped).
    func load(_ ids: [TaskID]) throws -> [DownloadTask]
    /// Adds tasks at the end of the queue, in order, as `waiting`.
    func enqueue(_ tasks: [NewTask]) throws -> [DownloadTask]
    /// Writes what a task's life changes (its link and the earlier ones, file name, state, position, bytes,
    /// total, validators, attempts, error, finish time, request options, cookies) in one transaction; the
    /// directory, requested name, checksum, headers and creation time are fixed when the task is enqueued. `bytesDone` must be a durable
    /// count.
    func save(_ tasks: [DownloadTask]) throws
    /// Records durable byte counts in one transaction; unchanged rows may be skipped.
    func recordProgress(_ durableBytes: [TaskID: Int64]) throws
    /// Replaces the stored segment layout of each task (an empty list removes it) in one transaction;
    /// like byte counts, a layout never claims more than is durable.
    func recordSegments(_ segments: [TaskID: [SegmentRecord]]) throws
    /// Pauses these tasks, writing their state and nothing else, in one transaction: a bulk pause of idle tasks
    /// (`TaskLifecycle.pause` changes only the state).
    func markPaused(_ ids: [TaskID]) throws
    /// Pauses every waiting or running task in one statement without reading any, and says how many: for a queue
    /// no process transfers, where a task recorded as running only waits for the next run.
    func pauseEveryTask() throws -> Int
    /// Puts these tasks back in line as a user's resume does (`TaskLifecycle.resume` of a paused or failed task:
    /// waiting, no attempts, no error), writing those fields and nothing else, in one transaction.
    func markResumed(_ ids: [TaskID]) throws
    /// Puts every task in `states` (paused, failed) back in line as `markResumed` does, in one statement without
    /// reading any, and says how many.
    func resumeEveryTask(in states: [TaskState]) throws -> Int
    /// Up to `limit` tasks with ids above `after` (from the first when nil), in id order, in `states` (any when nil)
    /// and of `kind` (any when nil): a command for every task reads the queue a page at a time, never whole.
    func page(after: TaskID?, in states: [TaskState]?, kind: TaskKind?, limit: Int) throws -> [DownloadTask]
    /// Deletes tasks.
    func delete(_ ids: [TaskID]) throws
    /// Moves a task before (`by` < 0) or after (`by` > 0) its unfinished neighbours.
    func move(_ id: TaskID, by offset: Int) throws
    /// A number that changes whenever another connection or process committed a change.
    func externalChangeToken() throws -> Int64
    /// The persisted concurrency limit, if one was set.
    func loadMaxConcurrent() throws -> Int?
    func saveMaxConcurrent(_ value: Int) throws
    /// The schedule last set (`haul schedule`), nil when none was.
    func loadSchedule() throws -> Schedule?
    func saveSchedule(_ schedule: Schedule) throws
}
