import Foundation
import HaulCore
import Testing
@testable import HaulTUI

/// A download over several connections: its row shows how many, its details the durable layout.
@Suite struct ConnectionsTests {
    func snapshot(connections: Int, segments: [SegmentRecord] = []) -> QueueSnapshot {
        var row = TestQueue.row(1, "ubuntu-24.04.iso", .running, done: 40 * TestQueue.mib, total: 100 * TestQueue.mib, speed: 16 * Double(TestQueue.mib), eta: 4)
        row.connections = connections
        row.task.segments = segments
        return QueueSnapshot(rows: [row], maxConcurrent: 3, totalSpeed: 16 * Double(TestQueue.mib), sequence: 1)
    }

    @Test func aRowShowsItsConnectionCountWithoutMovingTheColumns() {
        let several = TestQueue.screen(snapshot(connections: 4), width: 100).lines()
        let one = TestQueue.screen(snapshot(connections: 1), width: 100).lines()
        let line = several.first { $0.contains("ubuntu") } ?? ""
        #expect(line.contains("ubuntu-24.04.iso"))
        #expect(line.contains("×4"))
        #expect(!(one.first { $0.contains("ubuntu") } ?? "").contains("×"))
        // Everything right of the name stays where it was.
        let single = one.first { $0.contains("ubuntu") } ?? ""
        #expect(line.suffix(60) == single.suffix(60))
    }

    @Test func detailsShowConnectionsAndTheSavedLayout() {
        let mib = TestQueue.mib
        let layout = [
            SegmentRecord(start: 0, end: 50 * mib, committed: 50 * mib),
            SegmentRecord(start: 50 * mib, end: 100 * mib, committed: 0),
        ]
        let model = ViewModelBuilder().details(snapshot(connections: 4, segments: layout).rows[0], now: TestQueue.epoch)
        #expect(model.fields.first { $0.label == "Connections" }?.value == "4")
        let map = model.fields.first { $0.label == "Segments" }?.value ?? ""
        #expect(map.hasPrefix(String(repeating: "█", count: 16) + String(repeating: "░", count: 16)))
    }

    @Test func plusAndMinusChangeTheSelectedDownloadsConnections() {
        var snapshot = snapshot(connections: 4)
        snapshot.rows[0].split = 4
        let context = UIContext(snapshot: snapshot, visibleRows: 8, downloadDirectory: TestQueue.directory)
        let state = UIState().synchronized(with: context)
        #expect(state.reduce(.character("+"), context: context).1 == .setTaskConnections(TaskID(1), 5))
        #expect(state.reduce(.character("-"), context: context).1 == .setTaskConnections(TaskID(1), 3))
        snapshot.rows[0].split = 1
        let single = UIContext(snapshot: snapshot, visibleRows: 8, downloadDirectory: TestQueue.directory)
        #expect(state.reduce(.character("-"), context: single).1 == nil, "never below one")
    }
}
