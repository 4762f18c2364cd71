import Foundation
import HaulCore
import Testing
@testable import HaulTUI

/// Formatting decisions: sizes, ETA, retry countdowns, header counts, problems.
@Suite struct ViewModelBuilderTests {
    static func model(_ snapshot: QueueSnapshot, state: UIState = UIState(), freeDisk: Int64? = nil) -> ListViewModel {
        let layout = ScreenLayout(width: 80, height: 20)
        let synced = state.synchronized(with: TestQueue.context(snapshot, visibleRows: layout.visibleRows))
        return ViewModelBuilder().build(snapshot: snapshot, state: synced, layout: layout, freeDiskBytes: freeDisk, now: TestQueue.epoch, frame: 0)
    }

    @Test func sizesShowUnknownTotalsAsADash() {
        #expect(ViewModelBuilder.size(done: 0, total: nil, state: .waiting) == "—/—")
        #expect(ViewModelBuilder.size(done: 12 << 20, total: nil, state: .running) == "12.0M/—")
        #expect(ViewModelBuilder.size(done: 0, total: 1 << 30, state: .waiting) == "0B/1.0G")
        #expect(ViewModelBuilder.size(done: 5 << 20, total: 5 << 20, state: .completed) == "5.0M")
    }

    @Test func etaColumnUsesTheCoreFormatAndADashForUnknownSizes() {
        let snapshot = QueueSnapshot(rows: [
            TestQueue.row(1, "a", .running, done: 1, total: 10, speed: 1, eta: 61),
            TestQueue.row(2, "b", .running, done: 1, speed: 1, eta: 61),
        ], sequence: 1)
        #expect(Self.model(snapshot).rows.map(\.eta) == ["1m01s", "—"])
    }

    @Test func headerCountsStatesAndSeparatesRetries() {
        let snapshot = QueueSnapshot(rows: [
            TestQueue.row(1, "a", .running), TestQueue.row(2, "b", .waiting), TestQueue.row(3, "c", .waiting, retryIn: 5),
            TestQueue.row(4, "d", .completed),
        ], totalSpeed: nil, sequence: 1)
        let header = Self.model(snapshot, freeDisk: 5 << 30).header
        #expect(header.counts.map { "\($0.number) \($0.word)" } == ["1 running", "1 waiting", "1 retrying", "1 done"])
        #expect(header.speed == "—", "no fake 0 B/s")
        #expect(header.freeDisk == "5.0 GiB")
        #expect(header.freeDiskCompact == "5.0G")
    }

    @Test func aStalledTransferSaysSoInsteadOfASpeed() {
        var stalled = TestQueue.row(1, "a", .running, done: 1, total: 10)
        stalled.isStalled = true
        let moving = TestQueue.row(2, "b", .running, done: 1, total: 10, speed: 2048, eta: 4)
        let rows = Self.model(QueueSnapshot(rows: [stalled, moving], sequence: 1)).rows
        #expect(rows.map(\.speed) == ["stalled", "2.0 KiB/s"])
    }

    @Test func runningRowsShowSpeedAndEtaOthersTheirState() {
        let snapshot = QueueSnapshot(rows: [
            TestQueue.row(1, "a", .running, done: 1, total: 10, speed: nil, eta: nil),
            TestQueue.row(2, "b", .waiting, retryIn: 65),
            TestQueue.row(3, "c", .paused, done: 5, total: 10),
        ], sequence: 1)
        let rows = Self.model(snapshot).rows
        #expect(rows.map(\.speed) == ["—", "retry 1m05s", "paused"])
        #expect(rows.map(\.eta) == ["—", "", ""])
        #expect(rows.map(\.glyph) == ["▶", "↻", "⏸"])
        #expect(rows.map(\.stateRole) == [.stateRunning, .stateRetrying, .statePaused])
        #expect(rows[0].isSelected && !rows[1].isSelected)
    }

    @Test func unknownSizesGetAnActivityIndicatorOnlyWhileRunning() {
        let snapshot = QueueSnapshot(rows: [
            TestQueue.row(1, "a", .running, done: 100), TestQueue.row(2, "b", .paused, done: 100),
        ], sequence: 1)
        let rows = Self.model(snapshot).rows
        #expect(rows[0].fill == .activity(phase: 0))
        #expect(rows[1].fill == .unknown)
        #expect(rows.map(\.percent) == ["—", "—"])
    }

    @Test func failedAndDiskFullRowsSayWhatToPress() {
        let snapshot = QueueSnapshot(rows: [
            TestQueue.row(1, "a", .failed, error: "HTTP 404 Not Found from example.org"),
            TestQueue.row(2, "b", .paused, error: "disk full writing /dl/b.part — free some space, then resume"),
            TestQueue.row(3, "c", .failed),
        ], sequence: 1)
        let rows = Self.model(snapshot).rows
        #expect(rows[0].problem?.text == "HTTP 404 Not Found from example.org")
        #expect(rows[0].problem?.hint == "press p to retry")
        #expect(rows[1].problem?.hint == "press p to resume")
        #expect(rows[2].problem?.text == "failed")
    }

    @Test func onlyTheVisibleWindowIsBuilt() {
        let rows = (1...10_000).map { TestQueue.row(Int64($0), "file-\($0)", .waiting) }
        let snapshot = QueueSnapshot(rows: rows, sequence: 1)
        let model = Self.model(snapshot, state: UIState(downloading: .init(selected: TaskID(5000), index: 0)))
        #expect(model.rows.count == ScreenLayout(width: 80, height: 20).visibleRows)
        #expect(model.rows.last?.id == TaskID(5000))
        #expect(model.status == .info(left: "Downloading 5000/10000", right: "max 3 running (< >)"))
    }

    @Test func detailsShowTheURLWithCredentialsRemovedTheOneWayTheCoreRemovesThem() {
        var task = DownloadTask(id: TaskID(1), url: "https://a:b@c@host:8080/a@b", directory: "/d", state: .paused, position: 1)
        task.fileName = "a@b"
        let details = ViewModelBuilder().details(QueueSnapshot.Row(task: task, bytesReceived: 0), now: Date())
        #expect(details.fields.first?.value == "https://host:8080/a@b")
        #expect(details.fields.first?.value == URLValidation.redacted(task.url))
    }
}
