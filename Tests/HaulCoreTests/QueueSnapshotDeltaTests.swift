import Foundation
import Testing
import HaulCore

/// What an attached list receives instead of every row: the rows that changed, the order when it changed.
@Suite struct QueueSnapshotDeltaTests {
    func row(_ id: Int64, _ state: TaskState = .waiting, done: Int64 = 0) -> QueueSnapshot.Row {
        let task = DownloadTask(
            id: TaskID(id), url: "http://127.0.0.1/f\(id).bin", directory: "/tmp", state: state, position: id,
            bytesDone: done, createdAt: Date(timeIntervalSince1970: 1_800_000_000))
        return QueueSnapshot.Row(task: task, bytesReceived: done)
    }

    func snapshot(_ rows: [QueueSnapshot.Row], sequence: UInt64, limit: Int64? = nil) -> QueueSnapshot {
        QueueSnapshot(rows: rows, maxConcurrent: 3, totalSpeed: nil, sequence: sequence, overallLimit: limit.flatMap(RateLimit.init(bytesPerSecond:)))
    }

    @Test func onlyChangedRowsTravelWhenTheOrderStays() throws {
        let old = snapshot((1...1000).map { row($0) }, sequence: 7)
        var rows = old.rows
        rows[4] = row(5, .running, done: 100)
        let new = snapshot(rows, sequence: 9, limit: 1 << 20)
        let delta = QueueSnapshotDelta(from: old, to: new)
        #expect(delta.order == nil)
        #expect(delta.rows.map(\.id) == [TaskID(5)])
        #expect(delta.base == 7 && delta.sequence == 9)
        let rebuilt = try #require(delta.applied(to: old))
        #expect(rebuilt == new)
        #expect(rebuilt.count(of: .running) == 1)
    }

    @Test func withAnIndexOnlyTheChangedRowsAreTouchedAndTheResultIsTheSame() throws {
        let old = snapshot((1...1000).map { row($0, $0 == 5 ? .running : .waiting) }, sequence: 7)
        let index = Dictionary(uniqueKeysWithValues: old.rows.enumerated().map { ($1.id, $0) })
        var rows = old.rows
        rows[4] = row(5, .running, done: 4096)
        let figures = snapshot(rows, sequence: 8)
        let delta = QueueSnapshotDelta(from: old, to: figures)
        #expect(delta.applied(to: old, index: index) == figures)
        #expect(delta.applied(to: old, index: index)?.count(of: .running) == 1)
        // A row that changes state is counted again: the same result as without an index.
        rows[6] = row(7, .paused)
        let paused = snapshot(rows, sequence: 9)
        let stateChange = QueueSnapshotDelta(from: old, to: paused)
        #expect(stateChange.applied(to: old, index: index) == paused)
        #expect(stateChange.applied(to: old, index: index)?.count(of: .paused) == 1)
    }

    @Test func updateRowRefusesAnotherTaskOrAnotherState() {
        var snapshot = snapshot([row(1), row(2, .running)], sequence: 1)
        let updated = snapshot.updateRow(at: 1, with: row(2, .running, done: 10))
        #expect(updated && snapshot.rows[1].bytesReceived == 10)
        let otherTask = snapshot.updateRow(at: 0, with: row(2, .running))
        let otherState = snapshot.updateRow(at: 0, with: row(1, .paused))
        let outside = snapshot.updateRow(at: 5, with: row(1))
        #expect(!otherTask && !otherState && !outside)
        #expect(snapshot.count(of: .running) == 1 && snapshot.count(of: .waiting) == 1)
    }

    @Test func patchedRowsKeepTheirEpochAndAreNamedRowsMadeWholeStartAnother() throws {
        var snapshot = snapshot((1...100).map { row($0, $0 == 5 ? .running : .waiting) }, sequence: 1)
        let epoch = snapshot.revision.epoch
        let updated = snapshot.updateRow(at: 4, with: row(5, .running, done: 10))
        #expect(updated)
        #expect(snapshot.revision.epoch == epoch && snapshot.revision.patched == [4])
        var grouped = row(5, .running, done: 20)
        grouped.task.group = "links.txt"
        let regrouped = snapshot.updateRow(at: 4, with: grouped)
        #expect(!regrouped, "another group is another layout: the rows are made whole")
        // An attached list's mirror patches the same way.
        let index = Dictionary(uniqueKeysWithValues: snapshot.rows.enumerated().map { ($1.id, $0) })
        var rows = snapshot.rows
        rows[4] = row(5, .running, done: 30)
        let next = try #require(QueueSnapshotDelta(from: snapshot, to: self.snapshot(rows, sequence: 2)).applied(to: snapshot, index: index))
        #expect(next.revision.epoch == epoch && next.revision.patched == [4])
        // Between two snapshots of the same rows, only the patched ones are compared, and only those that differ travel.
        var later = next
        let again = later.updateRow(at: 4, with: row(5, .running, done: 40))
        #expect(again)
        later.sequence = 3
        let patchedOnly = QueueSnapshotDelta(from: next, to: later)
        #expect(patchedOnly.order == nil && patchedOnly.rows.map(\.bytesReceived) == [40])
        #expect(patchedOnly.applied(to: next, index: index) == later)
        #expect(QueueSnapshotDelta(from: later, to: later).rows.isEmpty)
        snapshot.rows = rows
        #expect(snapshot.revision.epoch != epoch && snapshot.revision.patched.isEmpty)
        #expect(snapshot == self.snapshot(rows, sequence: 1), "how the rows were made is not what they are")
    }

    @Test func addedRemovedAndMovedRowsCarryTheNewOrder() throws {
        let old = snapshot([row(1), row(2), row(3)], sequence: 1)
        let new = snapshot([row(3), row(1, .paused), row(4)], sequence: 2)
        let delta = QueueSnapshotDelta(from: old, to: new)
        #expect(delta.order == [TaskID(3), TaskID(1), TaskID(4)])
        #expect(delta.rows.map(\.id) == [TaskID(1), TaskID(4)])
        #expect(delta.applied(to: old) == new)
    }

    @Test func aDeltaForAnotherBaseIsRefused() {
        let old = snapshot([row(1)], sequence: 1)
        let new = snapshot([row(1, .running)], sequence: 2)
        let delta = QueueSnapshotDelta(from: old, to: new)
        #expect(delta.applied(to: snapshot([row(1)], sequence: 5)) == nil)
        // A base that lacks a row the order names cannot be completed either.
        var lying = delta
        lying.order = [TaskID(1), TaskID(9)]
        #expect(lying.applied(to: old) == nil)
    }

    @Test func theDeltaSurvivesJSON() throws {
        let old = snapshot([row(1), row(2)], sequence: 1)
        let new = snapshot([row(2), row(1, .running, done: 5)], sequence: 3)
        let delta = QueueSnapshotDelta(from: old, to: new)
        let decoded = try JSONDecoder().decode(QueueSnapshotDelta.self, from: JSONEncoder().encode(delta))
        #expect(decoded.applied(to: old) == new)
    }
}
