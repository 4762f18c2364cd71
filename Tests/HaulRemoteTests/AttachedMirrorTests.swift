import Foundation
import HaulCore
import HaulTestSupport
import Testing
@testable import HaulRemote

/// The attached list's mirror of a running haul (issue 29: 100,000 tasks as one snapshot answer took the list 7.7 s
/// and 307 MiB): its first snapshot comes a page at a time, each row once, and later only the rows that changed. The
/// client takes no answer above `answerLimit`, far below the queue's JSON, so an answer that held the queue fails.
extension RowsPageTests {
    static let mirrorPage = 500

    @Test func anAttachedListReadsTheQueueInPagesThenOnlyTheRowsThatChange() async throws {
        try await serving { controller, dispatcher, client in
            #expect(dispatcher.haul.history.count == 0)
            let first = try #require(try await client.firstPage(limit: 100))
            #expect(first.count == 100 && first.total == Self.count && !first.isWhole)
            // The owner keeps the snapshot its first page came from, for the list's next answer: a delta from it.
            #expect(dispatcher.haul.history.count == 1)
            let remote = RemoteQueue(client: client, first: first, ownerProcessID: 42, pageSize: Self.mirrorPage)
            defer { remote.close() }
            try await eventually("every row read", timeout: .seconds(20)) {
                let shown = remote.snapshots.read()
                return shown.rows.count == Self.count && shown.warning == nil
            }
            #expect(remote.snapshots.read().rows.map(\.id) == box.read().rows.map(\.id))
            let whole = remote.rowsReceived
            #expect(whole == Self.count, "each row decoded once")
            await controller.perform(.pause(TaskID(7)))
            try await eventually("the pause shown", timeout: .seconds(10)) {
                remote.snapshots.read().rows.first { $0.id == TaskID(7) }?.task.state == .paused
            }
            // The running task's figures may come again once a second meanwhile; the queue does not.
            #expect(remote.rowsReceived - whole <= 10, "\(remote.rowsReceived - whole) rows for one pause")
            #expect(remote.loss == nil)
        }
    }

    @Test func aChangeOfMoreRowsThanAPageIsReadAgainInPages() async throws {
        try await serving { controller, _, client in
            let first = try #require(try await client.firstPage(limit: Self.mirrorPage))
            let remote = RemoteQueue(client: client, first: first, ownerProcessID: 42, pageSize: Self.mirrorPage)
            defer { remote.close() }
            try await eventually("every row read", timeout: .seconds(20)) { remote.snapshots.read().rows.count == Self.count }
            let whole = remote.rowsReceived
            // Every task changes: as one delta that is the queue's JSON again (over the client's bound); in pages it is not.
            await controller.perform(.pauseAll)
            try await eventually("every task shown paused", timeout: .seconds(20)) {
                remote.snapshots.read().rows.allSatisfy { $0.task.state == .paused }
            }
            #expect(remote.snapshots.read().rows.count == Self.count && remote.loss == nil)
            #expect(remote.rowsReceived - whole >= Self.count, "the queue read again")
            #expect(remote.rowsReceived - whole <= Self.count + 10)
        }
    }
}

/// What the attached list is shown: every change under a sequence of its own, the list's, since the list takes a
/// snapshot with the sequence it drew as one it drew (more rows of one owner's snapshot, a banner, a restarted owner).
@Suite struct MirrorStateTests {
    @Test func eachSnapshotShownHasANewSequenceThoughTheOwnersIsTheSame() {
        var state = RemoteQueue.MirrorState(current: QueueSnapshot(sequence: 40))
        let first = state.shown()
        state.current = QueueSnapshot(rows: SnapshotAssemblyTests.queue.rows, sequence: 40)
        let more = state.shown()
        let lost = state.setLoss(.suspended(pid: 7))
        #expect(first.sequence < more.sequence && more.sequence < (lost?.sequence ?? 0))
        #expect(lost?.warning == OwnerLoss.suspended(pid: 7).message && lost?.rows.count == SnapshotAssemblyTests.count)
        #expect(state.setLoss(.suspended(pid: 7)) == nil, "no change, nothing to show")
        // A restarted owner counts from 1 again: the list's sequence still goes up.
        state.current = QueueSnapshot(sequence: 1)
        #expect(state.shown().sequence > (lost?.sequence ?? .max))
    }

    @Test func aDeltaIsPlacedByTheRowsItBringsNotByAnIndexOfEveryTask() {
        let queue = SnapshotAssemblyTests.queue
        var stranger = queue.rows[0]
        stranger.task.id = TaskID(99)
        let index = RemoteQueue.index(of: [queue.rows[8], queue.rows[3], stranger], in: queue)
        #expect(index == [TaskID(9): 8, TaskID(4): 3], "the delta's tasks only; one not in the queue has no place")
        #expect(RemoteQueue.index(of: [], in: queue).isEmpty)
        // The running task's row, found among the running rows.
        #expect(RemoteQueue.index(of: [queue.rows[1]], in: queue) == [TaskID(2): 1])
    }
}
