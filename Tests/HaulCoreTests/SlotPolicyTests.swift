import Testing
@testable import HaulCore

@Suite struct SlotPolicyTests {
    let now = ContinuousClock.now

    /// Waiting tasks as (id, position), none of which may preempt unless listed in `preempting`.
    func plan(
        waiting: [(Int64, Int64)], running: [(Int64, Int64)] = [], max: Int, preempting: Set<Int64> = [],
        backingOff: [TaskID: ContinuousClock.Instant] = [:]
    ) -> (start: [Int64], requeue: [Int64]) {
        var line = WaitingLine()
        for (id, position) in waiting {
            line.insert(TaskID(id), SlotPolicy.Waiting(position: position, mayPreempt: preempting.contains(id)))
        }
        var runningByID: [TaskID: Int64] = [:]
        for (id, position) in running { runningByID[TaskID(id)] = position }
        let plan = SlotPolicy.plan(
            waiting: line.inOrder(), running: runningByID, maxRunning: max, backingOff: backingOff, now: now)
        return (plan.start.map(\.rawValue), plan.requeue.map(\.rawValue))
    }

    @Test func fillsFreeSlotsInQueueOrder() {
        #expect(plan(waiting: [(1, 30), (2, 10), (3, 20), (4, 40)], max: 3).start == [2, 3, 1])
    }

    @Test func countsRunningTasksAgainstTheLimit() {
        let running: [(Int64, Int64)] = [(1, 1), (2, 2)]
        #expect(plan(waiting: [(3, 3), (4, 4)], running: running, max: 3).start == [3])
        #expect(plan(waiting: [(3, 3), (4, 4)], running: running, max: 2).start == [])
        #expect(plan(waiting: [(3, 3), (4, 4)], running: running, max: 4).start == [3, 4])
    }

    @Test func aLoweredLimitRequeuesTheLastRunningTasks() {
        let running: [(Int64, Int64)] = [(1, 1), (2, 2), (3, 3)]
        let lowered = plan(waiting: [(4, 4)], running: running, max: 1)
        #expect(lowered.start == [])
        #expect(Set(lowered.requeue) == [2, 3])
        #expect(Set(plan(waiting: [], running: running, max: 0).requeue) == [1, 2, 3])
        #expect(plan(waiting: [], running: running, max: -1).start == [])
    }

    @Test func backingOffTasksAreSkippedAndOthersTakeTheirSlot() {
        let backingOff = [TaskID(1): now + .seconds(30)]
        #expect(plan(waiting: [(1, 1), (2, 2), (3, 3)], max: 1, backingOff: backingOff).start == [2])
        #expect(plan(waiting: [(1, 1), (2, 2), (3, 3)], max: 3, backingOff: backingOff).start == [2, 3])
    }

    @Test func backOffThatHasExpiredNoLongerBlocks() {
        #expect(plan(waiting: [(1, 1), (2, 2)], max: 1, backingOff: [TaskID(1): now - .seconds(1)]).start == [1])
        #expect(plan(waiting: [(1, 1), (2, 2)], max: 1, backingOff: [TaskID(1): now]).start == [1])
    }

    @Test func tiesInPositionGoByID() {
        #expect(plan(waiting: [(9, 5), (3, 5), (7, 1)], max: 3).start == [7, 3, 9])
    }

    @Test func emptyQueue() {
        #expect(plan(waiting: [], max: 3).start == [])
    }

    @Test func aResumedTaskTakesTheSlotOfALaterRunningTask() {
        // Task 1 was resumed while 4 took its slot: queue order decides, 4 goes back in line.
        let result = plan(waiting: [(1, 1), (5, 5)], running: [(2, 2), (3, 3), (4, 4)], max: 3, preempting: [1, 5])
        #expect(result.start == [1])
        #expect(result.requeue == [4])
    }

    @Test func oneSlot() {
        let result = plan(waiting: [(1, 1)], running: [(2, 2)], max: 1, preempting: [1])
        #expect(result.start == [1])
        #expect(result.requeue == [2])
    }

    @Test func aPreemptingTaskNeverDisplacesEarlierOnes() {
        let result = plan(waiting: [(5, 5)], running: [(2, 2), (3, 3), (4, 4)], max: 3, preempting: [5])
        #expect(result.start == [])
        #expect(result.requeue == [])
    }

    @Test func aRetryOnlyFillsFreeSlots() {
        // Task 1 comes back from a back-off: it waits for a free slot rather than stopping healthy transfers.
        let result = plan(waiting: [(1, 1)], running: [(2, 2), (3, 3), (4, 4)], max: 3)
        #expect(result.start == [])
        #expect(result.requeue == [])
    }

    @Test func severalPreemptionsTakeTheLatestSlotsFirst() {
        let result = plan(
            waiting: [(1, 1), (2, 2)], running: [(3, 3), (4, 4), (5, 5)], max: 3, preempting: [1, 2])
        #expect(result.start == [1, 2])
        #expect(result.requeue == [5, 4])
    }

    @Test func freeSlotsBeforePreemption() {
        let result = plan(waiting: [(1, 1), (2, 2)], running: [(3, 3)], max: 2, preempting: [1, 2])
        #expect(result.start == [1, 2])
        #expect(result.requeue == [3])
    }
}
