import HaulCore
import Testing
@testable import HaulTransfer

/// The overall cap shared by max-min fairness: a task gets the smaller of its cap and its fair share, and what
/// a capped or slower task leaves goes to the others.
struct FairShareTests {
    static let mib: Int64 = 1 << 20

    func shares(_ total: Int64, _ claims: [FairShare.Claim]) -> [Int64] {
        let share = FairShare(total: total, claims: claims)
        return claims.map { share.allocations[$0.id] ?? -1 }
    }

    @Test func twoTasksWithoutCapsSplitEvenly() {
        #expect(shares(3 * Self.mib, [.init(TaskID(1)), .init(TaskID(2))]) == [3 * Self.mib / 2, 3 * Self.mib / 2])
    }

    @Test func threeTasksOneCappedBelowItsShareGetsItsCapAndTheOthersTheRest() {
        // The case: 3M overall, task 3 capped at 1M (exactly the equal share) and then at 512K.
        let even = shares(3 * Self.mib, [.init(TaskID(1)), .init(TaskID(2)), .init(TaskID(3), cap: Self.mib)])
        #expect(even == [Self.mib, Self.mib, Self.mib])
        let low = shares(3 * Self.mib, [.init(TaskID(1)), .init(TaskID(2)), .init(TaskID(3), cap: Self.mib / 2)])
        #expect(low == [5 * Self.mib / 4, 5 * Self.mib / 4, Self.mib / 2])
    }

    @Test func aCapAboveTheFairShareGetsTheFairShare() {
        let result = shares(3 * Self.mib, [.init(TaskID(1), cap: 2 * Self.mib), .init(TaskID(2)), .init(TaskID(3))])
        #expect(result == [Self.mib, Self.mib, Self.mib])
    }

    @Test func eightTasksWithMixedCapsAndSlowServers() {
        let claims: [FairShare.Claim] = [
            .init(TaskID(1), cap: 100 << 10),
            .init(TaskID(2), cap: 300 << 10),
            .init(TaskID(3), demand: 200 << 10),
            .init(TaskID(4), cap: 5 * Self.mib),
            .init(TaskID(5)),
            .init(TaskID(6)),
            .init(TaskID(7), cap: 2 * Self.mib, demand: 50 << 10),
            .init(TaskID(8)),
        ]
        let total = 8 * Self.mib
        let result = shares(total, claims)
        // The slow ones get what they used and room to grow: 200K + 40K, 50K + 16K.
        let slow3 = FairShare.grown(200 << 10), slow7 = FairShare.grown(50 << 10)
        #expect(slow3 == 240 << 10 && slow7 == 66 << 10)
        // 100K + 300K and the slow ones leave the rest to four unbounded tasks (task 4's 5M cap is above that share).
        let rest = (total - (400 << 10) - slow3 - slow7) / 4
        #expect(result == [100 << 10, 300 << 10, slow3, rest, rest, rest, slow7, rest])
        #expect(result.reduce(0, +) == total)
    }

    @Test func theSumIsExactAndNeverAboveTheTotal() {
        for count in [2, 3, 7, 8] {
            let claims = (1...count).map { FairShare.Claim(TaskID(Int64($0))) }
            let result = shares(1_000_003, claims)
            #expect(result.reduce(0, +) == 1_000_003, "\(count) tasks")
            #expect(result.max()! - result.min()! <= 1, "\(count) tasks: \(result)")
        }
    }

    @Test func everyTaskBelowItsCeilingLeavesTheRestUnallocated() {
        // Both are slow: each gets what it can use (the slow one with room to grow); the rest of the cap stays
        // unused, not forced on them.
        let result = shares(10 * Self.mib, [.init(TaskID(1), demand: Self.mib), .init(TaskID(2), cap: 2 * Self.mib)])
        #expect(result == [FairShare.grown(Self.mib), 2 * Self.mib])
    }

    @Test func aTinyTotalStillGivesEveryTaskAByte() {
        #expect(shares(1, [.init(TaskID(1)), .init(TaskID(2)), .init(TaskID(3))]).allSatisfy { $0 >= 1 })
    }

    @Test func demandIsUnboundedWhenATaskUsesItsShare() {
        #expect(FairShare.demand(rate: Double(Self.mib), paced: Self.mib) == nil)
        #expect(FairShare.demand(rate: Double(Self.mib) * 0.95, paced: Self.mib) == nil)
        // Slower than its pace: what it used, at least the smallest demand.
        #expect(FairShare.demand(rate: 400_000, paced: Self.mib) == 400_000)
        #expect(FairShare.demand(rate: 0, paced: Self.mib) == FairShare.smallestDemand)
    }

