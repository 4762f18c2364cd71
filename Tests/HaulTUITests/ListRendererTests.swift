import Foundation
import HaulCore
import Testing
@testable import HaulTUI

/// The screen as text at the widths the issue names (40, 80, 200) and at the narrow fallbacks.
@Suite struct ListRendererTests {
    init() { setlocale(LC_CTYPE, "C.UTF-8") }

    static let mib = TestQueue.mib

    /// Bars at 0, 50 and 100 %, a stream of unknown size, and a waiting CJK name on back-off.
    static var bars: QueueSnapshot {
        QueueSnapshot(
            rows: [
                TestQueue.row(1, "zero.bin", .running, done: 0, total: 100 * mib),
                TestQueue.row(2, "half.bin", .running, done: 50 * mib, total: 100 * mib, speed: 1024, eta: 51200),
                TestQueue.row(3, "full.bin", .running, done: 100 * mib, total: 100 * mib, speed: 1e6, eta: 0),
                TestQueue.row(4, "stream.bin", .running, done: 12 * mib, speed: 2e6),
                TestQueue.row(5, "電影-第一集-超長的檔案名稱.mkv", .waiting, retryIn: 12),
            ],
            maxConcurrent: 3, totalSpeed: 3e6, sequence: 1)
    }

    @Test func sketchAt80Columns() {
        #expect(TestQueue.screen(TestQueue.sketch, width: 80).lines() == [
            " haul  ▶2 ·1 ⏸1 ✗1 ✓1                         ↓ 16.1 MiB/s   disk 80.2 GiB free",
            "─ Downloading 5 ─ Completed 1 ──────────────────────────────────────────────────",
            "   Name                  Progress                       Size  Speed/State    ETA",
            "›▶ 電影.第01集.mp4       ███████░░░░░░░  53.9%   552.0M/1.0G    4.1 MiB/s  2m11s",
            " ▶ ubuntu-24.04.iso      ██░░░░░░░░░░░░  21.0%     1.2G/5.7G   12.0 MiB/s  6m20s",
            " ⏸ dataset.tar.zst       ████░░░░░░░░░░  29.3%   301.0M/1.0G       paused",
            " · notes.pdf             ░░░░░░░░░░░░░░      —           —/—      waiting",
            " ✗ broken.bin            HTTP 404 Not Found from example.org — press p to retry",
            "",
            "────────────────────────────────────────────────────────────────────────────────",
            " Downloading 1/5                                            max 3 running (< >)",
            " space pause/resume  / filter  o sort  a add  x remove  ? help  q quit",
        ])
    }

    @Test func sketchAt40ColumnsDropsBarEtaAndSize() {
        #expect(TestQueue.screen(TestQueue.sketch, width: 40).lines() == [
            " haul  ▶2 ·1 ⏸1 ✗1 ✓1      ↓ 16.1 MiB/s",
            "─ Downloading 5 ─ Completed 1 ──────────",
            "   Name                Done  Speed/State",
            "›▶ 電影.第01集.mp4    53.9%    4.1 MiB/s",
            " ▶ ubuntu-24.04.iso   21.0%   12.0 MiB/s",
            " ⏸ dataset.tar.zst    29.3%       paused",
            " · notes.pdf              —      waiting",
            " ✗ broken.bin        HTTP 404 … p: retry",
            "",
            "────────────────────────────────────────",
            " Downloading 1/5    max 3 running (< >)",
            " space pause/resume  ? help  q quit",
        ])
    }

    @Test func sketchAt200ColumnsGivesTheNameAndBarTheRoom() {
        let grid = TestQueue.screen(TestQueue.sketch, width: 200)
        let lines = grid.lines()
        #expect(lines[0].hasPrefix(" haul  2 running · 1 waiting · 1 paused · 1 failed · 1 done"))
        #expect(lines[0].hasSuffix("↓ 16.1 MiB/s   disk 80.2 GiB free"))
        #expect(lines[2].hasPrefix("   Name" + String(repeating: " ", count: 112) + "Progress"))
        #expect(lines[3] == "›▶ 電影.第01集.mp4" + String(repeating: " ", count: 101)
            + String(repeating: "█", count: 21) + String(repeating: "░", count: 19) + "  53.9%   552.0M/1.0G    4.1 MiB/s  2m11s")
        #expect(lines[7].hasSuffix("HTTP 404 Not Found from example.org — press p to retry"))
        #expect(lines[11] == " space pause/resume  / filter  o sort  a add  x remove  Enter details  ←/→ group  m mark  J/K move  </> running  [/] cap  Tab lists  ? help  q quit")
    }

    @Test func barsAtZeroHalfAndFullAndAnActivityBlockForUnknownSizes() {
        let lines = TestQueue.screen(Self.bars, width: 80, height: 10, frame: 5).lines()
        #expect(lines[3...6] == [
            "›▶ zero.bin              ░░░░░░░░░░░░░░   0.0%     0B/100.0M            —      —",
            " ▶ half.bin              ███████░░░░░░░  50.0%  50.0M/100.0M    1.0 KiB/s 14h13m",
            " ▶ full.bin              ██████████████ 100.0% 100.0M/100.0M  976.6 KiB/s     0s",
            " ▶ stream.bin            ░░░░░███░░░░░░      —       12.0M/—    1.9 MiB/s      —",
        ])
        // The block moves with the frame and never shows a percent.
        let later = TestQueue.screen(Self.bars, width: 80, height: 10, frame: 6).lines()
        #expect(later[6] == " ▶ stream.bin            ░░░░░░███░░░░░      —       12.0M/—    1.9 MiB/s      —")
    }

    @Test func narrowFallbacksDropTheBarThenTheEtaThenTheSize() {
        #expect(TestQueue.screen(Self.bars, width: 64, height: 10).lines()[4]
            == " ▶ half.bin              50.0%  50.0M/100.0M    1.0 KiB/s 14h13m")
        #expect(TestQueue.screen(Self.bars, width: 50, height: 10).lines()[4]
            == " ▶ half.bin       50.0%  50.0M/100.0M    1.0 KiB/s")
        #expect(TestQueue.screen(Self.bars, width: 40, height: 10).lines()[4] == " ▶ half.bin           50.0%    1.0 KiB/s")
        #expect(TestQueue.screen(Self.bars, width: 30, height: 10).lines()[4] == " ▶ half.bin              50.0%")
        // With no bar, a stream of unknown size shows a spinner where the percent goes.
        #expect(TestQueue.screen(Self.bars, width: 40, height: 10).lines()[6] == " ▶ stream.bin             ⠋    1.9 MiB/s")
    }

    @Test func cjkNamesAreCutByDisplayWidthWithAnEllipsis() {
        var state = UIState()
        state.downloading = .init(selected: TaskID(5), index: 4)
        let wide = TestQueue.screen(Self.bars, width: 80, height: 11, state: state).lines()
        #expect(wide[7] == "›↻ 電影-第一集-超長的檔… ░░░░░░░░░░░░░░      —           —/—    retry 12s")
        let narrow = TestQueue.screen(Self.bars, width: 40, height: 11, state: state).lines()
        #expect(narrow[7] == "›↻ 電影-第一集-超長…      —    retry 12s")
    }

    @Test func everyLineIsExactlyTheScreenWidthFrom1To300Columns() {
        for width in 1...300 {
            let grid = TestQueue.screen(TestQueue.sketch, width: width, height: 10)
            for line in grid.lines(keepTrailingSpaces: true) {
                #expect(DisplayWidth.of(line) == width, "width \(width): \(line)")
            }
        }
    }

    @Test func shortScreensKeepARowAndTheStatusLine() {
        #expect(TestQueue.screen(TestQueue.sketch, width: 40, height: 1).lines() == [" Downloading 1/5    max 3 running (< >)"])
        #expect(TestQueue.screen(TestQueue.sketch, width: 40, height: 3).lines() == [
            " haul  ▶2 ·1 ⏸1 ✗1 ✓1      ↓ 16.1 MiB/s",
            "›▶ 電影.第01集.mp4    53.9%    4.1 MiB/s",
            " Downloading 1/5    max 3 running (< >)",
        ])
    }

    @Test func anEmptyListTeachesTheAddKey() {
        let lines = TestQueue.screen(QueueSnapshot(), width: 80, height: 8).lines()
        #expect(lines[0] == " haul  0 running · 0 waiting                           ↓ —   disk 80.2 GiB free")
        #expect(lines[2] == "   Name                  Progress                       Size  Speed/State    ETA")
        #expect(lines[3] == "   Nothing to download — press a to add a URL")
        #expect(lines[6] == " Downloading empty                                          max 3 running (< >)")
    }

    /// A closed run window says until when, at 80 columns too (the disk space goes first), and short at 40.
    @Test func aScheduleThatHoldsTheQueueSaysUntilWhenAt80Columns() {
        var snapshot = QueueSnapshot(rows: [TestQueue.row(1, "a.bin", .waiting)], sequence: 1)
        snapshot.schedule = "scheduled: resumes at 23:00"
        snapshot.scheduleHeldUntil = "23:00"
        let wide = TestQueue.screen(snapshot, width: 110, height: 8).lines()
        #expect(wide[0] == " haul  0 running · 1 waiting · paused until 23:00 by the schedule                    ↓ —   disk 80.2 GiB free")
        let eighty = TestQueue.screen(snapshot, width: 80, height: 8).lines()
        #expect(eighty[0] == " haul  ▶0 ·1 · paused until 23:00 by the schedule      ↓ —   disk 80.2 GiB free")
        let narrow = TestQueue.screen(snapshot, width: 40, height: 8).lines()
        #expect(narrow[0] == " haul  ▶0 ·1  paused till 23:00     ↓ —")
    }

    /// `max-overall-download-limit = 4M` while a 300 KiB/s cap window holds: the header names the cap that holds
    /// and why, at 120 and at 80 columns.
    @Test func theHeaderShowsTheCapThatHoldsAndWhy() {
        var snapshot = TestQueue.sketch
        snapshot.overallLimit = RateLimit(bytesPerSecond: 4 << 20)
        snapshot.scheduleCap = RateLimit(bytesPerSecond: 300 << 10)
        snapshot.schedule = "schedule: cap 300.0 KiB/s until 18:00"
        for width in [120, 80] {
            let top = TestQueue.screen(snapshot, width: width).lines()[0]
            #expect(top.contains("cap 300.0 KiB/s by the schedule"), "\(width): \(top)")
            #expect(!top.contains("4.0 MiB/s"), "\(width): \(top)")
        }
        snapshot.scheduleCap = RateLimit(bytesPerSecond: 8 << 20)
        #expect(TestQueue.screen(snapshot, width: 80).lines()[0].contains("cap 4.0 MiB/s (global)"))
        #expect(TestQueue.screen(snapshot, width: 40).lines()[0].contains("↓ 16.1 MiB/s"))
    }

    @Test func theCompletedListShowsFinishedTasks() {
        let state = UIState(list: .completed)
        let lines = TestQueue.screen(TestQueue.sketch, width: 80, height: 8, state: state).lines()
        #expect(lines[3] == "›✓ done.zip              ██████████████ 100.0%         10.0M         done")
        #expect(lines[6] == " Completed 1/1                                              max 3 running (< >)")
    }

    @Test func asciiGlyphsForTerminalsWithoutUTF8() {
        let lines = TestQueue.screen(TestQueue.sketch, width: 80, height: 10, glyphs: .ascii).lines()
        #expect(lines[0] == " haul  >2 .1 =1 x1 +1                         v 16.1 MiB/s   disk 80.2 GiB free")
        #expect(lines[3] == ">> 電影.第01集.mp4       #######-------  53.9%   552.0M/1.0G    4.1 MiB/s  2m11s")
    }

    @Test func theSelectedRowIsMarkedForThePainterAndTheRolesFollowTheColumns() {
        let grid = TestQueue.screen(TestQueue.sketch, width: 80)
        #expect((0..<80).allSatisfy { grid[3, $0].selected })
        #expect((0..<80).allSatisfy { !grid[4, $0].selected })
        #expect(grid[3, 0].role == .rowMarker)
        #expect(grid[3, 1].role == .stateRunning)
        #expect(grid[5, 1].role == .statePaused)
        #expect(grid[7, 1].role == .stateFailed)
        #expect(grid[3, 25].role == .barDone)
        #expect(grid[3, 37].role == .barRemaining)
        #expect(grid[7, 25].role == .rowError)
        #expect(grid[7, 70].role == .rowHint)
        // The wide first character of the name takes two cells.
        #expect(grid[3, 3].character == "電" && grid[3, 3].width == 2 && grid[3, 4].width == 0)
    }

    @Test func thePromptShowsUTF8TextAndScrollsWithItsCursor() {
        let state = UIState(mode: .prompt(PromptField("https://例え.jp/ファイル.zip")))
        let lines = TestQueue.screen(TestQueue.sketch, width: 40, height: 8, state: state).lines()
        #expect(lines[6] == " Add URL: https://例え.jp/ファイル.zip")
        #expect(lines[7] == " Enter add  Esc cancel  ^U clear")
        let long = PromptField("https://example.org/" + String(repeating: "abcdefghij", count: 5))
        let scrolled = TestQueue.screen(TestQueue.sketch, width: 40, height: 8, state: UIState(mode: .prompt(long)))
        #expect(scrolled.lines()[6] == " Add URL: cdefghijabcdefghijabcdefghij")
        #expect(scrolled[6, 38].role == .promptCursor)
    }

    @Test func aRefusedURLIsShownUnderThePromptWhichKeepsItsText() {
        let context = TestQueue.context(TestQueue.sketch)
        var state = UIState()
        for key in [KeyPress.character("a")] + "ftp://x".map({ KeyPress.character($0) }) + [.enter] {
            state = state.reduce(key, context: context).0
        }
        let lines = TestQueue.screen(TestQueue.sketch, width: 80, height: 8, state: state).lines()
        #expect(lines[6] == " Add URL: ftp://x")
        #expect(lines[7] == " 'ftp' URLs are not downloaded; only http and https are allowed")
    }

    @Test func aStoreWarningIsAOneLineBannerOverTheBottomRule() {
        var snapshot = TestQueue.sketch
        snapshot.warning = "could not save progress: disk I/O error\nretrying every second; the rows stay the same size"
        let layout = ScreenLayout(width: 60, height: 12)
        let grid = TestQueue.screen(snapshot, width: 60, height: 12)
        let line = try! #require(layout.bottomRule)
        #expect(grid.line(line).hasPrefix(" warning: could not save progress: disk I/O error"))
        #expect(grid.line(line).hasPrefix(" warning: could not save progress: disk I/O error retrying"), "a line break becomes a space")
        #expect(grid.line(line).trimmingCharacters(in: .whitespaces).hasSuffix("…"), "cut to the width, never wrapped")
        #expect(DisplayWidth.of(grid.line(line)) <= 60)
        #expect(Set(grid.roles(line)) == [.bannerWarning])
        // The rows keep their place: the list above is unchanged.
        let plain = TestQueue.screen(TestQueue.sketch, width: 60, height: 12)
        #expect(Array(grid.lines()[..<line]) == Array(plain.lines()[..<line]))
        #expect(!plain.line(line).contains("warning"))
    }

    /// The painter writes again only the rows that differ from the last frame: a second of a running download moves
    /// its row and the header, and the rows compared say so.
    @Test func aRowMatchesTheLastFrameUntilItsCellsChange() {
        let before = TestQueue.screen(TestQueue.sketch, width: 60, height: 12)
        var running = TestQueue.sketch
        running.rows[0].bytesReceived += 1 << 20
        let after = TestQueue.screen(running, width: 60, height: 12)
        let changed = (0..<after.height).filter { !after.rowMatches($0, in: before) }
        #expect(!changed.isEmpty && changed.count < after.height / 2, "changed rows: \(changed)")
        #expect((0..<before.height).allSatisfy { before.rowMatches($0, in: before) })
        #expect(!before.rowMatches(0, in: ScreenGrid(width: 61, height: 12)), "a grid of another size is painted whole")
    }
}
