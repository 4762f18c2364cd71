import Foundation
import HaulCore
import Testing
@testable import HaulTUI

/// The filter, the order and the marks of the list, as values: no terminal.
@Suite struct ListViewTests {
    init() { setlocale(LC_CTYPE, "C.UTF-8") }

    /// 300 tasks, 10 of them named `match-N.iso`, the others `file-N.bin`; task N runs at N KiB/s.
    static var many: QueueSnapshot {
        let rows = (1...300).map { id -> QueueSnapshot.Row in
            let name = id % 30 == 0 ? "Match-\(id).iso" : "file-\(id).bin"
            return TestQueue.row(Int64(id), name, id <= 3 ? .running : .waiting, done: 0, total: 100, speed: id <= 3 ? Double(id) * 1024 : nil)
        }
        return QueueSnapshot(rows: rows, maxConcurrent: 3, sequence: 1)
    }

    @Test func theFilterKeepsRowsWhoseNameOrLinkHasTheTextCaseInsensitively() {
        let shown = ListView(filter: "MATCH").shown(in: Self.many)
        #expect(shown.downloading.count == 10)
        #expect(shown.totalDownloading == 300)
        #expect(ListView(filter: "example.org/files/42").shown(in: Self.many).downloading.compactMap(\.row).map { $0 + 1 } == [42])
        #expect(ListView().shown(in: Self.many).downloading.count == 300)
    }

    @Test func theByteSearchFindsTextAnywhereAndNeverAcrossNameAndLink() {
        #expect(RowSearch.contains(Array("abcabd".utf8), Array("abd".utf8)))
        #expect(RowSearch.contains(Array("電影.第01集".utf8), Array("第01".utf8)))
        #expect(!RowSearch.contains(Array("ab".utf8), Array("abc".utf8)))
        #expect(RowSearch.contains(Array("x".utf8), []))
        let snapshot = QueueSnapshot(rows: [TestQueue.row(1, "Ab", .waiting, url: "https://cd.example/x")], sequence: 1)
        #expect(ListView(filter: "bh").shown(in: snapshot).downloading.isEmpty, "the name's end and the link's start are apart")
        #expect(ListView(filter: "AB").shown(in: snapshot).downloading == [.task(0)])
    }

    @Test func aFilterNeverMatchesALinksPassword() {
        let snapshot = QueueSnapshot(rows: [TestQueue.row(1, "a.bin", .waiting, url: "https://user:s3cret@example.org/a.bin")], sequence: 1)
        #expect(ListView(filter: "s3cret").shown(in: snapshot).downloading.isEmpty)
        #expect(ListView(filter: "example.org/a").shown(in: snapshot).downloading == [.task(0)])
    }

    @Test func typingTheFilterNarrowsLiveEnterKeepsItEscClearsIt() {
        let context = TestQueue.context(Self.many)
        var (state, _) = UIState().handle(.character("/"), context: context)
        for character in "match" { (state, _) = state.handle(.character(character), context: context) }
        #expect(state.view.filter == "match")
        #expect(state.mode == .filter(PromptField("match")))
        (state, _) = state.handle(.enter, context: context)
        #expect(state.mode == .list)
        #expect(state.view.filter == "match", "Enter keeps the filter")
        let model = TestQueue.screen(Self.many, width: 80, height: 24, state: state).lines()
        #expect(model[2].contains("/match (10 of 300)"), "the header shows the kept filter: \(model[2])")
        #expect(model.filter { $0.contains(".iso") }.count == 10)
        (state, _) = state.handle(.escape, context: context)
        #expect(state.view.filter.isEmpty, "Esc clears it")
        #expect(KeyBinding.action(for: .function(3)) == .filter)
    }

    @Test func aGrowingFilterNarrowsWhatItFoundAndAgreesWithAFullSearch() {
        var cache = ShownRowsCache()
        let snapshot = Self.many
        _ = cache.shown(snapshot, view: ListView(filter: "1"))
        let narrowed = cache.shown(snapshot, view: ListView(filter: "12"))
        #expect(narrowed == ListView(filter: "12").shown(in: snapshot))
    }