    @Test func aTaskHeldByItsDemandGetsRoomToGrowWithinItsCap() {
        let share = FairShare(total: 3 * Self.mib, claims: [
            .init(TaskID(1), demand: 400 << 10), .init(TaskID(2), cap: 420 << 10, demand: 400 << 10), .init(TaskID(3)),
        ])
        #expect(share.allocations[TaskID(1)] == 480 << 10)
        // Room to grow, but never past its own cap.
        #expect(share.allocations[TaskID(2)] == 420 << 10)
        // The unbounded task gets the whole rest: the sum is the total, so the overall bucket does not pick.
        #expect(share.allocations[TaskID(3)] == 3 * Self.mib - (900 << 10))
    }

    /// Shares again and again as the engine does: each task receives the smaller of its allocation and what its
    /// server can send, and the next sharing uses the demand that showed.
    func settle(total: Int64, caps: [Int64?], servers: [Int64?], rounds: Int = 12, demands: [Int64?]? = nil) -> [Int64] {
        var claims = caps.indices.map { FairShare.Claim(TaskID(Int64($0 + 1)), cap: caps[$0], demand: demands?[$0]) }
        var allocations: [Int64] = []
        for _ in 0..<rounds {
            let share = FairShare(total: total, claims: claims)
            allocations = claims.map { share.allocations[$0.id]! }
            for index in claims.indices {
                let received = min(allocations[index], servers[index] ?? .max)
                claims[index].demand = FairShare.demand(rate: Double(received), paced: allocations[index])
            }
        }
        return claims.indices.map { min(allocations[$0], servers[$0] ?? .max) }
    }

    @Test func slowerServersLeaveTheirShareToTheOthersOverAFewSharings() {
        // 3M over 3: task 1's server manages only 300K, so tasks 2 and 3 take the rest but its room to grow.
        let three = settle(total: 3 * Self.mib, caps: [nil, nil, nil], servers: [300 << 10, nil, nil])
        #expect(three[0] == 300 << 10)
        #expect(three[1...].allSatisfy { $0 == (3 * Self.mib - FairShare.grown(300 << 10)) / 2 }, "\(three)")
        // 8M over 8 with caps and slow servers: the unbounded ones equal, the cap in use but the slow ones' room.
        let eight = settle(
            total: 8 * Self.mib, caps: [Self.mib / 2, nil, nil, nil, 3 * Self.mib, nil, nil, nil],
            servers: [nil, 256 << 10, nil, nil, nil, Self.mib / 4, nil, nil])
        #expect(eight[0] == Self.mib / 2)
        #expect(eight[1] == 256 << 10)
        #expect(eight[5] == Self.mib / 4)
        let fast = [eight[2], eight[3], eight[4], eight[6], eight[7]]
        #expect(fast.max()! - fast.min()! <= 1, "\(eight)")
        let room = 2 * (FairShare.grown(256 << 10) - (256 << 10))
        #expect(eight.reduce(0, +) == 8 * Self.mib - room, "\(eight)")
        // Under 2 %: the price of noticing that a slow task got faster.
        #expect(Double(room) < 0.02 * Double(8 * Self.mib))
    }

    @Test func aTaskHeldBelowItsShareByTheOthersIsNotMistakenForASlowOne() {
        // Judged slow at 800K (it was connecting, or held), but its server is fast: it takes all it is given, so
        // within two sharings it is unbounded and gets its third again.
        let settled = settle(total: 3 * Self.mib, caps: [nil, nil, nil], servers: [nil, nil, nil], rounds: 3, demands: [nil, nil, 800 << 10])
        #expect(settled == [Self.mib, Self.mib, Self.mib])
    }

    @Test func aSlowTaskThatSpeedsUpGetsItsShareBack() {
        var claims = [FairShare.Claim(TaskID(1), demand: 100 << 10), FairShare.Claim(TaskID(2))]
        var allocation: Int64 = 0
        // Its server is fast now: each sharing it uses all it is given, so its demand grows until unbounded.
        for _ in 0..<3 {
            allocation = FairShare(total: 2 * Self.mib, claims: claims).allocations[TaskID(1)]!
            claims[0].demand = FairShare.demand(rate: Double(allocation), paced: allocation)
        }
        allocation = FairShare(total: 2 * Self.mib, claims: claims).allocations[TaskID(1)]!
        #expect(allocation == Self.mib)
    }
}
