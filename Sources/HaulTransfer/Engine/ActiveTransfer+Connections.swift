import HaulCore

/// The connections of a segmented download: the planner decides, the transfer applies its steps.
extension ActiveTransfer {
    /// After a connection ended or room opened: done when every byte arrived; else connections for free
    /// ranges or halves of the slowest ones, up to `-s`, while extra connections keep working.
    func feed(thiefSpeed: Double? = nil) -> TransferNext {
        guard var ledger else { return .keepGoing }
        let (steps, conclusion) = planner.feed(
            &ledger, running: connections.map(planning), hostRoom: hosts.room(for: host), thiefSpeed: thiefSpeed)
        self.ledger = ledger
        for case let .cut(lease, newEnd) in steps {
            // Past its current request (the ledger cuts there at the earliest): its next one stops here.
            if let victim = connections.first(where: { $0.lease == lease }), let end = victim.end {
                victim.end = min(end, newEnd)
            }
        }
        // After the cuts: a lease opened in this round may have been cut in it too, and its first request
        // must fit what is left of it.
        for case let .open(lease) in steps {
            let range = ledger.status(of: lease.id)?.range ?? lease.range
            openRange(lease.id, from: range.lowerBound, to: range.upperBound)
        }
        return conclusion.map { .conclude($0) } ?? .keepGoing
    }

    /// Room opened on the host (another task ended or gave up a connection): take it for more ranges.
    func grow() -> TransferNext {
        guard ledger != nil, case .receiving = phase, connections.count < planner.target else { return .keepGoing }
        return feed()
    }

    /// The wait a refused range asked for is over: extra connections may open again.
    func endHold(now: ContinuousClock.Instant) -> TransferNext {
        planner.endHold(now: now) ? grow() : .keepGoing
    }

    /// Closes connections that stay far below the fast ones (`SlowConnectionCheck`); the engine removes
    /// their handles and ends them, and their ranges go to fresh connections.
    func replaceSlowConnections() -> [Connection] {
        guard ledger != nil, case .receiving = phase else { return [] }
        let receiving = connections.filter { $0.state == .receiving && $0.lease != nil }
        let victims = planner.slowConnections(among: receiving.map(planning), limited: budget.limits(request.id))
            .map { receiving[$0] }
        // Ended on purpose, like a range that reached its end: not a failure of the server.
        for victim in victims { victim.state = .reachedEnd }
        return victims
    }

    /// A new connection count from now on: more open at once where there is work and room; fewer close
    /// as their ranges end (the extra ones at once, returned for the engine to remove).
    func setTargetConnections(_ count: Int) -> (TransferNext, [Connection]) {
        planner.retarget(count)
        var shed: [Connection] = []
        while connections.count - shed.count > planner.target, let victim = shedConnection(excluding: shed) {
            shed.append(victim)
        }
        return (grow(), shed)
    }

    /// Gives up one extra connection so another task can have the host (the engine removes its handle):
    /// the one with the most left to fetch; its unfetched bytes go back to be taken later. Nil when this
    /// transfer has only one connection.
    func shedConnection(excluding skipped: [Connection] = []) -> Connection? {
        guard ledger != nil else { return nil }
        let candidates = connections.filter { connection in !skipped.contains { $0 === connection } }
        guard let index = ConnectionPlanner.shedding(among: candidates.map(planning)) else { return nil }
        let victim = candidates[index]
        // Ended on purpose, like a range that reached its end: not a failure of the server.
        victim.state = .reachedEnd
        return victim
    }

    /// What a request's `If-Range` repeats: the stored validators for the first request, the first answer's for
    /// a range, and none while a replaced link is unconfirmed (its answer is checked against the kept bytes).
    func ifRangeValidators(for role: Connection.Role) -> RemoteValidators {
        if newLink != nil { return RemoteValidators() }
        return role == .first ? request.validators : validators
    }

    /// What `connection` is doing, as the planner sees it: its lease's bytes left, not only its request's.
    func planning(_ connection: Connection) -> ConnectionPlanner.Running {
        let status = connection.lease.flatMap { ledger?.status(of: $0) }
        let remaining = status.map { $0.range.upperBound - $0.range.lowerBound - $0.received } ?? connection.remaining
        return ConnectionPlanner.Running(
            lease: connection.lease, isOpen: connection.isOpen, speed: connection.speed,
            receivingSeconds: connection.receivingSeconds, remaining: max(0, remaining), requestEnd: connection.end)
    }
}