    /// The loop keeps every row's reference and search text per snapshot: a context built from them is the one built
    /// afresh, and a second snapshot reuses what did not change.
    @Test func keptReferencesAndSearchTextGiveTheSameRows() {
        var cache = ShownRowsCache()
        let snapshot = Self.many
        let view = ListView(filter: "match", sort: .name)
        let shown = cache.shown(snapshot, view: view)
        #expect(shown == view.shown(in: snapshot))
        let kept = UIContext(
            snapshot: snapshot, visibleRows: 8, downloadDirectory: "/d", shown: shown, refs: UIContext.RowRef.all(snapshot))
        #expect(kept == UIContext(snapshot: snapshot, visibleRows: 8, downloadDirectory: "/d", shown: shown))
        var renamed = snapshot
        renamed.sequence = 2
        var row = renamed.rows[0]
        row.task.fileName = "Match-renamed.bin"
        _ = renamed.updateRow(at: 0, with: row)
        let again = RowSearch(renamed, reusing: RowSearch(snapshot))
        #expect(again.names[0] == "match-renamed.bin" && again.names[1] == "file-2.bin")
        #expect(again.matches(0, RowSearch.needle("renamed")) && again.matches(1, RowSearch.needle("file-2")))
        #expect(!again.matches(1, RowSearch.needle("renamed")) && !again.matches(0, RowSearch.needle("file-2")))
        for text in ["file-1.bin", "File-1.BIN", "HTTP://Example.ORG/A?B=C", "電影.MP4", "ÄBC.bin", "straße"] {
            var bytes: [UInt8] = []
            RowSearch.appendLowercased(text, to: &bytes)
            #expect(bytes == Array(text.lowercased().utf8) && RowSearch.lowercased(text) == text.lowercased(), "\(text)")
        }
        #expect(cache.shown(renamed, view: ListView(filter: "renamed")).downloading == [.task(0)])
    }

    @Test func sortingCyclesAndNeverChangesTheQueue() {
        var state = UIState()
        let context = TestQueue.context(Self.many)
        var orders: [HaulTUI.SortOrder] = []
        for _ in SortOrder.allCases {
            let command: [QueueCommand]
            (state, command) = state.handle(.character("o"), context: context)
            #expect(command.isEmpty, "sorting sends nothing to the queue")
            orders.append(state.view.sort)
        }
        #expect(orders == [.name, .size, .progress, .speed, .timeLeft, .added, .queue])
        let bySpeed = ListView(sort: .speed).shown(in: Self.many).downloading.prefix(3).compactMap(\.row).map { $0 + 1 }
        #expect(bySpeed == [3, 2, 1])
        let byName = ListView(sort: .name).shown(in: Self.many).downloading.prefix(2).compactMap(\.row).map { Self.many.rows[$0].task.displayName }
        #expect(byName == ["file-1.bin", "file-10.bin"])
        let (moved, commands) = UIState(view: ListView(sort: .name)).handle(.character("J"), context: context)
        #expect(commands.isEmpty)
        #expect(moved.message?.text.contains("queue order") == true)
    }

    @Test func marksActOnEveryMarkedRowAndSurviveAFilter() {
        var state = UIState()
        var context = TestQueue.context(Self.many)
        // m marks and walks down: rows 1, 2, 3 (running), then 4 is selected.
        for _ in 0..<3 { (state, _) = state.handle(.character("m"), context: context) }
        #expect(state.view.marks == [TaskID(1), TaskID(2), TaskID(3)])
        context = UIContext(
            snapshot: Self.many, visibleRows: 8, downloadDirectory: TestQueue.directory,
            shown: ListView(filter: "match").shown(in: Self.many), marks: state.view.marks)
        let (paused, commands) = state.handle(.character(" "), context: context)
        #expect(commands == [.pause(TaskID(1)), .pause(TaskID(2)), .pause(TaskID(3))])
        #expect(paused.message?.text == "pausing 3 marked tasks")
        let (asking, _) = state.handle(.character("x"), context: context)
        #expect(asking.mode == .confirmBulk(BulkQuestion(kind: .removeMarked, tasks: [TaskID(1), TaskID(2), TaskID(3)], hasPartialFiles: true)))
        let (removed, removes) = asking.handle(.character("y"), context: context)
        #expect(removes == [.remove(TaskID(1), deleteFile: false), .remove(TaskID(2), deleteFile: false), .remove(TaskID(3), deleteFile: false)])
        #expect(removed.view.marks.isEmpty)
        let (cleared, _) = state.handle(.character("M"), context: context)
        #expect(cleared.view.marks.isEmpty)
        // e: one new link for every marked task, each checking it for itself.
        var (linking, _) = state.handle(.character("e"), context: context)
        #expect(linking.mode == .prompt(PromptField("https://example.org/files/1", linksOf: [TaskID(1), TaskID(2), TaskID(3)])))
        (linking, _) = linking.handle(.control("u"), context: context)
        for character in "https://mirror.example/f" { (linking, _) = linking.handle(.character(character), context: context) }
        let (linked, links) = linking.handle(.enter, context: context)
        #expect(links == [1, 2, 3].map { QueueCommand.setURL(TaskID($0), url: "https://mirror.example/f", change: .sameFile) })
        #expect(linked.mode == .list)
    }

