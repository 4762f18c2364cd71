import Testing
@testable import HaulCore

/// Long seeded runs of random ledger operations, checked against the ledger's invariants after every step,
/// and whole downloads simulated tick by tick.
@Suite struct SegmentLedgerSequenceTests {
    static let mib: Int64 = 1024 * 1024

    @Test(arguments: 0..<48) func randomOperationsKeepEveryInvariant(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let total: Int64 = [0, 1, 100, 70_000, 3 * Self.mib + 17, 64 * Self.mib][Int(seed % 6)]
            + Int64.random(in: 0...1000, using: &random) * (seed % 6 == 0 ? 0 : 1)
        var ledger = SegmentLedger(total: total)
        var committedSoFar: Int64 = 0
        var halvings = 0
        for step in 0..<400 {
            let minSplit = ([1, 1000, 64 * 1024, Self.mib] as [Int64]).randomElement(using: &random)!
            let alignment = ([1, 512, SegmentLedger.defaultAlignment] as [Int64]).randomElement(using: &random)!
            let before = ledger
            let leases = ledger.activeLeases
            let anyLease = Self.leaseIDs(in: ledger).randomElement(using: &random)
            var issues: [String] = []
            switch Int.random(in: 0..<20, using: &random) {
            case 0:
                let planned = ledger.plan(connections: Int.random(in: 0...9, using: &random), minSplit: minSplit, alignment: alignment)
                issues += LedgerCheck.planned(planned, before: before, minSplit: minSplit)
            case 1...3:
                let speeds: [SegmentLease.ID: Double] = random.next() % 2 == 0 ? [:] : Dictionary(
                    uniqueKeysWithValues: leases.filter { _ in random.next() % 4 != 0 }
                        .map { ($0.id, Double.random(in: 0...10, using: &random).rounded()) })
                let grant = ledger.leaseNext(minSplit: minSplit, alignment: alignment, speeds: speeds)
                if grant?.shrunk != nil { halvings += 1 }
                issues += LedgerCheck.granted(grant, before: before, after: ledger, minSplit: minSplit)
            case 4...11:
                if let lease = leases.randomElement(using: &random) {
                    let bytes = Int64.random(in: 0...(Int64(lease.range.count) / 3 + 2), using: &random)
                    let accepted = ledger.received(lease.id, bytes: bytes)
                    if accepted != min(bytes, Int64(lease.range.count) - lease.received) {
                        issues.append("received \(bytes) on \(lease) accepted \(accepted)")
                    }
                }
            case 12...15:
                if let id = anyLease, let status = ledger.status(of: id) {
                    let offset = status.range.lowerBound + Int64.random(in: -5...(status.received + 5), using: &random)
                    ledger.commit(id, durableUpTo: offset)
                }
            case 16:
                if let lease = leases.randomElement(using: &random) { ledger.release(lease.id) }
            case 17:
                if let lease = leases.randomElement(using: &random) {
                    let limit = lease.range.upperBound + Int64.random(in: 0...(2 * Self.mib), using: &random)
                    if let end = ledger.absorbFree(after: lease.id, upTo: limit),
                       ledger.status(of: lease.id)?.range.upperBound != end || end > limit {
                        issues.append("\(lease) did not take the free bytes after it up to \(end)")
                    }
                }
            case 18:
                if let id = anyLease { ledger.abandon(id) }
            default:
                guard let restored = SegmentLedger(total: total, segments: ledger.records) else {
                    issues.append("its own records do not restore: \(ledger.records)")
                    break
                }
                if LedgerCheck.durable(restored.records) != LedgerCheck.durable(ledger.records) {
                    issues.append("restore changed the durable bytes")
                }
                if SegmentLedger(total: total, segments: restored.records)?.records != restored.records {
                    issues.append("restoring twice changed the records")
                }
                if !restored.activeLeases.isEmpty { issues.append("a restored ledger has leases") }
                ledger = restored
            }
            issues += LedgerCheck.invariants(ledger)
            issues += LedgerCheck.progressKept(before: before, after: ledger)
            if ledger.committedBytes < committedSoFar { issues.append("committed bytes went down") }
            committedSoFar = ledger.committedBytes
            #expect(issues.isEmpty, "seed \(seed), step \(step): \(issues)")
            if !issues.isEmpty { return }
        }
        if total > 3 * Self.mib { #expect(halvings > 0, "seed \(seed) never split a running lease") }
    }

    /// Every lease id in the ledger, connected or released.
    static func leaseIDs(in ledger: SegmentLedger) -> [SegmentLease.ID] {
        ledger.segments.compactMap { segment in
            if case .leased(let lease) = segment.holder { return lease.id }
            return nil
        }
    }

    /// Eight connections of unequal speed fetch a file until it is complete: no byte is fetched twice,
    /// and work stealing keeps the end close to the ideal time.
    @Test(arguments: [(4.0, 4.0), (4.0, 1.0), (1.0, 8.0)])
    func simulatedDownloadsFinishNearTheIdealTime(fast: Double, slow: Double) {
        let total = 100 * Self.mib
        let speeds = (0..<8).map { $0.isMultiple(of: 2) ? fast : slow }.map { $0 * Double(Self.mib) }
        let tick = 0.01
        let run = Self.simulate(total: total, speeds: speeds, tick: tick, stealMinSplit: Self.mib)
        #expect(run.complete)
        #expect(run.fetched == total)
        let ideal = Double(total) / speeds.reduce(0, +)
        #expect(run.seconds <= ideal * 1.03, "took \(run.seconds) s, ideal \(ideal) s")
        // Without halving the slow connections' ranges decide the end.
        let fixed = Self.simulate(total: total, speeds: speeds, tick: tick, stealMinSplit: total)
        #expect(fixed.fetched == total)
        if fast != slow { #expect(fixed.seconds > run.seconds * 1.5) }
    }

    /// Runs connections with fixed `speeds` (bytes per second) over a ledger; commits and releases like an engine.
    static func simulate(
        total: Int64, speeds: [Double], tick: Double, stealMinSplit: Int64
    ) -> (complete: Bool, fetched: Int64, seconds: Double) {
        var ledger = SegmentLedger(total: total)
        var holding: [SegmentLease.ID?] = ledger.plan(connections: speeds.count, minSplit: Self.mib).map(\.id)
        holding += Array(repeating: nil, count: speeds.count - holding.count)
        var credit = [Double](repeating: 0, count: speeds.count)
        var fetched: Int64 = 0
        for step in 1...100_000 {
            var speedOf: [SegmentLease.ID: Double] = [:]
            for (connection, id) in holding.enumerated() { if let id { speedOf[id] = speeds[connection] } }
            for connection in speeds.indices {
                if holding[connection] == nil {
                    holding[connection] = ledger.leaseNext(
                        minSplit: stealMinSplit, speeds: speedOf, newSpeed: speeds[connection])?.lease.id
                }
                guard let id = holding[connection] else { continue }
                credit[connection] += speeds[connection] * tick
                let bytes = Int64(credit[connection])
                credit[connection] -= Double(bytes)
                fetched += ledger.received(id, bytes: bytes)
                guard let status = ledger.status(of: id) else { continue }
                if status.received == Int64(status.range.count) {
                    ledger.commit(id, durableUpTo: status.range.upperBound)
                    ledger.release(id)
                    holding[connection] = nil
                }
            }
            if ledger.isComplete { return (true, fetched, Double(step) * tick) }
        }
        return (false, fetched, .infinity)
    }
}

/// The ledger's invariants, as lists of what is wrong (empty when all hold).
enum LedgerCheck {
    /// Ranges tile the file, leases count sensibly, neighbours are merged, ids are unique, records agree.
    static func invariants(_ ledger: SegmentLedger) -> [String] {
        var issues: [String] = []
        let segments = ledger.segments
        if ledger.total == 0 { return segments.isEmpty ? [] : ["an empty file has ranges"] }
        if segments.first?.start != 0 { issues.append("does not start at 0") }
        if segments.last?.end != ledger.total { issues.append("does not end at the total") }
        for (a, b) in zip(segments, segments.dropFirst()) {
            if a.end != b.start { issues.append("gap or overlap at \(a.end)/\(b.start)") }
            if a.holder == b.holder, a.holder == .free || a.holder == .done { issues.append("unmerged at \(b.start)") }
        }
        var ids = Set<SegmentLease.ID>()
        for segment in segments {
            if segment.length <= 0 { issues.append("empty range at \(segment.start)") }
            guard case .leased(let lease) = segment.holder else { continue }
            if !ids.insert(lease.id).inserted { issues.append("\(lease.id) twice") }
            if !(0...lease.received).contains(lease.committed) || lease.received > segment.length {
                issues.append("\(lease.id): committed \(lease.committed), received \(lease.received), length \(segment.length)")
            }
            if !lease.isConnected, lease.received != segment.length || lease.committed == lease.received {
                issues.append("released \(lease.id) holds more than its uncommitted bytes")
            }
        }
        let rows = ledger.records
        if rows.reduce(0, { $0 + $1.committed }) != ledger.committedBytes { issues.append("records miss committed bytes") }
        for (a, b) in zip(rows, rows.dropFirst()) where a.end > b.start { issues.append("records overlap") }
        for (a, b) in zip(rows, rows.dropFirst()) where a.isComplete && a.end == b.start {
            issues.append("records not merged at \(a.end)")
        }
        if ledger.isComplete != (ledger.committedBytes == ledger.total) { issues.append("isComplete disagrees") }
        return issues
    }

    /// The durable byte ranges that `rows` describe, merged.
    static func durable(_ rows: [SegmentRecord]) -> [Range<Int64>] {
        var ranges: [Range<Int64>] = []
        for row in rows where row.committed > 0 {
            let range = row.start..<(row.start + row.committed)
            if let last = ranges.last, last.upperBound == range.lowerBound {
                ranges[ranges.count - 1] = last.lowerBound..<range.upperBound
            } else {
                ranges.append(range)
            }
        }
        return ranges
    }

    /// No lease that still exists lost received or committed bytes, and no lease's range moved its start.
    static func progressKept(before: SegmentLedger, after: SegmentLedger) -> [String] {
        var issues: [String] = []
        for segment in before.segments {
            guard case .leased(let old) = segment.holder, let now = after.status(of: old.id) else { continue }
            if now.range.lowerBound != segment.start { issues.append("\(old.id) moved its start") }
            if now.received < old.received || now.committed < old.committed { issues.append("\(old.id) lost bytes") }
            if now.range.upperBound < segment.start + old.received { issues.append("\(old.id) shrank below its bytes") }
        }
        return issues
    }

    /// `plan` leased only free bytes, in parts no smaller than `minSplit` unless a whole free range was smaller.
    static func planned(_ leases: [SegmentLease], before: SegmentLedger, minSplit: Int64) -> [String] {
        var issues: [String] = []
        for lease in leases {
            guard let free = before.segments.first(where: {
                $0.holder == .free && $0.start <= lease.range.lowerBound && lease.range.upperBound <= $0.end
            }) else {
                issues.append("planned \(lease.range) outside a free range")
                continue
            }
            if lease.range.count < minSplit, lease.range != free.start..<free.end {
                issues.append("planned \(lease.range), below \(minSplit)")
            }
        }
        return issues
    }

    /// A grant takes a free range whole, or splits a running lease into two parts of at least `minSplit`.
    static func granted(_ grant: SegmentGrant?, before: SegmentLedger, after: SegmentLedger, minSplit: Int64) -> [String] {
        guard let grant else {
            return before.segments.contains { $0.holder == .free } ? ["no grant while a range is free"] : []
        }
        guard let shrink = grant.shrunk else {
            let wasFree = before.segments.contains { $0.holder == .free && $0.start..<$0.end == grant.lease.range }
            return wasFree ? [] : ["granted \(grant.lease.range), not a free range"]
        }
        var issues: [String] = []
        guard let victim = before.status(of: shrink.lease), let shrunk = after.status(of: shrink.lease) else {
            return ["the shrunk lease is unknown"]
        }
        if !victim.isConnected { issues.append("a released lease was split") }
        if shrunk.range.upperBound != shrink.newEnd || grant.lease.range != shrink.newEnd..<victim.range.upperBound {
            issues.append("the split does not add up")
        }
        if Int64(grant.lease.range.count) < minSplit { issues.append("new lease below \(minSplit)") }
        if shrink.newEnd - victim.range.lowerBound < minSplit { issues.append("victim's range below \(minSplit)") }
        if shrink.newEnd <= victim.range.lowerBound + victim.received { issues.append("victim keeps nothing to fetch") }
        if Int64(grant.lease.range.count) * 2 < victim.range.upperBound - victim.range.lowerBound - victim.received - 1 {
            issues.append("the new lease is not the larger half")
        }
        return issues
    }
}

/// SplitMix64 as a `RandomNumberGenerator`, so every run of a seed is the same.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed &* 0x2545_F491_4F6C_DD1D }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
