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
        return LinkShares.order(speeds: speeds, live: links.map(\.isLive), thief: thief?.index).map { links[$0] }
    }

    /// Stops using `link` for the rest of the attempt: its open connections end (their bytes so far are
    /// kept, the rest of their ranges goes back to be taken by the others) and, for a task with mirrors,
    /// the controller records the reason.
    func drop(_ link: TransferLink, reason: String) {
        guard link.isLive else { return }
        link.drop(reason)
        // Without the main link there is nothing to compare a mirror's sample with.
        if link.isMain { trustUnsampled() }
        if links.count > 1 {
            emit(.linkDropped(request.id, DroppedLink(url: URLValidation.redacted(link.url), reason: reason)))
        }
        // Ended on purpose: their next body bytes are refused, libcurl lets go, their leases are released.
        for connection in connections where connection.link === link && connection.isOpen {
            connection.state = .reachedEnd
        }
    }

    /// A mirror's first range answer was taken: its other connections open now, on halves of the running
    /// ranges (or free ones), as when room opens.
    func growAfterFirstAnswer(_ link: TransferLink) {
        guard var ledger else { return }
        // The answering connection runs, so there is no conclusion to act on.
        let (steps, _) = link.planner.feed(
            &ledger, running: connections.filter { $0.link === link }.map(planning),
            elsewhere: connections.filter { $0.link !== link }.map(planning), hostRoom: hosts.room(for: link.host))
        self.ledger = ledger
        apply(steps, on: link)
    }

    /// The first request of a task with mirrors failed before anything was written: its link is dropped and
    /// the next link is asked for the file instead. Nil when the attempt ends as `ending` says (no link left).
    func fallOver(from connection: Connection, _ ending: TransferEnding) -> TransferNext? {
        guard case let .failed(error) = ending, connection.role == .first, position == requestedOffset,
              LinkAgreement.isLinkFailure(error), links.count > 1 else { return nil }
        drop(connection.link, reason: error.description)
        guard let next = links.first(where: \.isLive) else { return nil }
        phase = .awaitingResponse
        next.sampleAgreed = true
        openFirst(on: next)
        return .keepGoing
    }

    /// The first leases of a segmented download, shared among the links in turn (the main link first): up to
    /// `-s` connections on each, within each host's room. A connection of `first` (nil: none) is open already
    /// and counts; the first lease is then its link's, and opens when that connection has closed.
    ///
    /// A mirror whose sample has not agreed yet gets none now: its share stays free, for it once its sample agreed
    /// (`openSamples` asks it for its sample) or for any other.
    /// On a mirror that has not answered yet only its first lease opens now: its first answer fixes the
    /// validators its other answers must repeat, so two versions from one mirror are never both taken. Its
    /// other ranges stay free for its connections once it answered (`growAfterFirstAnswer`), or for any other.
    func planLinks(first: TransferLink?) -> [(lease: SegmentLease, link: TransferLink)] {
        guard var ledger else { return [] }
        let counts = LinkShares.counts(links.map { link in
            LinkShares.Link(
                host: link.host, isMain: link.isMain, isLive: link.isLive, target: link.planner.target, hasOpen: link === first)
        }, room: hosts.room(for:))
        let planned = ledger.plan(connections: counts.reduce(0, +), minSplit: request.options.minSplitSize)
        var shared: [(lease: SegmentLease, link: TransferLink)] = []
        var asked: Set<Int> = []
        for (lease, owner) in zip(planned, LinkShares.owners(leases: planned.count, counts: counts, start: first?.index ?? 0)) {
            let link = links[owner]
            if link.mayLease, link.isMain || link.answered || asked.insert(link.index).inserted {
                shared.append((lease, link))
            } else {
                ledger.release(lease.id)
            }
        }
        self.ledger = ledger
        return shared
    }
}
