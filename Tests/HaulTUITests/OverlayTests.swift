import Foundation
import HaulCore
import Testing
@testable import HaulTUI

/// Help, details and the remove question, drawn over the list.
@Suite struct OverlayTests {
    init() { setlocale(LC_CTYPE, "C.UTF-8") }

    /// One paused task with every field the details pane can show, some of them long enough to wrap.
    static var longDetails: QueueSnapshot {
        let row = TestQueue.row(
            7, "secret.iso", .paused, done: 300 * TestQueue.mib, total: TestQueue.gib, error: "disk full writing /downloads/secret.iso.part",
            url: "https://alice:hunter2@example.org/secret.iso?x=1")
        var task = row.task
        task.validators = RemoteValidators(etag: "\"abc\"", lastModified: "Tue, 14 Nov 2023 22:13:20 GMT")
        task.headers = ["Authorization: Bearer xyz", "X-Trace: 1"]
        return QueueSnapshot(rows: [QueueSnapshot.Row(task: task, bytesReceived: row.bytesReceived)], sequence: 1)
    }

    /// Presses `keys` at 40×12, telling the reducer how far the open box scrolls, as the live loop does.
    static func press(_ keys: [KeyPress], from state: UIState, in snapshot: QueueSnapshot) -> UIState {
        var state = state
        for key in keys {
            var context = TestQueue.context(snapshot, visibleRows: ScreenLayout(width: 40, height: 12).visibleRows)
            context.overlayScroll = TestQueue.overlayScroll(snapshot, width: 40, height: 12, state: state)
            state = state.reduce(key, context: context).0
        }
        return state
    }

