import HaulCore

/// The connections of a segmented download: the planner decides, the transfer applies its steps.
extension ActiveTransfer {
    /// After a connection ended or room opened: done when every byte arrived; else connections for free
    /// ranges or halves of the slowest ones, up to `-s` on each link, while extra connections keep working.
    /// Links are offered the work fastest first (`thief`, whose connection just finished a range, before all);
    /// a link that failed for good is dropped and the others take its ranges; the task fails with the last.
    func feed(thiefSpeed: Double? = nil, thief: TransferLink? = nil) -> TransferNext {
        openSamples()
        // A mirror whose sample has not agreed yet has no range to run.
        for link in feedingOrder(thief: thief) where link.sampleAgreed {
            guard var ledger else { return .keepGoing }
            let (steps, conclusion) = link.planner.feed(
                &ledger, running: connections.filter { $0.link === link }.map(planning),
                elsewhere: connections.filter { $0.link !== link }.map(planning), hostRoom: hosts.room(for: link.host),
                thiefSpeed: link === thief ? thiefSpeed : nil, cap: link.isMain || link.answered ? nil : 1)
            self.ledger = ledger
            apply(steps, on: link)
            switch conclusion {
            case nil:
                continue
            case let .failed(error):
                drop(link, reason: error.description)
                // The links offered earlier in this round may take its ranges now.
                return links.contains(where: \.isLive) ? feed() : .conclude(.failed(error))
            case let ending?:
                return .conclude(ending)
            }
        }
        return .keepGoing
    }

    /// Carries out a planner's steps: cuts on whichever connection holds the lease, new ranges on `link`.
    func apply(_ steps: [ConnectionPlanner.Step], on link: TransferLink) {
        guard let ledger else { return }
        for case let .cut(lease, newEnd) in steps {
            // Its request asks for more: it stops here, and its connection closes (`write`).
            if let victim = connections.first(where: { $0.lease == lease }), let end = victim.end {
                victim.end = min(end, newEnd)
            }
        }
        // After the cuts: a lease opened in this round may have been cut in it too, and its first request
        // must fit what is left of it.
        for case let .open(lease) in steps {
            let range = ledger.status(of: lease.id)?.range ?? lease.range
            openRange(lease.id, from: range.lowerBound, to: range.upperBound, on: link)
        }
    }

    /// Room opened on the host (another task ended or gave up a connection): take it for more ranges.
    func grow() -> TransferNext {
        guard ledger != nil, case .receiving = phase, connections.count < targetConnections else { return .keepGoing }
        return feed()
    }

    /// The wait a refused range asked for is over: extra connections may open again.
    func endHold(now: ContinuousClock.Instant) -> TransferNext {
        links.reduce(false) { ended, link in link.planner.endHold(now: now) || ended } ? grow() : .keepGoing
    }

    /// Hands the ranges of connections that stay far below the fast ones (`SlowConnectionCheck`) to fresh ones:
    /// the slow one goes on for another half second while a fresh connection takes the rest, provisionally (a
    /// refused fresh one gives it back, so a link that expired meanwhile loses nothing). The handover needs one
    /// connection more to the host: while the host has no room, and for one that cannot be cut now, it waits for
    /// a later look.
    func replaceSlowConnections() {
        guard ledger != nil, case .receiving = phase else { return }
        for link in links {
            let room = hosts.room(for: link.host)
            guard room > 0 else { continue }
            // Each link's against its own: a slower mirror is not slow connections.
            let receiving = connections.filter { $0.link === link && isCuttable($0) }
            let victims = link.planner.slowConnections(among: receiving.map(planning), limited: budget.limits(request.id))
            for victim in victims.prefix(room).map({ receiving[$0] }) {
                guard let lease = victim.lease, var ledger,
                      let grant = ledger.takeOver(lease, from: victim.cursor + min((victim.speed / 2).clampedInt64(.up), 1 << 40)),
                      let shrunk = grant.shrunk
                else { continue }
                self.ledger = ledger
                apply([.cut(shrunk.lease, newEnd: shrunk.newEnd), .open(grant.lease)], on: link)
            }
        }
    }

    /// A new connection count from now on: more open at once where there is work and room; fewer close
    /// as their ranges end (the extra ones at once, their handles returned for the engine to remove).
    func setTargetConnections(_ count: Int) -> (next: TransferNext, shed: [CurlEasy]) {
        for link in links { link.planner.retarget(count) }
        var shed: [Connection] = []
        while connections.count - shed.count > targetConnections, let victim = victimToShed(excluding: shed) {
            shed.append(victim)
        }
        return (grow(), shed.map(\.easy))
    }

    /// Gives up one extra connection so another task can have the host (the engine removes its handle).
    func shedConnection() -> CurlEasy? { victimToShed()?.easy }

    /// The connection to give up: the one with the most left to fetch; its unfetched bytes go back to be taken
    /// later. Nil when this transfer has only one connection.
    private func victimToShed(excluding skipped: [Connection] = []) -> Connection? {
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
    /// A mirror's range repeats that mirror's own (none before its first answer).
    func ifRangeValidators(for connection: Connection) -> RemoteValidators {
        guard connection.link.isMain else { return connection.link.validators }
        if newLink != nil { return RemoteValidators() }
        return connection.role == .first ? request.validators : validators
    }

    /// A cut is provisional until the new range's answer (`absorbFreeRanges`): a connection with no answer yet is not
    /// cut, nor one whose last cut waits for its answer, so a refused range always goes back to the one it was cut from.
    func isCuttable(_ connection: Connection) -> Bool {
        guard connection.state == .receiving, let lease = connection.lease else { return false }
        return !hasUnansweredTaker(after: lease)
    }

    /// Whether the range right after `lease` is held by a connection with no answer yet (it was cut from `lease`).
    func hasUnansweredTaker(after lease: SegmentLease.ID) -> Bool {
        guard let ledger else { return false }
        return connections.contains { other in
            other.state == .awaitingResponse && other.lease.map { ledger.lease(before: $0) == lease } == true
        }
    }

    /// What `connection` is doing, as the planner sees it: its lease's bytes left, not only its request's.
    func planning(_ connection: Connection) -> ConnectionPlanner.Running {
        let status = connection.lease.flatMap { ledger?.status(of: $0) }
        let remaining = status.map { $0.range.upperBound - $0.range.lowerBound - $0.received } ?? connection.remaining
        return ConnectionPlanner.Running(
            lease: connection.lease, isOpen: connection.isOpen, speed: connection.speed,
            receivingSeconds: connection.receivingSeconds, remaining: max(0, remaining), cuttable: isCuttable(connection))
    }
}
