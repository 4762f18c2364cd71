import HaulCore

/// The receive limits on the transfer thread: one budget for all tasks (`--max-overall-download-limit`)
/// and one per limited task (`--limit-rate`, over all its connections).
///
/// A connection whose budgets are spent is paused from its write callback (libcurl keeps the bytes) and
/// resumed once they refill, in turn, so no connection of a task starves. A limited connection's socket
/// takes in only its share of a quarter second (`ReceiveWindow`), so the cap holds as the network sees it.
/// Owned by the transfer thread.
/// A connection the budgets pace: a file's range or a stream's segment.
protocol PacedConnection: AnyObject {
    var easy: CurlEasy { get }
    /// The task whose budget it draws from.
    var pacedTask: TaskID { get }
    /// The receive buffer a limit gave its socket, nil while none did.
    var receiveBuffer: Int? { get set }
}

final class BandwidthBudget {
    private(set) var overall: TokenBucket?
    private var tasks: [TaskID: TokenBucket] = [:]
    /// Paused connections, oldest first: the first to resume.
    private var throttled: [any PacedConnection] = []
    private var lastRefill = ContinuousClock.now
    /// The connections of every running task, open or about to open, for the overall budget's shares.
    var expectedConnections = 1

    var hasThrottled: Bool { !throttled.isEmpty }

    /// Whether a limit paces task `id`: its connections' speeds then say nothing about the server.
    func limits(_ id: TaskID) -> Bool { overall != nil || tasks[id] != nil }

    func setOverall(_ rate: Int64?) {
        overall = rate.map { rate in overall.map { var bucket = $0; bucket.change(rate: rate); return bucket } ?? TokenBucket(rate: rate) }
    }

    func setTask(_ id: TaskID, _ rate: Int64?) {
        guard let rate else { return tasks[id] = nil }
        if tasks[id] == nil { tasks[id] = TokenBucket(rate: rate) } else { tasks[id]?.change(rate: rate) }
    }

    func forget(_ id: TaskID) {
        tasks[id] = nil
        throttled.removeAll { $0.pacedTask == id }
    }

    /// Whether `connection` may take bytes now; if not it is queued to resume. `taskConnections`: how many its task
    /// has or may soon open, for its share of the task's limit (counted only when a limit is set: this runs for every
    /// chunk of every connection).
    func mayReceive(_ connection: any PacedConnection, taskConnections: @autoclosure () -> Int) -> Bool {
        // The write callback asks for every chunk: with no limit at all, no lookups.
        guard overall != nil || !tasks.isEmpty else {
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
        return (overall?.isAvailable ?? true) && (tasks[id]?.isAvailable ?? true)
    }

    func took(_ bytes: Int, for connection: any PacedConnection) {
        guard overall != nil || !tasks.isEmpty else { return }
        overall?.take(bytes)
        tasks[connection.pacedTask]?.take(bytes)
    }

    /// The receive buffer for `connection`'s share of the budgets that pace it (its task's among `taskConnections`);
    /// nil when none does.
    func receiveBuffer(for connection: any PacedConnection, taskConnections: Int) -> Int? {
        let id = connection.pacedTask
        var size: Int?
        if let overall { size = ReceiveWindow.bytes(rate: overall.rate, connections: expectedConnections) }
        if let task = tasks[id] {
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
        overall?.refill(after: seconds)
        for id in tasks.keys { tasks[id]?.refill(after: seconds) }
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