    @Test func helpIsGeneratedFromTheBindingTable() {
        // Tall enough for one column with no scrolling.
        let text = TestQueue.screen(TestQueue.sketch, width: 80, height: 70, state: UIState(mode: .help)).lines().joined(separator: "\n")
        for binding in KeyBinding.table where !binding.joinsHelpLine {
            #expect(text.contains(binding.help), "\(binding.action)")
        }
        for section in KeyBinding.Section.allCases { #expect(text.contains("│ \(section.rawValue)")) }
        #expect(text.contains("↑/↓ scroll  PgUp/PgDn page  Esc close"), "the footer comes from the help scope of the table")
        #expect(!text.contains("↑ more") && !text.contains("↓ more"), "everything fits: no scroll hint")
    }

    /// htop's F1 fits 80×24: every key of the table is on it, no line is cut, and no list text shows beside the box.
    @Test func helpFitsEightyByTwentyFourWithEveryKeyAndNoCutLine() {
        let lines = TestQueue.screen(TestQueue.sketch, width: 80, height: 24, state: UIState(mode: .help)).lines()
        let box = lines[0..<23]
        #expect(box.allSatisfy { !$0.contains("…") }, "no cut line")
        #expect(!lines.joined().contains("↓ more") && !lines.joined().contains("↑ more"), "nothing to scroll to")
        #expect(box.allSatisfy { $0.hasSuffix("│") || $0.hasSuffix("┐") || $0.hasSuffix("┘") }, "the box is the last column")
        let text = box.joined(separator: "\n")
        for binding in KeyBinding.table {
            for key in binding.keys {
                let label = key.label
                #expect(text.contains(label), "\(label) (\(binding.action)) is in the help")
            }
        }
        // A pair of bindings shares a line, its keys slashed.
        #expect(text.contains("J/K           move down/up in queue"))
        #expect(text.contains("x Del F9      remove (asks first)"))
    }

    @Test func helpFlowsIntoTwoColumnsWhenTheScreenIsShortButWideAndScrollsBoth() {
        let lines = TestQueue.screen(TestQueue.sketch, width: 120, height: 14, state: UIState(mode: .help)).lines()
        #expect(lines[1].contains("│ Move around                            Queue"))
        #expect(lines[12].contains("─ ↓ more  PgDn ─┘"))
        let end = TestQueue.screen(TestQueue.sketch, width: 120, height: 14, state: UIState(mode: .help, helpScroll: 99)).lines()
        #expect(end[0].contains("─ ↑ more ─┐"))
        #expect(end[11].contains("│ d             detach to background "))
        #expect(end.contains { $0.contains("Enter         details: close") })
    }

    @Test func helpAt40x12ScrollsByLineAndPageAndStopsAtTheEnd() {
        let first = TestQueue.screen(TestQueue.sketch, width: 40, height: 12, state: UIState(mode: .help)).lines()
        #expect(first == [
            "┌─ haul — keys ────────────────────────┐",
            "│ Move around                          │",
            "│ ↑/↓ k/j       select previous/next   │",
            "│ PgUp/PgDn     one page up/down       │",
            "│ Home/End g/G  first/last task        │",
            "│ / F3          filter (Esc clears it) │",
            "│ o F6          next sort order        │",
            "│                                      │",
            "│ Tasks                                │",
            "│ space p       pause/resume/retry     │",
            "└─────────────────────── ↓ more  PgDn ─┘",
            " ↑/↓ scroll  PgUp/PgDn page  Esc close",
        ])
        let paged = Self.press([.pageDown], from: UIState(mode: .help), in: TestQueue.sketch)
        #expect(paged.helpScroll == 8, "a page keeps one line of the last one")
        #expect(TestQueue.screen(TestQueue.sketch, width: 40, height: 12, state: paged).lines() == [
            "┌─ haul — keys ─────────────── ↑ more ─┐",
            "│ space p       pause/resume/retry     │",
            "│ a             add URLs (paste works) │",
            "│ e             new link, same bytes   │",
            "│ x Del F9      remove (asks first)    │",
            "│ Enter/←/→     details; fold a group  │",
            "│ m/M           mark / clear marks     │",
            "│ +/-           connections more/fewer │",
            "│                                      │",
            "│ Screen                               │",
            "└─────────────────────── ↓ more  PgDn ─┘",
            " ↑/↓ scroll  PgUp/PgDn page  Esc close",
        ])
        let lineDown = Self.press([.down, .character("j")], from: paged, in: TestQueue.sketch)
        #expect(TestQueue.screen(TestQueue.sketch, width: 40, height: 12, state: lineDown).lines()[1] == "│ e             new link, same bytes   │")
        // Far past the end, the offset stays at the last page: one ↑ then shows one line more above.
        let end = Self.press(Array(repeating: .character(" "), count: 10), from: UIState(mode: .help), in: TestQueue.sketch)
        #expect(TestQueue.screen(TestQueue.sketch, width: 40, height: 12, state: end).lines() == [
            "┌─ haul — keys ─────────────── ↑ more ─┐",
            "│ [/]           lower/raise the cap    │",
            "│                                      │",
            "│ In help and details                  │",
            "│ ↑/↓ k/j       scroll; details: task  │",
            "│ PgUp/PgDn     page up/down           │",
            "│ space         help: page down        │",
            "│ Home/End g/G  to the top/end         │",
            "│ Esc q         close (help: any key)  │",
            "│ Enter         details: close         │",
            "└──────────────────────────────────────┘",
            " ↑/↓ scroll  PgUp/PgDn page  Esc close",
        ])
        let up = Self.press([.up], from: end, in: TestQueue.sketch)
        #expect(TestQueue.screen(TestQueue.sketch, width: 40, height: 12, state: up).lines()[1] == "│ </>           fewer/more running     │")
        #expect(Self.press([.home], from: up, in: TestQueue.sketch).helpScroll == 0)
    }

    @Test func theRendererClampsAnOffsetPastTheContent() {
        let far = TestQueue.screen(TestQueue.sketch, width: 40, height: 12, state: UIState(mode: .help, helpScroll: 1000)).lines()
        let last = TestQueue.screen(TestQueue.sketch, width: 40, height: 12, state: UIState(mode: .help, helpScroll: 30)).lines()
        #expect(far == last)
        #expect(last[9] == "│ Enter         details: close         │")
        let layout = ScreenLayout(width: 40, height: 12)
        let model = ViewModelBuilder().build(
            snapshot: TestQueue.sketch, state: UIState(mode: .help), layout: layout, freeDiskBytes: nil, now: TestQueue.epoch, frame: 0)
        #expect(ListRenderer().overlayScroll(model, layout: layout) == OverlayScroll(page: 9, maxOffset: 30))
        let list = ViewModelBuilder().build(
            snapshot: TestQueue.sketch, state: UIState(), layout: layout, freeDiskBytes: nil, now: TestQueue.epoch, frame: 0)
        #expect(ListRenderer().overlayScroll(list, layout: layout) == nil)
    }

    @Test func helpInASCIISaysMoreInASCII() {
        let lines = TestQueue.screen(TestQueue.sketch, width: 40, height: 12, state: UIState(mode: .help, helpScroll: 3), glyphs: .ascii).lines()
        #expect(lines[0] == "+- haul — keys --------------- ^ more -+")
        #expect(lines[10] == "+----------------------- v more  PgDn -+")
    }

    @Test func detailsAt40x12ScrollAPageAtATimeAndStopAtTheEnd() {
        let snapshot = Self.longDetails
        let first = TestQueue.screen(snapshot, width: 40, height: 12, state: UIState(mode: .details)).lines()
        #expect(first == [
            "┌─ details ────────────────────────────┐",
            "│ secret.iso                           │",
            "│                                      │",
            "│ URL         https://example.org/secr │",
            "│             et.iso?x=1               │",
            "│ Path        /downloads/secret.iso.pa │",
            "│             rt                       │",
            "│ State       paused                   │",
            "│ Size        300.0 MiB of 1.0 GiB     │",
            "│             (29.2%)                  │",
            "└─────────────────────── ↓ more  PgDn ─┘",
            " ↑/↓ task  PgUp/PgDn page  Esc close",
        ])
        let paged = Self.press([.pageDown], from: UIState(mode: .details), in: snapshot)
        #expect(paged.detailsScroll == 8)
        #expect(TestQueue.screen(snapshot, width: 40, height: 12, state: paged).lines() == [
            "┌─ details ─────────────────── ↑ more ─┐",
            "│             (29.2%)                  │",
            "│ Validators  ETag \"abc\" ·             │",
            "│             Last-Modified Tue, 14    │",
            "│             Nov 2023 22:13:20 GMT    │",
            "│ Attempts    3 failed                 │",
            "│ Headers     Authorization, X-Trace   │",
            "│ Last error  disk full writing /downl │",
            "│             oads/secret.iso.part     │",
            "│ Added       2023-11-14 22:13:20      │",
            "└─────────────────────── ↓ more  PgDn ─┘",
            " ↑/↓ task  PgUp/PgDn page  Esc close",
        ])
        let last = Self.press([.pageDown, .pageDown, .pageDown], from: UIState(mode: .details), in: snapshot)
        #expect(last.detailsScroll == 9, "clamped to the content")
        #expect(TestQueue.screen(snapshot, width: 40, height: 12, state: last).lines() == [
            "┌─ details ─────────────────── ↑ more ─┐",
            "│ Validators  ETag \"abc\" ·             │",
            "│             Last-Modified Tue, 14    │",
            "│             Nov 2023 22:13:20 GMT    │",
            "│ Attempts    3 failed                 │",
            "│ Headers     Authorization, X-Trace   │",
            "│ Last error  disk full writing /downl │",
            "│             oads/secret.iso.part     │",
            "│ Added       2023-11-14 22:13:20      │",
            "│ Task id     7                        │",
            "└──────────────────────────────────────┘",
            " ↑/↓ task  PgUp/PgDn page  Esc close",
        ])
        let back = Self.press([.end, .pageUp], from: UIState(mode: .details), in: snapshot)
        #expect(back.detailsScroll == 1)
        #expect(TestQueue.screen(snapshot, width: 40, height: 12, state: back).lines()[1] == "│                                      │")
        #expect(Self.press([.home], from: back, in: snapshot).detailsScroll == 0)
    }

    @Test func detailsShowTheTaskWithCredentialsRedacted() {
        let snapshot = Self.longDetails
        let state = UIState(mode: .details)
        let text = TestQueue.screen(snapshot, width: 80, height: 24, state: state).lines().joined(separator: "\n")
        #expect(text.contains("│ URL         https://example.org/secret.iso?x=1"))
        #expect(!text.contains("hunter2") && !text.contains("alice"))
        #expect(text.contains("│ Path        /downloads/secret.iso.part"))
        #expect(text.contains("│ Size        300.0 MiB of 1.0 GiB (29.2%)"))
        #expect(text.contains("│ Validators  ETag \"abc\" · Last-Modified Tue, 14 Nov 2023 22:13:20 GMT"))
        #expect(text.contains("│ Attempts    3 failed"))
        #expect(text.contains("│ Headers     Authorization, X-Trace"))
        #expect(!text.contains("Bearer"))
        #expect(text.contains("│ Last error  disk full writing /downloads/secret.iso.part"))
    }

    @Test func detailsShowAReplacedLinkAndTheEarlierOnesWithoutCredentials() {
        var task = Self.longDetails.rows[0].task
        task.linkChange = .sameFile
        task.linkHistory = ["https://bob:pw@old.example.org/secret.iso?sig=1"]
        let snapshot = QueueSnapshot(rows: [QueueSnapshot.Row(task: task, bytesReceived: 0)], sequence: 1)
        let text = TestQueue.screen(snapshot, width: 120, height: 30, state: UIState(mode: .details)).lines().joined(separator: "\n")
        #expect(text.contains("Link") && text.contains("new, unconfirmed"), "\(text)")
        #expect(text.contains("Earlier links  https://old.example.org/secret.iso?sig=1"), "\(text)")
        #expect(!text.contains("bob") && !text.contains(":pw@"))
    }

    @Test func detailsShowEveryMirrorAndWhyOneWasDroppedWithoutCredentials() {
        var task = Self.longDetails.rows[0].task
        task.mirrors = ["https://carol:pw2@b.example.org/secret.iso", "https://c.example.org/secret.iso"]
        task.record(DroppedLink(url: "https://b.example.org/secret.iso", reason: "it serves 10 bytes where the file has 12"))
        let snapshot = QueueSnapshot(rows: [QueueSnapshot.Row(task: task, bytesReceived: 0)], sequence: 1)
        let text = TestQueue.screen(snapshot, width: 120, height: 30, state: UIState(mode: .details)).lines().joined(separator: "\n")
        #expect(text.contains("https://b.example.org/secret.iso — dropped: it serves 10 bytes where the file has 12"), "\(text)")
        #expect(text.contains("Mirror") && text.contains("https://c.example.org/secret.iso"), "\(text)")
        #expect(!text.contains("carol") && !text.contains(":pw2@") && !text.contains("URL dropped"))
    }

    @Test func detailsOfACompletedEmptyFileAndOfANameAskedFor() {
        let empty = TestQueue.row(1, "empty.txt", .completed, done: 0, total: 0)
        let text = TestQueue.screen(QueueSnapshot(rows: [empty], sequence: 1), width: 80, height: 24,
                                    state: UIState(list: .completed, mode: .details)).lines().joined(separator: "\n")
        #expect(text.contains("│ Size        0 B, an empty file"))
        #expect(text.contains("│ Attempts    1"))
        #expect(ViewModelBuilder.attemptsDetail(failedInARow: 2, state: .completed) == "3")
        #expect(ViewModelBuilder.attemptsDetail(failedInARow: 0, state: .running) == "1, running")
        #expect(ViewModelBuilder.sizeDetail(done: 5 << 20, total: nil, state: .completed) == "5.0 MiB")

        var named = TestQueue.row(2, "x", .waiting).task
        named.fileName = nil
        named.requestedName = "report.pdf"
        let waiting = TestQueue.screen(QueueSnapshot(rows: [QueueSnapshot.Row(task: named, bytesReceived: 0)], sequence: 1),
                                       width: 80, height: 24, state: UIState(mode: .details)).lines().joined(separator: "\n")
        #expect(waiting.contains("│ Path        /downloads/report.pdf.part (the name asked for)"))
        #expect(!waiting.contains("name decided at the first response"))
    }

    @Test func longDetailValuesWrapInsideTheBox() throws {
        let url = "https://example.org/" + String(repeating: "very-long-path/", count: 8) + "file.bin"
        let snapshot = QueueSnapshot(rows: [TestQueue.row(1, "file.bin", .waiting, url: url)], sequence: 1)
        let lines = TestQueue.screen(snapshot, width: 60, height: 24, state: UIState(mode: .details)).lines()
        let start = try #require(lines.firstIndex { $0.contains("│ URL ") })
        let end = try #require(lines.firstIndex { $0.contains("│ Path ") })
        #expect(end - start == 4)
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 60 })
        let joined = lines[start..<end].joined().replacingOccurrences(of: "│", with: "").replacingOccurrences(of: " ", with: "")
        #expect(joined == "URL" + url)
    }

    @Test func removeAsksWhetherToDeleteThePartialFile() {
        let state = UIState(mode: .confirmRemove(TaskID(1)))
        let grid = TestQueue.screen(TestQueue.sketch, width: 80, height: 12, state: state)
        let lines = grid.lines()
        #expect(lines[2...8] == [
            "  ┌─ Remove this download? ─────────────────────────────────────────────────┐ETA",
            "›▶│ 電影.第01集.mp4                                                         │11s",
            " ▶│ Its partial file holds 552.0 MiB.                                       │20s",
            " ⏸│ f also deletes the partial file; that cannot be undone.                 │",
            " ·│                                                                         │",
            " ✗│ y remove, keep partial file   f remove + delete partial file   n cancel │ry",
            "  └─────────────────────────────────────────────────────────────────────────┘",
        ])
        #expect(lines[11] == " y remove, keep partial file  f remove + delete partial file  n cancel")
        #expect(grid[5, 12].role == .dialogWarning)
        #expect(!grid[2, 20].selected, "the dialog is not part of the selected row")
    }

    @Test func aBoxOverHalfOfAWideCharacterLeavesNoHalfCharacter() {
        var grid = ScreenGrid(width: 6, height: 1)
        grid.write("電影", row: 0, column: 0, role: .rowName)
        grid.write("│", row: 0, column: 1, role: .dialogBorder)
        #expect(grid.line(0) == " │影  ")
        grid.write("x", row: 0, column: 3, role: .text)
        #expect(grid.line(0) == " │ x  ")
        grid.write("電", row: 0, column: 5, role: .text)
        #expect(grid.line(0) == " │ x  ", "a wide character that does not fit is not drawn")
    }

    @Test func removingACompletedTaskNeverOffersToDeleteTheFile() {
        var state = UIState(list: .completed)
        state.mode = .confirmRemove(TaskID(6))
        let text = TestQueue.screen(TestQueue.sketch, width: 80, height: 12, state: state).lines().joined(separator: "\n")
        #expect(text.contains("The downloaded file stays where it is."))
        #expect(!text.contains("delete"))
    }

    @Test func aNarrowRemoveQuestionWrapsAndListsTheChoices() {
        let lines = TestQueue.screen(TestQueue.sketch, width: 40, height: 12, state: UIState(mode: .confirmRemove(TaskID(1)))).lines()
        #expect(lines[3...8] == [
            "›│ f also deletes the partial file;  │/s",
            " │ that cannot be undone.            │/s",
            " │                                   │ed",
            " │ y remove, keep partial file       │ng",
            " │ f remove + delete partial file    │ry",
            " │ n cancel                          │",
        ])
        #expect(lines[11] == " y remove, keep partial file  n cancel")
    }

    @Test func onAShortScreenTheQuestionKeepsItsChoices() {
        let lines = TestQueue.screen(TestQueue.sketch, width: 40, height: 8, state: UIState(mode: .confirmRemove(TaskID(1)))).lines()
        #expect(lines[1...5] == [
            "─│ 電影.第01集.mp4                   │──",
            " │ Its partial file holds 552.0 MiB. │te",
            "›│ y remove, keep partial file       │/s",
            " │ f remove + delete partial file    │/s",
            "─│ n cancel                          │──",
        ])
    }
}
