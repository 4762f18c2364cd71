import HaulCore

/// The owner's queue as an attached list sees it: snapshots mirrored into a local `SnapshotBox` by a
/// long poll (each answer comes as soon as the owner publishes, as what changed since the last one), and
/// commands sent in order. A whole snapshot (the first, a restarted owner's, a change of more rows than a page) is
/// read a page at a time (`SnapshotAssembly`), never as one answer holding the queue.
///
/// A list outlives its owner: when the background haul stops answering, the last snapshot stays on screen with
/// what became of the haul (`loss`) as its banner, and the mirror keeps asking, so the next background haul that
/// starts on the same socket is followed.
public final class RemoteQueue: Sendable {
    public let snapshots = SnapshotBox()
    private let client: OwnerClient
    private let commands: AsyncStream<QueueCommand>.Continuation
    private let tasks: [Task<Void, Never>]
    private let state: PthreadMutex<MirrorState>

    /// The snapshot last received and what became of its owner, published together.
    struct MirrorState {
        var current: QueueSnapshot
        var loss: OwnerLoss?
        /// Rows decoded from the owner's answers so far: pages, deltas and whole snapshots.
        var rowsReceived = 0
        /// The sequence of the last snapshot shown. The list's own count, not the owner's: what it shows changes
        /// with no new snapshot from the owner (more rows of one read, a banner), and a restarted owner counts from 1
        /// again, while the list takes a snapshot with the sequence it drew as one it drew.
        private(set) var shownSequence: UInt64 = 0

        init(current: QueueSnapshot, rowsReceived: Int = 0) {
            self.current = current
            self.rowsReceived = rowsReceived
        }

        /// What the list shows next: the last snapshot under a sequence of its own, with the loss as its banner.
        mutating func shown() -> QueueSnapshot {
            shownSequence += 1
            var shown = current
            shown.sequence = shownSequence
            if let loss { shown.warning = loss.message }
            return shown
        }

        /// Sets the loss; what to show when it changed, nil when it did not.
        mutating func setLoss(_ next: OwnerLoss?) -> QueueSnapshot? {
            guard next != loss else { return nil }
            loss = next
            return shown()
        }
    }

    /// Failed requests in a row before the owner counts as lost.
    static let failuresBeforeLoss = 3

    /// While the first snapshot's rows are still read, how often the list is shown what came so far.
    static let progressInterval = Duration.seconds(1)

    /// Starts mirroring the owner `ownerProcessID`, whose snapshot `first` is.
    public convenience init(client: OwnerClient, first: QueueSnapshot, ownerProcessID: Int32, pageSize: Int = RowsPage.maxRows) {
        self.init(client: client, first: SnapshotAssembly(whole: first), ownerProcessID: ownerProcessID, pageSize: pageSize)
    }

