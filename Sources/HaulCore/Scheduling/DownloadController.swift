import Foundation

/// THE actor: the only code that changes queue and slot state.
///
/// It loads the queue from the store, starts the first waiting tasks up to the concurrency limit,
/// carries out transfer outcomes through `TaskLifecycle`, persists every state change at once and
/// durable byte counts on its 200 ms tick, picks up edits other processes made through the store once a
/// second, and publishes a `QueueSnapshot` on the tick after any change (and every second while tasks run).
public actor DownloadController {
    public struct Configuration: Sendable {
        public var maxConcurrent: Int
        public var retryPolicy: RetryPolicy
        public var transferOptions: TransferOptions
        /// Stop the engine and return from `run()` once nothing is waiting or running (headless mode).
        public var exitWhenIdle: Bool

        public init(maxConcurrent: Int = 3, retryPolicy: RetryPolicy = RetryPolicy(),
                    transferOptions: TransferOptions = TransferOptions(), exitWhenIdle: Bool = false) {
            self.maxConcurrent = maxConcurrent
            self.retryPolicy = retryPolicy
            self.transferOptions = transferOptions
            self.exitWhenIdle = exitWhenIdle
        }
    }

    /// What a run did, for the exit status.
    public struct RunSummary: Sendable, Equatable {
        public var completed: Int
        public var failed: Int
        /// Paused by an error the user must fix (disk space), not by the user.
        public var pausedByError: Int
        public var interrupted: Bool
    }

    let store: TaskStore
    let driver: TransferDriver
    let snapshots: SnapshotBox
    var configuration: Configuration

    var tasks = TaskTable()
    /// Tasks the engine holds (started, no `finished` yet).
    var inFlight: Set<TaskID> = []
    var live: [TaskID: LiveProgress] = [:]
    /// Durable bytes of each in-flight task when its attempt began.
    var attemptStart: [TaskID: Int64] = [:]
    /// Waiting tasks backing off before a retry, and when they may start.
    var backoff: [TaskID: (instant: ContinuousClock.Instant, date: Date)] = [:]
    /// Durable byte counts not yet written to the store.
    var unrecordedProgress: [TaskID: Int64] = [:]
    /// Tasks removed while the engine still held them, and whether to delete the part file once it lets go.
    var removing: [TaskID: (task: DownloadTask, deleteFile: Bool)] = [:]
    var stopping = false
    /// Set by `run()`: before it, commands only edit the queue.
    var isRunning = false
    var isLoaded = false
    var snapshotDirty = true
    var sequence: UInt64 = 0
    var lastSlowTick: ContinuousClock.Instant = .now
    var externalToken: Int64?
    var summary = RunSummary(completed: 0, failed: 0, pausedByError: 0, interrupted: false)
    /// The last store failure, so a failure that repeats every tick is reported once.
    var lastStoreError: String?

    public nonisolated let events: AsyncStream<ControllerEvent>
    let eventSink: AsyncStream<ControllerEvent>.Continuation

    public init(store: TaskStore, driver: TransferDriver, snapshots: SnapshotBox, configuration: Configuration) {
        self.store = store
        self.driver = driver
        self.snapshots = snapshots
        self.configuration = configuration
        (events, eventSink) = AsyncStream.makeStream(of: ControllerEvent.self, bufferingPolicy: .bufferingNewest(10_000))
    }

    /// Runs the queue until `stop()` (or, in headless mode, until nothing is waiting or running).
    public func run() async -> RunSummary {
        if let stored = attempt({ try store.loadMaxConcurrent() }) ?? nil, stored > 0, !configuration.exitWhenIdle {
            configuration.maxConcurrent = stored
        }
        loadIfNeeded()
        isRunning = true
        externalToken = attempt { try store.externalChangeToken() }
        fillSlots()
        publish()
        stopIfIdle()
        let ticker = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(200))
                await self?.tick()
            }
        }
        for await event in driver.events {
            apply(event)
        }
        ticker.cancel()
        flushProgress()
        publish()
        eventSink.finish()
        return summary
    }

    /// Stops every transfer, keeping its bytes; running tasks go back to waiting and resume on the next start.
    public func stop() {
        guard !stopping else { return }
        stopping = true
        summary.interrupted = true
        driver.send(.shutdown)
    }

    /// Loads the queue and publishes its first snapshot, so a front end's first frame shows the whole list.
    public func publishInitialSnapshot() {
        loadIfNeeded()
        publish()
    }

    /// From now on, end the run once nothing is waiting or running (the live list fell back to headless).
    public func finishWhenIdle() {
        configuration.exitWhenIdle = true
        stopIfIdle()
    }

    // MARK: - Loading and scheduling

    func loadIfNeeded() {
        guard !isLoaded, let all = attempt({ try store.loadAll() }) else { return }
        isLoaded = true
        var requeued: [DownloadTask] = []
        for var task in all {
            // A task that was running when the process died comes back waiting, from its durable byte.
            if task.state == .running {
                task.state = .waiting
                requeued.append(task)
            }
            tasks[task.id] = task
        }
        if !requeued.isEmpty { attempt { try store.save(requeued) } }
    }

    /// Starts the first waiting tasks in queue order while slots are free.
    func fillSlots() {
        guard isRunning, !stopping else { return }
        let now = ContinuousClock.now
        let ready = SlotPolicy.tasksToStart(
            waiting: tasks.waitingPositions, running: tasks.runningCount, maxRunning: configuration.maxConcurrent,
            backingOff: backoff.mapValues(\.instant), now: now)
        for id in ready where !inFlight.contains(id) {
            guard var task = tasks[id] else { continue }
            backoff[id] = nil
            // Not written yet: the save when the server answers (or the task ends) records `running`,
            // and a task found running after a crash comes back waiting anyway.
            task.state = .running
            tasks[id] = task
            inFlight.insert(id)
            attemptStart[id] = task.bytesDone
            live[id] = LiveProgress(position: task.bytesDone)
            var request = TransferRequest(task: task, options: configuration.transferOptions)
            if task.fileName == nil { request.namesHeldElsewhere = tasks.namesHeld(besides: task) }
            driver.send(.start(request))
            eventSink.yield(.started(task))
            snapshotDirty = true
        }
    }

    /// In headless mode, ends the run once nothing is left to do.
    func stopIfIdle() {
        guard isRunning, configuration.exitWhenIdle, !stopping, inFlight.isEmpty else { return }
        guard !tasks.hasPendingWork else { return }
        // A last look for tasks another shell added since the last tick, so `haul add` is never stranded.
        reconcileExternalChanges()
        guard !tasks.hasPendingWork else { return }
        stopping = true
        driver.send(.shutdown)
    }

    // MARK: - Periodic work

    func tick() {
        let now = ContinuousClock.now
        if !backoff.isEmpty { fillSlots() }
        // Durable byte counts: one transaction per tick, so the database trails the disk by a fraction of a second.
        flushProgress()
        if now - lastSlowTick >= .seconds(1) {
            lastSlowTick = now
            reconcileExternalChanges()
            // Speeds, ETAs and back-off countdowns change every second; an idle queue is not redrawn.
            if !inFlight.isEmpty || !backoff.isEmpty { snapshotDirty = true }
        }
        if snapshotDirty { publish() }
    }

    func flushProgress() {
        guard !unrecordedProgress.isEmpty else { return }
        let batch = unrecordedProgress
        unrecordedProgress = [:]
        attempt { try store.recordProgress(batch) }
    }

    /// Picks up tasks added and requests posted by other processes (`haul add`, `haul pause` …).
    func reconcileExternalChanges() {
        guard let token = attempt({ try store.externalChangeToken() }), token != externalToken else { return }
        externalToken = token
        for request in attempt({ try store.takeControlRequests() }) ?? [] {
            apply(request)
        }
        guard let all = attempt({ try store.loadAll() }) else { return }
        var added = false
        for task in all where tasks[task.id] == nil && removing[task.id] == nil {
            tasks[task.id] = task
            eventSink.yield(.added(task))
            added = true
        }
        if added {
            snapshotDirty = true
            fillSlots()
        }
    }

    private func apply(_ request: ControlRequest) {
        switch (request.action, request.taskID) {
        case (.pause, nil): return perform(.pauseAll)
        case (.resume, nil): return perform(.startAll)
        default: break
        }
        let ids = request.taskID.map { [$0] } ?? Array(tasks.keys)
        for id in ids {
            switch request.action {
            case .pause: perform(.pause(id))
            case .resume: perform(.resume(id))
            case .remove: perform(.remove(id, deleteFile: false))
            case .removeDeletingFile: perform(.remove(id, deleteFile: true))
            }
        }
    }

    // MARK: - Snapshots

    func publish() {
        snapshotDirty = false
        sequence += 1
        let now = ContinuousClock.now
        let wallNow = Date()
        // Order small keys first, then build each row once: a queue can hold ten thousand tasks.
        var unfinishedKeys: [(position: Int64, id: TaskID)] = []
        var completedKeys: [(finished: Date, id: TaskID)] = []
        for task in tasks.values {
            if task.state == .completed {
                completedKeys.append((task.finishedAt ?? .distantPast, task.id))
            } else {
                unfinishedKeys.append((task.position, task.id))
            }
        }
        unfinishedKeys.sort { ($0.position, $0.id) < ($1.position, $1.id) }
        completedKeys.sort { ($0.finished, $0.id) > ($1.finished, $1.id) }
        var rows: [QueueSnapshot.Row] = []
        rows.reserveCapacity(unfinishedKeys.count + completedKeys.count)
        var totalSpeed: Double?
        for id in unfinishedKeys.lazy.map(\.id) + completedKeys.lazy.map(\.id) {
            guard let task = tasks[id] else { continue }
            var row = QueueSnapshot.Row(task: task, bytesReceived: task.bytesDone)
            if task.state == .running, let progress = live[id] {
                row.bytesReceived = progress.position
                let reading = progress.meter.reading(at: now)
                row.isStalled = reading == .stalled
                row.speed = progress.meter.bytesPerSecond(at: now)
                row.eta = EtaEstimate.seconds(done: progress.position, total: task.totalBytes, bytesPerSecond: row.speed)
                if let speed = row.speed { totalSpeed = (totalSpeed ?? 0) + speed }
            }
            if task.state == .waiting, let retry = backoff[id], retry.date > wallNow { row.retryAt = retry.date }
            rows.append(row)
        }
        snapshots.publish(QueueSnapshot(
            rows: rows, maxConcurrent: configuration.maxConcurrent, totalSpeed: totalSpeed, sequence: sequence))
    }

    // MARK: - Store access

    /// Runs a store call; a failure is kept as a message and the queue goes on in memory.
    @discardableResult
    func attempt<T>(_ body: () throws -> T) -> T? {
        do {
            let value = try body()
            lastStoreError = nil
            return value
        } catch {
            let message = "could not update the queue database: \(error) — progress is kept in memory until it can be saved"
            if message != lastStoreError { eventSink.yield(.warning(message)) }
            lastStoreError = message
            return nil
        }
    }

    func save(_ task: DownloadTask) {
        tasks[task.id] = task
        unrecordedProgress[task.id] = nil
        attempt { try store.save([task]) }
        snapshotDirty = true
    }
}

/// Live figures of a running task, kept by the controller.
struct LiveProgress: Sendable {
    var position: Int64
    var meter = SpeedMeter()

    init(position: Int64) { self.position = position }
}
