import Testing
@testable import HaulCore

/// The waiting tasks in queue order (`WaitingLine`), and the slot policy reading only its front.
@Suite struct WaitingLineTests {
    let now = ContinuousClock.now

    func waiting(_ position: Int64, preempts: Bool = false) -> SlotPolicy.Waiting {
        SlotPolicy.Waiting(position: position, mayPreempt: preempts)
    }

    func order(_ line: WaitingLine) -> [Int64] {
        var line = line
        return line.inOrder().map(\.id.rawValue)
    }

    @Test func keepsQueueOrderWhereverTasksComeAndGo() {
        var line = WaitingLine()
        for (id, position) in [(1, 10), (2, 30), (3, 20), (4, 20), (5, 5)] as [(Int64, Int64)] {
            line.insert(TaskID(id), waiting(position))
        }
        #expect(order(line) == [5, 1, 3, 4, 2], "by position, then id")
        line.remove(TaskID(5))
        line.remove(TaskID(3))
        line.remove(TaskID(9))
        #expect(order(line) == [1, 4, 2])
        line.insert(TaskID(2), waiting(1))
        #expect(order(line) == [2, 1, 4], "moved up")
        #expect(order(line).count == 3)
        for id in [2, 1, 4] as [Int64] { line.remove(TaskID(id)) }
        #expect(line.isEmpty && order(line).isEmpty)
        line.insert(TaskID(7), waiting(70))
        #expect(order(line) == [7])
    }

    @Test func takingFromTheFrontOfALongLineKeepsItsOrder() {
        var line = WaitingLine()
        for id in 1...5_000 as ClosedRange<Int64> { line.insert(TaskID(id), waiting(id)) }
        for id in 1...4_000 as ClosedRange<Int64> { line.remove(TaskID(id)) }
        line.insert(TaskID(9_000), waiting(4_500))
        #expect(order(line).count == 1_001)
        #expect(Array(order(line).prefix(3)) == [4_001, 4_002, 4_003])
        #expect(order(line).filter { $0 > 5_000 } == [9_000])
        #expect(order(line) == order(line).sorted { lhs, rhs in
            (lhs == 9_000 ? 4_500 : lhs, lhs) < (rhs == 9_000 ? 4_500 : rhs, rhs)
        })
    }

    /// A command for every task: half the line leaves in an order unlike the queue's and comes back, some at new
    /// places, some at their old ones (an entry left behind is live again, never twice).
    @Test func tasksLeavingAndComingInBulkKeepTheOrderAndEachTaskOnce() {
        var line = WaitingLine()
        for id in 1...10_000 as ClosedRange<Int64> { line.insert(TaskID(id), waiting(id)) }
        let leaving = (1...10_000).filter { $0 % 2 == 0 }.reversed()
        for id in leaving { line.remove(TaskID(Int64(id))) }
        #expect(order(line) == (1...10_000).filter { $0 % 2 == 1 }.map(Int64.init))
        for id in leaving { line.insert(TaskID(Int64(id)), waiting(id % 4 == 0 ? Int64(id) : 20_000 + Int64(id))) }
        let expected = (1...10_000).filter { $0 % 4 != 2 }.map(Int64.init) + (1...10_000).filter { $0 % 4 == 2 }.map(Int64.init)
        #expect(order(line) == expected)
        // A few at a time take their places one by one, leaving nothing behind twice.
        for id in [4, 8, 12] as [Int64] {
            line.remove(TaskID(id))
            line.insert(TaskID(id), waiting(id))
        }
        #expect(order(line) == expected)
    }

    /// After every event the controller asks which task starts next: with 100,000 waiting and no slot for a task
    /// behind the running ones, the policy reads the first few, not the queue.
    @Test func thePolicyReadsOnlyTheFrontOfTheLine() {
        var line = WaitingLine()
        for id in 1...100_000 as ClosedRange<Int64> { line.insert(TaskID(id), waiting(id + 100)) }
        var read = 0
        let counted = line.inOrder().lazy.map { entry in read += 1; return entry }
        let plan = SlotPolicy.plan(
            waiting: counted, running: [TaskID(1_000_001): 1, TaskID(1_000_002): 2], maxRunning: 3, backingOff: [:],
            now: now)
        #expect(plan.start == [TaskID(1)])
        #expect(read <= 2, "\(read) waiting tasks read for one free slot")
        read = 0
        let none = SlotPolicy.plan(
            waiting: counted, running: [TaskID(1_000_001): 1, TaskID(1_000_002): 2], maxRunning: 2, backingOff: [:],
            now: now)
        #expect(none == SlotPolicy.Plan())
        #expect(read <= 1, "\(read) waiting tasks read with no slot free")
    }
}
