import HaulCore

/// A connection the budgets pace: a file's range or a stream's segment.
protocol PacedConnection: AnyObject {
    var easy: CurlEasy { get }
    /// The task whose budget it draws from.
    var pacedTask: TaskID { get }
    /// The receive buffer a limit gave its socket, nil while none did.
    var receiveBuffer: Int? { get set }
}

/// The receive limits on the transfer thread: one budget for all tasks (`--max-overall-download-limit`)
/// and one per running task: at its own cap (`--limit-rate`, over all its connections), or under an overall cap
/// at its max-min fair share of it (`FairShare`, shared again every half second by what each task used).
///
/// A connection whose budgets are spent is paused from its write callback (libcurl keeps the bytes) and
/// resumed once they refill, in turn, so no connection of a task starves. A limited connection's socket
/// takes in only its share of a quarter second (`ReceiveWindow`), so the cap holds as the network sees it.
/// Owned by the transfer thread.
final class BandwidthBudget {
    /// A running task as the budgets see it.
    private struct PacedTask {
        /// Its own cap (`--limit-rate`), nil when it has none.
        var cap: Int64?
        /// Its bucket: at its cap, or at its fair share of the overall cap (`FairShare`); nil while neither limits it.
        var bucket: TokenBucket?
        /// Bytes received since the last sharing, for its demand.
        var received: Int64 = 0
        /// Since when `received` counts.
        var countingSince: ContinuousClock.Instant
        /// What it showed it can use at the last sharing (`FairShare.demand`), nil when it would take more.
        var demand: Int64?

        mutating func took(_ bytes: Int) {
            bucket?.take(bytes)
            received += Int64(bytes)
        }

        /// Paces the bucket at `rate` from now on (nil: nothing limits the task).
        mutating func pace(at rate: Int64?) {
            guard let rate else { return bucket = nil }
            if bucket == nil { bucket = TokenBucket(rate: rate) } else if bucket?.rate != rate { bucket?.change(rate: rate) }
        }
    }

    /// How often the overall cap is shared again by what each task showed it can use.
    static let sharingInterval: Duration = .milliseconds(500)

    private(set) var overall: TokenBucket?
    /// Every running task, limited or not.
    private var tasks: [TaskID: PacedTask] = [:]
    /// Whether any budget is set: with none, the write callback does no lookups.
    private var isPacing = false
    /// Paused connections, oldest first: the first to resume.
    private var throttled: [any PacedConnection] = []
    private var lastRefill = ContinuousClock.now
    private var lastSharing = ContinuousClock.now
    /// The connections of every running task, open or about to open, for the overall budget's shares.
    var expectedConnections = 1

    var hasThrottled: Bool { !throttled.isEmpty }

    /// Whether a limit paces task `id`: its connections' speeds then say nothing about the server.
    func limits(_ id: TaskID) -> Bool { overall != nil || tasks[id]?.cap != nil }

    func setOverall(_ rate: Int64?) {
        // A first overall cap judges demands afresh, counting from now: nothing was counted without a limit, and a
        // task judged by that would start at the smallest demand.
        if overall == nil {
            let now = ContinuousClock.now
            for id in tasks.keys {
                tasks[id]?.demand = nil
                tasks[id]?.received = 0
                tasks[id]?.countingSince = now
            }
            lastSharing = now
        }
        overall = rate.map { rate in overall.map { var bucket = $0; bucket.change(rate: rate); return bucket } ?? TokenBucket(rate: rate) }
        share()
    }

    /// Task `id` runs, with its own cap `rate` (nil: none); called as it starts and when its cap changes.
    func setTask(_ id: TaskID, _ rate: Int64?) {
        tasks[id, default: PacedTask(countingSince: .now)].cap = rate
        share()
    }

    /// Task `id` ended: its budget and its place in line go, and the others share what it leaves.
    func forget(_ id: TaskID) {
        tasks[id] = nil
        throttled.removeAll { $0.pacedTask == id }
        share()
    }

    /// Paces each task's bucket: at its fair share of the overall cap (`FairShare`, by the demands of the last
    /// sharing), or at its own cap when there is no overall one.
    private func share() {
        isPacing = overall != nil || tasks.values.contains { $0.cap != nil }
        guard let overall else {
            for (id, task) in tasks { tasks[id]?.pace(at: task.cap) }
            return
        }
        let claims = tasks.sorted { $0.key < $1.key }.map { FairShare.Claim($0.key, cap: $0.value.cap, demand: $0.value.demand) }
        let fair = FairShare(total: overall.rate, claims: claims)
        for id in tasks.keys { tasks[id]?.pace(at: fair.allocations[id]) }
    }