    @Test func clearFinishedAsksOnceAndRetryFailedRetriesEach() {
        let snapshot = QueueSnapshot(rows: [
            TestQueue.row(1, "a", .failed, error: "x"), TestQueue.row(2, "b", .failed, error: "y"), TestQueue.row(3, "c", .waiting),
            TestQueue.row(4, "d", .completed, done: 1, total: 1), TestQueue.row(5, "e", .completed, done: 1, total: 1),
        ], sequence: 1)
        let context = TestQueue.context(snapshot)
        let (_, retries) = UIState().handle(.character("R"), context: context)
        #expect(retries == [.resume(TaskID(1)), .resume(TaskID(2))])
        let (asking, none) = UIState().handle(.character("C"), context: context)
        #expect(none.isEmpty)
        let text = TestQueue.screen(snapshot, width: 80, height: 24, state: asking).lines().joined(separator: "\n")
        #expect(text.contains("Clear 2 finished rows?"))
        #expect(!text.contains("delete"), "clearing never deletes a file")
        let (_, removes) = asking.handle(.character("y"), context: context)
        #expect(removes == [.remove(TaskID(4), deleteFile: false), .remove(TaskID(5), deleteFile: false)])
    }

    @Test func theColumnHeadingsSitOverTheirFiguresAtEveryWidth() {
        for width in [40, 60, 80, 120, 200] {
            let lines = TestQueue.screen(TestQueue.sketch, width: width, height: 12).lines()
            let heading = lines[2]
            #expect(heading.hasPrefix("   Name"), "\(width): \(heading)")
            #expect(heading.contains("Speed/State"), "\(width): \(heading)")
            // The speed heading ends where the first row's speed ends.
            let row = lines[3]
            let end = { (text: String, word: String) -> Int? in
                text.range(of: word).map { DisplayWidth.of(String(text[..<$0.upperBound])) }
            }
            #expect(end(heading, "Speed/State") == end(row, "MiB/s"), "\(width)")
        }
        let sorted = TestQueue.screen(TestQueue.sketch, width: 80, height: 12, state: UIState(view: ListView(sort: .speed))).lines()
        #expect(sorted[2].contains("Speed/State▾"))
    }

    @Test func aClickSelectsADoubleClickOpensDetailsTheWheelScrollsAHeadingSorts() {
        let layout = ScreenLayout(width: 80, height: 24)
        var context = TestQueue.context(Self.many, visibleRows: layout.visibleRows)
        context.screen = layout
        let row = layout.list.lowerBound + 4
        var (state, _) = UIState().handle(.mouse(MouseEvent(.click, line: row, column: 10)), context: context)
        #expect(state.cursor.selected == TaskID(5))
        (state, _) = state.handle(.mouse(MouseEvent(.doubleClick, line: row, column: 10)), context: context)
        #expect(state.mode == .details)
        (state, _) = UIState().handle(.mouse(MouseEvent(.wheelDown, line: row, column: 10)), context: context)
        #expect(state.cursor.index == 3)
        let speedColumn = RowLayout(width: 80).columns.first { $0.sort == .speed }!.cells.lowerBound + 2
        (state, _) = UIState().handle(.mouse(MouseEvent(.click, line: layout.columnHeader!, column: speedColumn)), context: context)
        #expect(state.view.sort == .speed)
        (state, _) = UIState().handle(.mouse(MouseEvent(.click, line: layout.topRule!, column: 22)), context: context)
        #expect(state.list == .completed)
        var clicks = ClickTracker()
        let now = ContinuousClock.now
        #expect(clicks.press(line: 4, column: 1, at: now).kind == .click)
        #expect(clicks.press(line: 4, column: 1, at: now + .milliseconds(200)).kind == .doubleClick)
        #expect(clicks.press(line: 4, column: 1, at: now + .seconds(2)).kind == .click)
    }

    @Test func aStreamRowDropsItsBarBeforeItsSegments() {
        var row = TestQueue.row(1, "a-long-stream-name.ts", .running, done: 50, total: 100, speed: 1024, eta: 10)
        var track = StreamTrackInfo(
            fingerprint: StreamFingerprint(mediaSequence: 0, segmentCount: 480, durations: 1), segmentCount: 480, durationSeconds: 960)
        track.segmentsDone = 120
        row.task.stream = StreamInfo(tracks: [track])
        row.connections = 4
        let lines = TestQueue.screen(QueueSnapshot(rows: [row], sequence: 1), width: 80, height: 12).lines()
        #expect(lines[3].contains("seg 120/480"), "\(lines[3])")
    }

    @Test func aLiveRecordingShowsWhatItRecordedInsteadOfATotal() {
        var row = TestQueue.row(1, "news.ts", .running, done: 3 << 20, total: nil, speed: 1024, eta: nil)
        var track = StreamTrackInfo(
            fingerprint: StreamFingerprint(mediaSequence: 0, segmentCount: 380, durations: 1), segmentCount: 380, durationSeconds: 760)
        track.segmentsDone = 377
        track.doneSeconds = 754
        row.task.stream = StreamInfo(tracks: [track])
        row.task.stream?.live = LiveRecord()
        let lines = TestQueue.screen(QueueSnapshot(rows: [row], sequence: 1), width: 80, height: 12).lines()
        #expect(lines[3].contains("● REC 12:34"), "\(lines[3])")
        #expect(!lines[3].contains("/—") && !lines[3].contains("seg "), "no total, no segment count: \(lines[3])")
    }
}
