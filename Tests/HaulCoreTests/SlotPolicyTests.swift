import Testing
@testable import HaulCore

@Suite struct SlotPolicyTests {
    typealias Row = (id: TaskID, state: TaskState, position: Int64)
    let now = ContinuousClock.now

    func row(_ id: Int64, _ state: TaskState, _ position: Int64) -> Row { (TaskID(id), state, position) }

    /// Calls the policy as the controller does: positions of the waiting tasks and the running count.
    func start(_ rows: [Row], max: Int, backingOff: [TaskID: ContinuousClock.Instant] = [:]) -> [Int64] {
        var waiting: [TaskID: Int64] = [:]
        for row in rows where row.state == .waiting { waiting[row.id] = row.position }
        let running = rows.filter { $0.state == .running }.count
        return SlotPolicy.tasksToStart(waiting: waiting, running: running, maxRunning: max, backingOff: backingOff, now: now)
            .map(\.rawValue)
    }

    @Test func fillsFreeSlotsInQueueOrder() {
        let rows = [row(1, .waiting, 30), row(2, .waiting, 10), row(3, .waiting, 20), row(4, .waiting, 40)]
        #expect(start(rows, max: 3) == [2, 3, 1])
    }

    @Test func countsRunningTasksAgainstTheLimit() {
        let rows = [row(1, .running, 1), row(2, .running, 2), row(3, .waiting, 3), row(4, .waiting, 4)]
        #expect(start(rows, max: 3) == [3])
        #expect(start(rows, max: 2) == [])
        #expect(start(rows, max: 4) == [3, 4])
    }

    @Test func nothingWhenOverTheLimitAfterItWasLowered() {
        let rows = [row(1, .running, 1), row(2, .running, 2), row(3, .running, 3), row(4, .waiting, 4)]
        #expect(start(rows, max: 1) == [])
        #expect(start(rows, max: 0) == [])
        #expect(start(rows, max: -1) == [])
    }

    @Test func onlyWaitingTasksStart() {
        let rows = [
            row(1, .paused, 1), row(2, .failed, 2), row(3, .completed, 3), row(4, .waiting, 4), row(5, .paused, 5),
            row(6, .waiting, 6),
        ]
        #expect(start(rows, max: 5) == [4, 6])
    }

    @Test func backingOffTasksAreSkippedAndOthersTakeTheirSlot() {
        let rows = [row(1, .waiting, 1), row(2, .waiting, 2), row(3, .waiting, 3)]
        let backingOff = [TaskID(1): now + .seconds(30)]
        #expect(start(rows, max: 1, backingOff: backingOff) == [2])
        #expect(start(rows, max: 3, backingOff: backingOff) == [2, 3])
    }

    @Test func backOffThatHasExpiredNoLongerBlocks() {
        let rows = [row(1, .waiting, 1), row(2, .waiting, 2)]
        #expect(start(rows, max: 1, backingOff: [TaskID(1): now - .seconds(1)]) == [1])
        #expect(start(rows, max: 1, backingOff: [TaskID(1): now]) == [1])
    }

    @Test func tiesInPositionGoByID() {
        let rows = [row(9, .waiting, 5), row(3, .waiting, 5), row(7, .waiting, 1)]
        #expect(start(rows, max: 3) == [7, 3, 9])
    }

    @Test func emptyQueue() {
        #expect(start([], max: 3) == [])
    }
}
