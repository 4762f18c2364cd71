import HaulCore

/// How the overall cap (`--max-overall-download-limit`) is shared among the running tasks: max-min fairness
/// (water-filling). Each task gets the smaller of its ceiling and an equal share of what the tasks below their
/// ceilings leave; what a capped or slower task cannot use goes to the others. A pure value: the engine's
/// `BandwidthBudget` paces each task's bucket at its allocation, and the overall bucket stays the ceiling.
struct FairShare: Equatable {
    /// One running task's claim on the overall cap.
    struct Claim: Equatable {
        let id: TaskID
        /// The task's own cap (`--limit-rate`), nil when it has none.
        var cap: Int64?
        /// What the task showed it can use (`demand(rate:paced:)`), nil when it would take whatever it is given.
        var demand: Int64?

        init(_ id: TaskID, cap: Int64? = nil, demand: Int64? = nil) {
            self.id = id
            self.cap = cap
            self.demand = demand
        }

        /// The most this task should get: the smaller of its cap and its demand with room to grow
        /// (`grown(_:)`), nil when neither bounds it.
        var ceiling: Int64? {
            switch (cap, demand.map(FairShare.grown)) {
            case let (cap?, grown?): min(cap, grown)
            case let (cap?, nil): cap
            case let (nil, grown?): grown
            case (nil, nil): nil
            }
        }
    }

    /// Bytes a second for each task, the rate its bucket is paced at; their sum never exceeds the total, so the
    /// overall bucket does not pick among tasks (where it did, a task held below its pace by the others looked slow
    /// and stayed there).
    let allocations: [TaskID: Int64]

    /// Shares `total` bytes a second among `claims`: the claims with the lowest ceilings are served first, each
    /// getting its ceiling when that is below an equal share of what is left, and the rest split what remains
    /// equally (the remainder's odd bytes go to the first ones, so the sum is exact). Every task gets at least one
    /// byte a second: a bucket has no zero rate.
    init(total: Int64, claims: [Claim]) {
        var allocations: [TaskID: Int64] = [:]
        var left = max(0, total)
        // Unbounded claims last; among bounded ones, the lowest ceiling first; ties in the order given.
        let order = claims.indices.sorted { a, b in
            switch (claims[a].ceiling, claims[b].ceiling) {
            case let (x?, y?): (x, a) < (y, b)
            case (_?, nil): true
            case (nil, _?): false
            case (nil, nil): a < b
            }
        }
        var remaining = order.count
        for (rank, index) in order.enumerated() {
            let claim = claims[index]
            let share = left / Int64(remaining)
            if let ceiling = claim.ceiling, ceiling <= share {
                allocations[claim.id] = max(1, ceiling)
                left -= max(0, ceiling)
                remaining -= 1
                continue
            }
            // Every claim from here on has a ceiling above the equal share: all of them get it.
            let rest = order[rank...]
            let extra = left - share * Int64(rest.count)
            for (offset, index) in rest.enumerated() {
                allocations[claims[index].id] = max(1, share + (Int64(offset) < extra ? 1 : 0))
            }
            break
        }
        self.allocations = allocations
    }

    /// What a task that used `demand` may grow into before the next sharing: a fifth more, at least
    /// `smallestDemand` more. Taken from the total like any allocation: its unused part is the price of noticing
    /// that the task can go faster.
    static func grown(_ demand: Int64) -> Int64 {
        demand + max(smallestDemand, Int64(Double(demand) * headroom))
    }

    /// The part of its pace above which a task counts as using all it was given: its pacing, not its server,
    /// held it.
    static let fullUse = 0.9
    /// The part of its demand a task may grow by before the next sharing (`grown(_:)`).
    static let headroom = 0.2
    /// The least demand a task is given, and the least headroom, so one that is connecting is not shut out.
    static let smallestDemand: Int64 = 16 << 10

    /// The demand of a task that received `rate` bytes a second while its bucket was paced at `paced`: nil (it
    /// would take more) when it used nearly all of it, else what it received.
    static func demand(rate: Double, paced: Int64) -> Int64? {
        guard rate < Double(paced) * fullUse else { return nil }
        return max(smallestDemand, Int64(rate))
    }
}
