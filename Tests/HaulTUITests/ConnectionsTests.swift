import Foundation
import HaulCore
import Testing
@testable import HaulTUI

/// A download over several connections: its row shows how many, its details a live map (the durable layout
/// when it does not run).
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

    @Test func detailsShowConnectionsAndTheSavedLayout() throws {
        let mib = TestQueue.mib
        let layout = [
            SegmentRecord(start: 0, end: 50 * mib, committed: 50 * mib),
            SegmentRecord(start: 50 * mib, end: 100 * mib, committed: 0),
        ]
        let model = ViewModelBuilder().details(snapshot(connections: 4, segments: layout).rows[0], now: TestQueue.epoch)
        #expect(model.fields.first { $0.label == "Connections" }?.value == "4")
        let field = try #require(model.fields.first { $0.label == "Segments" })
        #expect(field.map?.cells(width: 4) == [.done, .done, .waiting, .waiting])
        #expect(field.value == "saved layout, 2 ranges")
    }

    @Test func aRunningDownloadShowsItsLiveMapDrawnAcrossTheDetailsPane() throws {
        let mib = TestQueue.mib
        // 0..<40 arrived, 40..<50 and 70..<80 in flight, the rest waiting; the saved layout lags behind.
        var snapshot = snapshot(connections: 2, segments: [SegmentRecord(start: 0, end: 100 * mib, committed: 20 * mib)])
        snapshot.rows[0].segmentMap = SegmentMap(total: 100 * mib, spans: [
            .init(range: 0..<(40 * mib), cell: .done), .init(range: (40 * mib)..<(50 * mib), cell: .inFlight),
            .init(range: (50 * mib)..<(70 * mib), cell: .waiting), .init(range: (70 * mib)..<(80 * mib), cell: .inFlight),
            .init(range: (80 * mib)..<(100 * mib), cell: .waiting),
        ])
        let model = ViewModelBuilder().details(snapshot.rows[0], now: TestQueue.epoch)
        let field = try #require(model.fields.first { $0.label == "Segments" })
        #expect(field.map == snapshot.rows[0].segmentMap)
        #expect(field.value == "2 ranges in flight, 40.0 MiB waiting")

        // Drawn across the value's width: done, in flight, waiting, in their own glyphs.
        for glyphs in [GlyphSet.unicode, .ascii] {
            let lines = TestQueue.screen(snapshot, width: 80, height: 30, state: UIState(mode: .details), glyphs: glyphs).lines()
            let line = try #require(lines.first { $0.contains("Segments") })
            let map = String(line.drop { $0 != String(glyphs.barDone).first! }.prefix { "\(glyphs.barDone)\(glyphs.barInFlight)\(glyphs.barRemaining)".contains($0) })
            #expect(map.count >= 50, "\(line)")
            let tenth = map.count / 10
            #expect(map.prefix(4 * tenth).allSatisfy { $0 == glyphs.barDone }, "\(line)")
            #expect(map.contains(glyphs.barInFlight) && map.hasSuffix(String(glyphs.barRemaining)), "\(line)")
            #expect(lines.contains { $0.contains("2 ranges in flight") })
        }
    }

    @Test func aPausedDownloadShowsItsSavedLayoutNotAStaleLiveMap() throws {
        let mib = TestQueue.mib
        var snapshot = snapshot(connections: 0, segments: [SegmentRecord(start: 0, end: 100 * mib, committed: 50 * mib)])
        snapshot.rows[0].task.state = .paused
        snapshot.rows[0].segmentMap = SegmentMap(total: 100 * mib, spans: [.init(range: 0..<(100 * mib), cell: .inFlight)])
        let field = try #require(ViewModelBuilder().details(snapshot.rows[0], now: TestQueue.epoch).fields.first { $0.label == "Segments" })
        #expect(field.map?.cells(width: 2) == [.done, .waiting])
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
