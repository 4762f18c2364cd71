import Foundation

/// THE actor: the only code that changes queue and slot state.
///
/// It loads the queue from the store, gives transfer slots to tasks as `SlotPolicy` plans, carries out
/// every state change through `TaskLifecycle`, persists state changes at once and durable byte counts on
/// its 200 ms tick, picks up edits other processes made through the store once a second, and publishes a
/// `QueueSnapshot` (built by `SnapshotBuilder`) on the tick after any change and every second while tasks run.
public actor DownloadController {
    public struct Configuration: Sendable {
        public var maxConcurrent: Int
        public var retryPolicy: RetryPolicy
        public var transferOptions: TransferOptions
        /// Stop the engine and return from `run()` once nothing is waiting or running (headless mode).
        public var exitWhenIdle: Bool
        /// The cap on the sum of all downloads (`--max-overall-download-limit`); nil for none.
        public var overallLimit: RateLimit?
        /// `--on-link-expired`: asked for a new link when one expires.
        public var linkRenewal: LinkRenewal?
        /// `--extractor`: the yt-dlp asked what a web page holds, or why a page is kept as a file (DESIGN §11).
        public var pageExtraction = PageExtraction.unavailable(note: "a web page, kept as it is")
        /// The wall clock and calendar the schedule is read on (tests give their own).
        public var wallClock: @Sendable () -> Date = { Date() }
        public var calendar = Calendar.current
        /// Whether front ends are given snapshots and events. A controller that only edits the queue for one command
        /// (`haul add`, `pause`, … with no haul running) has none to give them to: it builds neither, whatever the
        /// queue's length.
        public var publishes = true

        public init(maxConcurrent: Int = 3, retryPolicy: RetryPolicy = RetryPolicy(),
                    transferOptions: TransferOptions = TransferOptions(), exitWhenIdle: Bool = false,
                    overallLimit: RateLimit? = nil) {
            self.overallLimit = overallLimit
            self.maxConcurrent = maxConcurrent
            self.retryPolicy = retryPolicy
            self.transferOptions = transferOptions
            self.exitWhenIdle = exitWhenIdle
        }
    }

    /// What a run did, for the exit status: how each task it concluded ended last. A task paused for lack of
    /// disk space and then resumed to completion counts as completed, not as both.
    public struct RunSummary: Sendable, Equatable {
        /// How a task ended the last time this run concluded it.
        public enum Outcome: Sendable, Equatable {
            case completed
            case failed
            /// Paused by an error the user must fix (disk space), not by the user.
            case pausedByError
        }

        public var outcomes: [TaskID: Outcome] = [:]
        public var interrupted = false

        public init(outcomes: [TaskID: Outcome] = [:], interrupted: Bool = false) {
            self.outcomes = outcomes
            self.interrupted = interrupted
        }

        public var completed: Int { outcomes.values.filter { $0 == .completed }.count }
        public var failed: Int { outcomes.values.filter { $0 == .failed }.count }
        public var pausedByError: Int { outcomes.values.filter { $0 == .pausedByError }.count }
        /// Whether a task ended failed or paused by an error (and was not completed later).
        public var hasFailures: Bool { outcomes.values.contains { $0 != .completed } }
    }

    let store: TaskStore
    let driver: TransferDriver
    let snapshots: SnapshotBox
    var configuration: Configuration

    var tasks = TaskTable()
    /// Per task: the attempt in flight, back-off, unrecorded bytes, removal intent.
    var runtime = RuntimeTable()
    var stopping = false
    /// Set by `run()`: before it, commands only edit the queue.
    var isRunning = false
    var isLoaded = false
    /// When snapshots go out (`SnapshotPacer`).
    var pacer = SnapshotPacer(now: .now)
    /// The last snapshot published, and where each task's row is in it, for those patches (made when the first patch
    /// of a snapshot needs it: a queue where nothing runs is never patched).
    var lastSnapshot: QueueSnapshot?
    var rowIndex: [TaskID: Int]?
    var sequence: UInt64 = 0
    var externalToken: Int64?
    var summary = RunSummary()
    /// The last store failure, so a failure that repeats every tick is reported once; shown in snapshots.
    var lastStoreError: String?
    /// Task changes and layouts taken but not yet written (`flushSaves`), and when progress was last recorded.
    var unsaved = SaveBuffer(now: .now)
    /// The run and cap windows, and what they decided last (`DownloadController+Schedule`).
    var scheduleGate = ScheduleGate()
    /// Outside the schedule's run windows.
    var scheduleHolds: Bool { scheduleGate.holds }

    let hub = Broadcast<ControllerEvent>(bufferLimit: 10_000)
    /// Events told since the last snapshot: they go out right after the next one (`publish()`), so a
    /// client told of a change and asking at once reads it.
    var untold: [ControllerEvent] = []

    public init(store: TaskStore, driver: TransferDriver, snapshots: SnapshotBox, configuration: Configuration) {
        self.store = store
        self.driver = driver
        self.snapshots = snapshots
        self.configuration = configuration
    }

    /// A stream of every controller event from now on, for one subscriber; it ends when `run()` ends.
    public nonisolated func events() -> AsyncStream<ControllerEvent> {
        hub.subscribe()
    }

    /// Runs the queue until `stop()` (or, in headless mode, until nothing is waiting or running).
    public func run() async -> RunSummary {
        loadIfNeeded()
        recoverInterruptedTasks()
        isRunning = true
        applySchedule(force: true)
        fillSlots()
        // The live list's first snapshot (`publishInitialSnapshot`) stands while nothing changed since: a queue of
        // 10,000 paused tasks is not built twice before its first frame.
        if lastSnapshot == nil || pacer.rowsChanged || !untold.isEmpty { publish() }
        // What reading the queue left behind (rows, records, a list of every task) goes back.
        FreedMemory.giveBack()
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
        hub.finish()
        return summary
    }

    /// Stops every transfer, keeping its bytes; running tasks go back to waiting and resume on the next start.
    public func stop() {
        guard !stopping else { return }
        stopping = true
        summary.interrupted = true
        driver.send(.shutdown)
    }

    /// Ends a controller that only edited the queue (no `run()`): the engine finishes the disk work it was
    /// given (part files to delete) and stops.
    public func finishEditing() async {
        guard !isRunning else { return }
        stopping = true
        driver.send(.shutdown)
        for await _ in driver.events {}
        flushSaves()
        tellUntold()
        hub.finish()
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
        guard !isLoaded else { return }
        do {
            scheduleGate.replace(try store.loadSchedule() ?? Schedule())
        } catch {
            // A stored schedule it cannot read or may not apply is set aside, saying why: the queue runs unscheduled.
            scheduleGate.replace(Schedule())
            announce(.warning("\(error)"))
        }
        // The change token before the rows: a task another process adds in between counts as a change, so
        // `reconcileExternalChanges` picks it up (read after, it would be missed until the next change).
        let token = attempt { try store.externalChangeToken() }
        guard let all = attempt({ try store.loadAll() }) else { return }
        externalToken = token
        isLoaded = true
        tasks.reserveCapacity(tasks.byID.count + all.count)
        for task in all { tasks[task.id] = task }
    }

    /// A task recorded as running when this process starts to transfer belonged to a process that died:
    /// it comes back waiting, from its durable byte. (A controller that only edits the queue leaves the
    /// running haul's tasks alone.)
    func recoverInterruptedTasks() {
        let recovered = tasks.runningPositions.keys.compactMap { tasks[$0].flatMap(TaskLifecycle.recover) }
        for task in recovered { tasks[task.id] = task }
        if !recovered.isEmpty {
            attempt { try store.save(recovered) }
            pacer.rowsDidChange()
        }
    }

    /// Gives slots to tasks as the slot policy plans: the first waiting tasks in queue order start, and
    /// running tasks that must give their slot back stop with their bytes kept.
    func fillSlots() {
        guard isRunning, !stopping else { return }
        let plan = slotPlan()
        for id in plan.requeue {
            guard let task = tasks[id], let waiting = TaskLifecycle.requeue(task) else { continue }
            save(waiting)
            driver.send(.pause(id))
        }
        for id in plan.start {
            // Not written yet: the save when the server answers (or the task ends) records `running`,
            // and a task found running after a crash comes back waiting anyway.
            guard let task = tasks[id], let running = TaskLifecycle.start(task) else { continue }
            tasks[id] = running
            runtime[id].backoff = nil
            runtime[id].attempt = TaskRuntime.Attempt(startByte: running.bytesDone)
            var request = TransferRequest(task: running, options: configuration.transferOptions)
            // A settings rule's connections and cap, recorded when the task was added; a live change wins.
            if let split = running.requestOptions.split { request.options.split = min(split, request.options.maxHostConnections) }
            if let split = runtime[id].split { request.options.split = split }
            // One stream from one link: the ranges this server ignored are not asked of its mirrors either.
            if runtime[id].singleConnection { (request.options.split, request.mirrors) = (1, []) }
            request.options.rate = runtime[id].rate(of: running).resolved(inheriting: request.options.rate)
            if running.fileName == nil { request.namesHeldElsewhere = tasks.namesHeld(besides: running) }
            request.options.extractsPages = configuration.pageExtraction.extractor != nil
            driver.send(.start(request))
            announce(.started(running))
            pacer.rowsDidChange()
        }
    }

    /// Which waiting tasks start now, reading the line only as far as one could. Its own function: the line it reads
    /// is let go before the tasks change, which would otherwise copy it.
    private func slotPlan() -> SlotPolicy.Plan {
        // A task that went back in line is not ready until the engine let go of its last transfer; one waiting
        // for `--on-link-expired` starts once it has its new link.
        let notReady = Set(runtime.inFlight + runtime.renewals)
        // Outside the schedule's run windows only what the user started by hand starts.
        let holds = scheduleHolds
        let ready = tasks.waitingInOrder().lazy.filter { [runtime] entry in
            !notReady.contains(entry.id) && (!holds || runtime[entry.id].startedByHand)
        }
        return SlotPolicy.plan(
            waiting: ready, running: tasks.runningPositions, maxRunning: configuration.maxConcurrent,
            backingOff: runtime.backoffInstants, now: .now)
    }

    /// In headless mode, ends the run once nothing is left to do.
    func stopIfIdle() {
        guard isRunning, configuration.exitWhenIdle, !stopping, !runtime.hasAttempts, !runtime.hasRenewals else { return }
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
        if runtime.hasBackoff { fillSlots() }
        // Durable byte counts: one transaction per tick, so the database trails the disk by a fraction of a second.
        flushProgress()
        if pacer.secondElapsed(at: now) {
            reconcileExternalChanges()
            applySchedule()
            // Speeds, ETAs and back-off countdowns change every second; an idle queue is not redrawn.
            if runtime.hasAttempts || runtime.hasBackoff { pacer.figuresDidChange() }
        }
        switch pacer.onTick(untold: !untold.isEmpty, at: now) {
        case .full: publish()
        case .patch: publish(patching: true)
        case .nothing: break
        }
    }

    func flushProgress() {
        unsaved.progressRecorded(at: .now)
        flushSaves()
        let (bytes, segments) = runtime.takeUnrecorded()
        // The layout first: a byte count is never recorded ahead of the ranges it adds up.
        if !segments.isEmpty { attempt { try store.recordSegments(segments) } }
        if !bytes.isEmpty { attempt { try store.recordProgress(bytes) } }
    }

    /// Records durable bytes as they come, at most one transaction per `SaveBuffer.spacing` (the tick takes the
    /// rest): what a kill -9 loses is what the engine had not synced, not also what the database lagged.
    func flushProgressSoon() {
        guard unsaved.progressDue(at: .now) else { return }
        flushProgress()
    }

    /// Picks up tasks another process added to the database while this one runs (`haul add` reaches the
    /// owner over its socket; this covers a writer that found no socket).
    func reconcileExternalChanges() {
        guard let token = attempt({ try store.externalChangeToken() }), token != externalToken else { return }
        externalToken = token
        if let all = attempt({ try store.loadAll() }) {
            for task in all where tasks[task.id] == nil && runtime[task.id].removal == nil {
                tasks[task.id] = task
                announce(.added(task))
                pacer.rowsDidChange()
            }
        }
        fillSlots()
    }

    // MARK: - Snapshots

    /// Publishes a new snapshot, every row built; with `patching` (the tick, when only the figures of the tasks
    /// in `runtime` changed) their rows are patched into the last one instead, so the per-second cost follows the
    /// running tasks, not the queue.
    func publish(patching: Bool = false) {
        // What the snapshot and the events after it tell is on disk first.
        flushSaves()
        guard configuration.publishes else { return }
        sequence += 1
        let began = ContinuousClock.now
        let split = configuration.transferOptions.split
        var patched: QueueSnapshot?
        if patching, !pacer.rowsChanged, let last = lastSnapshot {
            let index = rowIndex ?? Dictionary(uniqueKeysWithValues: last.rows.enumerated().map { ($1.id, $0) })
            rowIndex = index
            patched = SnapshotBuilder.patched(
                last, index: index, tasks: tasks, runtime: runtime, defaultSplit: split, sequence: sequence, now: .now,
                wallNow: Date())
        }
        var snapshot = patched ?? SnapshotBuilder.build(
            tasks: tasks, runtime: runtime, maxConcurrent: configuration.maxConcurrent, overallLimit: configuration.overallLimit,
            defaultSplit: split, sequence: sequence, warning: lastStoreError, now: .now, wallNow: Date())
        snapshot.schedule = scheduleGate.note
        snapshot.scheduleSuspended = scheduleGate.suspendedUntil != nil
        snapshot.scheduleCap = scheduleGate.cap.flatMap { RateLimit(bytesPerSecond: $0) }
        snapshot.scheduleHeldUntil = scheduleGate.heldUntil
        if patched == nil { rowIndex = nil }
        lastSnapshot = snapshot
        snapshots.publish(snapshot)
        let now = ContinuousClock.now
        pacer.published(at: now, cost: patched == nil ? now - began : nil)
        tellUntold()
    }

    private func tellUntold() {
        let told = untold
        untold = []
        for event in told { hub.yield(event) }
    }

    /// Tells subscribers of `event` once the snapshot shows it (see `untold`).
    func announce(_ event: ControllerEvent) {
        guard configuration.publishes else { return }
        untold.append(event)
    }

    /// A snapshot soon: at once when the last one is older than `SnapshotPacer.spacing`, else once it is, so a
    /// burst of events (a thousand small files ending) builds a few snapshots, not one per event.
    func publishSoon() {
        switch pacer.soon(at: .now) {
        case .now:
            publish()
        case let .wake(due):
            Task { [weak self] in
                try? await Task.sleep(until: due, clock: .continuous)
                await self?.publishAfterWake()
            }
        case .waiting:
            break
        }
    }

    private func publishAfterWake() {
        if pacer.wakeFired(untold: !untold.isEmpty) { publish() }
    }
}