    /// Notes what each task received since it was last counted (a task counted for less than the interval keeps
    /// counting, so one that just started is not judged by its connecting), then shares again.
    private func shareByDemand(now: ContinuousClock.Instant) {
        lastSharing = now
        for (id, task) in tasks where now - task.countingSince >= Self.sharingInterval {
            let rate = Double(task.received) / (now - task.countingSince).inSeconds
            tasks[id]?.demand = task.bucket.flatMap { FairShare.demand(rate: rate, paced: $0.rate) }
            tasks[id]?.received = 0
            tasks[id]?.countingSince = now
        }
        share()
    }

    /// Whether `connection` may take bytes now; if not it is queued to resume. `taskConnections`: how many its task
    /// has or may soon open, for its share of the task's limit (counted only when a limit is set: this runs for every
    /// chunk of every connection).
    func mayReceive(_ connection: any PacedConnection, taskConnections: @autoclosure () -> Int) -> Bool {
        // The write callback asks for every chunk: with no limit at all, no lookups.
        guard isPacing else {
            if connection.receiveBuffer != nil { widen(connection) }
            return true
        }
        narrow(connection, taskConnections: taskConnections())
        guard hasBudget(for: connection) else {
            if !throttled.contains(where: { $0 === connection }) { throttled.append(connection) }
            return false
        }
        return true
    }

    /// Whether both budgets that pace `connection` have bytes left.
    private func hasBudget(for connection: any PacedConnection) -> Bool {
        let id = connection.pacedTask
        return (overall?.isAvailable ?? true) && (tasks[id]?.bucket?.isAvailable ?? true)
    }

    func took(_ bytes: Int, for connection: any PacedConnection) {
        guard isPacing else { return }
        overall?.take(bytes)
        tasks[connection.pacedTask]?.took(bytes)
    }

    /// The receive buffer for `connection`'s share of the budgets that pace it (its task's among `taskConnections`);
    /// nil when none does.
    func receiveBuffer(for connection: any PacedConnection, taskConnections: Int) -> Int? {
        let id = connection.pacedTask
        var size: Int?
        if let overall { size = ReceiveWindow.bytes(rate: overall.rate, connections: expectedConnections) }
        if let task = tasks[id]?.bucket {
            let share = ReceiveWindow.bytes(rate: task.rate, connections: taskConnections)
            size = min(size ?? share, share)
        }
        return size
    }

    /// Sizes `connection`'s receive buffer to its share of the budgets that pace it.
    private func narrow(_ connection: any PacedConnection, taskConnections: Int) {
        guard let size = receiveBuffer(for: connection, taskConnections: taskConnections) else { return widen(connection) }
        guard connection.receiveBuffer != size else { return }
        // Recorded even when the socket is not there yet or refuses: the next chunk does not ask again.
        connection.receiveBuffer = size
        connection.easy.limitReceiveBuffer(to: size)
    }

    /// A limit was lifted: the buffer may hold as much as the kernel allows a socket that sets its own.
    private func widen(_ connection: any PacedConnection) {
        connection.receiveBuffer = nil
        connection.easy.limitReceiveBuffer(to: ReceiveWindow.largest)
    }

    /// Refills by the time passed and resumes paused connections whose budgets allow, oldest first.
    /// A resumed connection may be handed its waiting bytes at once (libcurl calls back inside the resume).
    func refillAndResume(now: ContinuousClock.Instant) {
        let seconds = (now - lastRefill).inSeconds
        lastRefill = now
        if isPacing {
            if overall != nil, now - lastSharing >= Self.sharingInterval { shareByDemand(now: now) }
            overall?.refill(after: seconds)
            for id in tasks.keys { tasks[id]?.bucket?.refill(after: seconds) }
        }
        guard !throttled.isEmpty else { return }
        let waiting = throttled
        throttled = []
        for (index, connection) in waiting.enumerated() {
            guard hasBudget(for: connection) else {
                // Still spent: keep its place in line.
                throttled.insert(connection, at: min(throttled.count, index))
                continue
            }
            connection.easy.resume()
        }
    }

    /// A connection that ended is no longer waiting.
    func drop(_ connection: any PacedConnection) {
        throttled.removeAll { $0 === connection }
    }
}
