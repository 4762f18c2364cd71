import HaulCore

/// A mirror's sample (DESIGN §8, `OverlapSample`): before any range of a mirror is leased, its first connection asks
/// for the few KiB at the start of the main link's first range, and the bytes are compared with what the main link
/// wrote there. A mirror serving another file of the same length is dropped with its reason, and never wrote a byte.
extension ActiveTransfer {
    /// Asks each live mirror whose bytes are not known to agree, and which has no connection, for the sample window
    /// (where its host has room). Without a window (no range of the main link to compare with) mirrors are trusted.
    func openSamples() {
        guard let window = sampleWindow, !window.isEmpty, links[0].isLive else { return trustUnsampled() }
        // Nothing left to fetch: no mirror is needed.
        guard let ledger, ledger.receivedBytes < ledger.total else { return }
        // A mirror whose whole sample came waits for the main link's bytes (`keepReference`).
        for link in links where link.isLive && !link.sampleAgreed && link.sample.count < window.count
            && !connections.contains(where: { $0.link === link }) {
            guard hosts.room(for: link.host) > 0 else { continue }
            link.sample = []
            add(Connection(role: .range, task: request.id, link: link, url: url(ofRangeOn: link), requested: window, lease: nil))
        }
    }

    /// No link's bytes can be compared with: mirrors not checked yet are taken as they are (as before samples).
    func trustUnsampled() {
        for link in links where !link.sampleAgreed { link.sampleAgreed = true }
    }

    /// Keeps a sample connection's body bytes in memory, up to its window's end; returns how many were taken
    /// (fewer ends it, as at a range's end).
    func takeSample(_ bytes: UnsafeRawBufferPointer, from connection: Connection) -> Int {
        let link = connection.link
        let end = min(connection.end ?? connection.requested.upperBound, connection.requested.upperBound)
        let count = Int(min(Int64(bytes.count), max(0, end - connection.cursor)))
        link.sample.append(contentsOf: bytes[0..<count])
        connection.cursor += Int64(count)
        connection.bytesSinceTick += Int64(count)
        if connection.cursor >= end { connection.state = .reachedEnd }
        judgeSample(link)
        return count
    }

    /// Keeps what a main-link connection writes of the sample window (`count` bytes of `bytes` at `offset`), in order.
    func keepReference(_ bytes: UnsafeRawBufferPointer, count: Int, at offset: Int64) {
        guard let window = sampleWindow else { return }
        let next = window.lowerBound + Int64(referenceSample.count)
        guard next < window.upperBound, offset <= next, offset + Int64(count) > next else { return }
        let from = Int(next - offset)
        let upTo = Int(min(offset + Int64(count), window.upperBound) - offset)
        referenceSample.append(contentsOf: bytes[from..<upTo])
        for link in links where link.isLive && !link.sampleAgreed && !link.sample.isEmpty { judgeSample(link) }
    }

    /// Compares what `link` sent of the window with the main link's bytes: a difference drops it; agreement lets its
    /// ranges be leased (its other connections open now if its answer was taken).
    func judgeSample(_ link: TransferLink) {
        guard let window = sampleWindow, link.isLive, !link.sampleAgreed else { return }
        switch OverlapSample.verdict(window: window, reference: referenceSample, mirror: link.sample) {
        case .waiting:
            return
        case let .differs(offset):
            drop(link, reason: OverlapSample.reason(differsAt: offset))
        case .agrees:
            link.sampleAgreed = true
            link.sample = []
            if link.answered { grownLinks.append(link) }
        }
    }

    /// A sample connection ended: one that did not bring the whole window is asked again (`openSamples`, from
    /// `feed`), up to three times before its link is dropped.
    func sampleEnded(_ connection: Connection, _ verdict: EndingCheck.RangeVerdict) {
        let link = connection.link
        guard link.isLive, !link.sampleAgreed, connection.cursor < connection.requested.upperBound else { return }
        link.sample = []
        link.sampleFailures += 1
        guard link.sampleFailures >= Self.sampleTries else { return }
        if case let .failedRange(error) = verdict {
            drop(link, reason: error.description)
        } else {
            drop(link, reason: "its sample of the file could not be fetched")
        }
    }

    static let sampleTries = 3
}