    /// Starts mirroring the owner `ownerProcessID`, whose snapshot `first` is, whole or its first rows: the rest is
    /// read a page at a time, a banner over the first rows counting it, and shown whole before the mirror follows
    /// changes.
    /// Each snapshot published names the owner it came from (`ownerProcessID`), so a list follows a restarted one.
    /// - Parameter pageSize: the rows the owner sends in each answer while the rest of `first` is read.
    public init(client: OwnerClient, first: SnapshotAssembly, ownerProcessID: Int32, pageSize: Int = RowsPage.maxRows) {
        self.client = client
        var start = first.snapshot
        start.ownerProcessID = ownerProcessID
        if !first.isWhole { start.warning = first.progressNote }
        var mirrorState = MirrorState(current: start, rowsReceived: first.count)
        snapshots.publish(mirrorState.shown())
        let state = PthreadMutex(mirrorState)
        self.state = state
        let (stream, continuation) = AsyncStream.makeStream(of: QueueCommand.self)
        commands = continuation
        let box = snapshots
        let mirror = Task {
            var reading: SnapshotAssembly? = first.isWhole ? nil : first
            var current = first.snapshot
            var owner: Int32? = ownerProcessID
            var lastOwner = ownerProcessID
            var failures = 0
            while !Task.isCancelled {
                do {
                    if owner == nil {
                        let pid = try await client.processID()
                        owner = pid
                        lastOwner = pid
                    }
                    var received = 0
                    if var assembly = reading {
                        var shownAt = ContinuousClock.now
                        // Meanwhile the list keeps the rows it shows and its banner counts the rest: a list of many
                        // rows shown again for each page would redo its work for all of them each time.
                        let followed = try await client.readRest(of: &assembly, pageSize: pageSize) { partial in
                            guard !partial.isWhole, shownAt.duration(to: .now) >= Self.progressInterval else { return }
                            shownAt = .now
                            box.publish(state.withLock { state in
                                state.current.warning = partial.progressNote
                                return state.shown()
                            })
                        }
                        current = followed ? assembly.snapshot : try await client.wholeSnapshot(pageSize: pageSize)
                        // The pages' answers and their decoding's working memory, freed in small blocks, go back.
                        FreedMemory.giveBack()
                        received = followed ? assembly.count - (reading?.count ?? 0) : current.rows.count
                        reading = nil
                    } else {
                        let answer = try await client.snapshotChange(
                            after: current.sequence, owner: owner ?? 0, pages: pageSize, wait: .seconds(10))
                        received = answer.delta?.rows.count ?? 0
                        if let delta = answer.delta,
                           let next = delta.applied(to: current, index: Self.index(of: delta.rows, in: current)) {
                            current = next
                        } else {
                            // Also a restarted owner, which counts from 1 again: take whatever it sends, or read its
                            // latest snapshot a page at a time.
                            if let full = answer.full {
                                current = full
                            } else {
                                current = try await client.wholeSnapshot(pageSize: pageSize)
                            }
                            received += current.rows.count
                        }
                    }
                    failures = 0
                    current.ownerProcessID = owner
                    let next = current
                    box.publish(state.withLock { [received] state in
                        state.current = next
                        state.loss = nil
                        state.rowsReceived += received
                        return state.shown()
                    })
                } catch {
                    owner = nil
                    failures += 1
                    if failures >= Self.failuresBeforeLoss {
                        let loss = OwnerLoss.judge(pid: lastOwner, socketPath: client.socketPath)
                        if let shown = state.withLock({ $0.setLoss(loss) }) { box.publish(shown) }
                    }
                    try? await Task.sleep(for: .milliseconds(failures >= Self.failuresBeforeLoss ? 500 : 200))
                }
            }
        }
        // A stopped owner (SIGSTOP, Ctrl-Z) accepts connections and answers nothing: once a second, while the mirror
        // waits, its process is looked at, so the list says so at once and takes it back when it continues.
        let watch = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                guard let pid = state.withLock({ $0.current.ownerProcessID }) else { continue }
                let suspended = OwnerLoss.judge(pid: pid, socketPath: client.socketPath) == .suspended(pid: pid)
                // Only the stop by a signal is this watch's to set and take back; the mirror judges the rest.
                let shown = state.withLock { state -> QueueSnapshot? in
                    switch (state.loss, suspended) {
                    case (nil, true): state.setLoss(.suspended(pid: pid))
                    case (.suspended?, false): state.setLoss(nil)
                    default: nil
                    }
                }
                if let shown { box.publish(shown) }
            }
        }
        // One consumer keeps the user's commands in order; the next snapshot shows their effect.
        let sender = Task {
            for await command in stream { _ = try? await client.perform([command]) }
        }
        tasks = [mirror, watch, sender]
    }

    /// Rows decoded from the owner's answers since the start (pages, deltas, whole snapshots): an update costs the
    /// rows that changed, not the queue.
    public var rowsReceived: Int { state.withLock(\.rowsReceived) }

    /// What became of the owner when it last failed to answer; nil while it answers.
    public var loss: OwnerLoss? { state.withLock { $0.loss } }

    /// Where the tasks of `rows` (a delta's, a few) are in `snapshot`: among the running rows first (a delta's rows
    /// mostly are), then in one pass over the rest. No index of every task is kept between updates (for 100,000 tasks
    /// it took several MiB).
    static func index(of rows: [QueueSnapshot.Row], in snapshot: QueueSnapshot) -> [TaskID: Int] {
        guard !rows.isEmpty else { return [:] }
        let wanted = Set(rows.map(\.id))
        var index: [TaskID: Int] = [:]
        index.reserveCapacity(wanted.count)
        for position in snapshot.tally.running where wanted.contains(snapshot.rows[position].id) {
            index[snapshot.rows[position].id] = position
        }
        guard index.count < wanted.count else { return index }
        for (position, row) in snapshot.rows.enumerated() where wanted.contains(row.id) && index[row.id] == nil {
            index[row.id] = position
            if index.count == wanted.count { break }
        }
        return index
    }

    public func send(_ command: QueueCommand) { commands.yield(command) }

    public func close() {
        commands.finish()
        for task in tasks { task.cancel() }
    }
}
