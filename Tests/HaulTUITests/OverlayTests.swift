import Foundation
import HaulCore
import Testing
@testable import HaulTUI

/// Help, details and the remove question, drawn over the list.
@Suite struct OverlayTests {
    init() { setlocale(LC_CTYPE, "C.UTF-8") }

    @Test func helpIsGeneratedFromTheBindingTable() {
        let text = TestQueue.screen(TestQueue.sketch, width: 80, height: 30, state: UIState(mode: .help)).lines().joined(separator: "\n")
        for binding in KeyBinding.table {
            let keys = binding.keys.map(\.label).joined(separator: " ")
            #expect(text.contains(keys + String(repeating: " ", count: max(2, 9 - DisplayWidth.of(keys))) + binding.help), "\(binding.action)")
        }
        for section in KeyBinding.Section.allCases { #expect(text.contains("│ \(section.rawValue)")) }
        #expect(text.contains("any key close help"))
    }

    @Test func helpFlowsIntoTwoColumnsWhenTheScreenIsShortButWide() {
        let lines = TestQueue.screen(TestQueue.sketch, width: 120, height: 18, state: UIState(mode: .help)).lines()
        #expect(lines[2] == "│ Move around                                                Queue                                                    │s")
        #expect(lines[13] == "│ x Del    remove (asks whether to delete the partial fil…   q        quit (state is saved; running tasks resume nex… │")
        #expect(lines[14] == "│ Enter    details: URL, path, validators, attempts, error                                                            │")
    }

    @Test func helpOnATinyScreenIsCutNotWrappedAndLeavesTheFooter() {
        let lines = TestQueue.screen(TestQueue.sketch, width: 40, height: 12, state: UIState(mode: .help)).lines()
        #expect(lines.first == "┌─ haul — keys ────────────────────────┐")
        #expect(lines[9] == "│ …                                    │")
        #expect(lines[10] == "└──────────────────────────────────────┘")
        #expect(lines[11] == " any key close help")
    }

    @Test func detailsShowTheTaskWithCredentialsRedacted() {
        let row = TestQueue.row(
            7, "secret.iso", .paused, done: 300 * TestQueue.mib, total: TestQueue.gib, error: "disk full writing /downloads/secret.iso.part",
            url: "https://alice:hunter2@example.org/secret.iso?x=1")
        var task = row.task
        task.validators = RemoteValidators(etag: "\"abc\"", lastModified: "Tue, 14 Nov 2023 22:13:20 GMT")
        task.headers = ["Authorization: Bearer xyz", "X-Trace: 1"]
        let snapshot = QueueSnapshot(rows: [QueueSnapshot.Row(task: task, bytesReceived: row.bytesReceived)], sequence: 1)
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
            "›▶ 電影.第┌─ Remove this download? ─────────────────────────────────┐iB/s  2m11s",
            " ▶ ubuntu-│ 電影.第01集.mp4                                         │iB/s  6m20s",
            " ⏸ dataset│ Its partial file holds 552.0 MiB.                       │used",
            " · notes.p│ d also deletes the partial file; that cannot be undone. │ting",
            " ✗ broken.│                                                         │p to retry",
            "          │ y remove, keep file   d remove + delete file   n cancel │",
            "          └─────────────────────────────────────────────────────────┘",
        ])
        #expect(lines[11] == " y remove, keep file  d remove + delete file  n cancel")
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
            " │ d also deletes the partial file;  │/s",
            " │ that cannot be undone.            │ed",
            " │                                   │ng",
            " │ y remove, keep file               │ry",
            " │ d remove + delete file            │",
            " │ n cancel                          │",
        ])
        #expect(lines[11] == " y remove, keep file  n cancel")
    }

    @Test func onAShortScreenTheQuestionKeepsItsChoices() {
        let lines = TestQueue.screen(TestQueue.sketch, width: 40, height: 8, state: UIState(mode: .confirmRemove(TaskID(1)))).lines()
        #expect(lines[1...5] == [
            "─│ 電影.第01集.mp4                   │──",
            "›│ Its partial file holds 552.0 MiB. │/s",
            " │ y remove, keep file               │/s",
            " │ d remove + delete file            │ed",
            "─│ n cancel                          │──",
        ])
    }
}
