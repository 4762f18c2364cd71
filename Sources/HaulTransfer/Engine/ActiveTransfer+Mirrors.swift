import HaulCore

/// The links of a download with mirrors (DESIGN §8): how the first ranges are shared among them, in which
/// order they are offered work, and dropping one that disagrees or fails for good.
extension ActiveTransfer {
    /// Connections the task may use now: `-s` on each link still in use.
    var targetConnections: Int {
        links.filter(\.isLive).reduce(0) { $0 + $1.planner.target }
    }

    /// Whether another link than `link` is still in use.
    func othersLive(than link: TransferLink) -> Bool {
        links.contains { $0 !== link && $0.isLive }
    }

    /// Whether a link of this transfer is on `host` (a connection ending there makes room for it).
    func uses(_ host: String) -> Bool {
        links.contains { $0.host == host }
    }

    /// The links still in use, `thief` first, then the fastest per connection, then in the task's order.
    func feedingOrder(thief: TransferLink?) -> [TransferLink] {
        let speeds = links.map { link in TransferLink.speed(of: connections.filter { $0.link === link }) ?? 0 }
        let order = links.filter(\.isLive).sorted { a, b in
            if (a === thief) != (b === thief) { return a === thief }
            if speeds[a.index] != speeds[b.index] { return speeds[a.index] > speeds[b.index] }
            return a.index < b.index
        }
        return order
    }

    /// Stops using `link` for the rest of the attempt: its open connections end (their bytes so far are
    /// kept, the rest of their ranges goes back to be taken by the others) and, for a task with mirrors,
    /// the controller records the reason.
    func drop(_ link: TransferLink, reason: String) {
        guard link.isLive else { return }
        link.drop(reason)
        if links.count > 1 {
            emit(.linkDropped(request.id, DroppedLink(url: URLValidation.redacted(link.url), reason: reason)))
        }
        // Ended on purpose: their next body bytes are refused, libcurl lets go, their leases are released.
        for connection in connections where connection.link === link && connection.isOpen {
            connection.state = .reachedEnd
        }
    }

    /// The first request of a task with mirrors failed before anything was written: its link is dropped and
    /// the next link is asked for the file instead. Nil when the attempt ends as `ending` says (no link left).
    func fallOver(from connection: Connection, _ ending: TransferEnding) -> TransferNext? {
        guard case let .failed(error) = ending, connection.role == .first, position == requestedOffset,
              LinkAgreement.isLinkFailure(error), links.count > 1 else { return nil }
        drop(connection.link, reason: error.description)
        guard let next = links.first(where: \.isLive) else { return nil }
        phase = .awaitingResponse
        add(Connection(role: .first, transfer: self, link: next, requested: requestedOffset..<Int64.max, lease: nil))
        return .keepGoing
    }

    /// The first leases of a segmented download, shared among the links in turn (main link first): up to `-s`
    /// connections on each, within each host's room. `mainOpen` connections of the main link are open already
    /// and count (the first lease is then theirs: it opens when the first connection has closed). `first` is
    /// the link of that open connection, nil when none is open.
    func planLinks(first: TransferLink?) -> [(lease: SegmentLease, link: TransferLink)] {
        guard var ledger else { return [] }
        var room: [String: Int] = [:]
        var counts: [Int] = []
        for link in links {
            let open = link === first ? 1 : 0
            let free = room[link.host] ?? hosts.room(for: link.host)
            var count = link.isLive ? max(0, min(link.planner.target - open, free)) : 0
            // The task's first connection always opens (libcurl queues it when the host is full).
            if link.isMain, first == nil { count = max(1, count) }
            room[link.host] = free - count
            counts.append(count + open)
        }
        let planned = ledger.plan(connections: counts.reduce(0, +), minSplit: request.options.minSplitSize)
        self.ledger = ledger
        var shared: [(lease: SegmentLease, link: TransferLink)] = []
        var turn = first?.index ?? 0
        for lease in planned {
            while counts[turn % links.count] == 0 { turn += 1 }
            counts[turn % links.count] -= 1
            shared.append((lease, links[turn % links.count]))
            turn += 1
        }
        return shared
    }
}
