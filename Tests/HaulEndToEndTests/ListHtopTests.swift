import FaultServer
import Foundation
import HaulTestSupport
import Testing

/// The list as an htop user drives it, through tmux at 80×24 and 40×12: the filter, the column headings, sorting,
/// marks, the mouse and the help (DESIGN §12).
@Suite(.timeLimit(.minutes(2)), .enabled(if: TmuxDriver.isAvailable)) struct ListHtopTests {
    static let sizes = [(80, 24), (40, 12)]

    /// The screen's lines that show a task row whose name contains `text`.
    static func rows(_ screen: String, containing text: String) -> [Substring] {
        screen.split(separator: "\n").filter { $0.contains(text) }
    }

    /// 300 paused tasks, 10 of them `match-N.iso`: the filter narrows to the 10 as it is typed, Enter keeps it in the
    /// header, Esc brings the 300 back. At 80×24 the help then fits the screen with no cut line.
    @Test(arguments: sizes) func theFilterNarrows300TasksTo10AndEscRestoresThem(width: Int, height: Int) async throws {
        let run = try HaulRun()
        let list = (1...300).map { id in "http://127.0.0.1:9/" + (id % 30 == 0 ? "match-\(id).iso" : "file-\(id).bin") }
        // On the command line, not from an input file: those 300 would be one group's row (ListGroupTests).
        #expect(try await run.run(["add"] + list, directory: true).0 == 0)
        #expect(try await run.run(["pause", "--all"]).0 == 0)
        let haul = try HaulProcess.binary(named: "haul").path
        let tmux = try TmuxDriver(command: "\(haul) --state-dir \(run.state) -d \(run.downloads)", width: width, height: height)
        defer { tmux.kill() }
        let first = try await tmux.waitFor("the first frame") { $0.contains("Downloading 300 ") && $0.contains("Speed/State") }
        #expect(first.split(separator: "\n")[2].hasPrefix("   Name"), "the column headings under the list names")
        #expect(first.contains("Speed/State"))

        try tmux.send("/")
        try tmux.send("match", literal: true)
        // The filter's line is drawn last: a capture of a frame tmux has only begun to read has the new header but
        // the old rows (seen on a loaded machine).
        let narrowed = try await tmux.waitFor("the 10 matching tasks") { $0.contains("Downloading 10 ") && $0.contains("Filter: match") }
        let shown = Self.rows(narrowed, containing: "match-")
        #expect(shown.count == min(10, height - 6), "\n\(narrowed)")
        #expect(Self.rows(narrowed, containing: "file-").isEmpty)
        #expect(narrowed.contains("Filter: match"))
        try tmux.send("Enter")
        let kept = try await tmux.waitFor("the kept filter in the header") { !$0.contains("Filter:") && $0.contains("/match") }
        #expect(kept.contains("Downloading 10 "))
        try tmux.send("Escape")
        let restored = try await tmux.waitFor("the 300 again") { $0.contains("Downloading 300 ") && $0.contains("file-") }
        #expect(!restored.contains("/match"))

        if width == 80 {
            try tmux.send("F1")
            let help = try await tmux.waitFor("haul — keys")
            #expect(!help.contains("…"), "no cut line:\n\(help)")
            #expect(!help.contains("↓ more"), "nothing to scroll to")
            for keys in ["x Del F9", "/ F3", "o F6", "q F10", "m/M", "C ", "R ", "e ", "z ", "</>", "[/]"] {
                #expect(help.contains(keys), "\(keys) in the help")
            }
            #expect(help.split(separator: "\n").allSatisfy { $0.count <= 80 })
        }
        try tmux.send("Escape")
        try await tmux.waitFor("the help closed") { !$0.contains("haul — keys") }
        try tmux.send("F10")
        let end = try await tmux.waitFor("exit status") { $0.contains("EXITED=") }
        #expect(end.contains("EXITED=0"))
    }

    /// Five running downloads at different speeds: sorting by name and by speed reorders the rows (and a click on
    /// the sorted heading goes back to queue order), a click selects a row, and three marked rows pause together
    /// with one space while the other two run on.
    @Test(arguments: sizes) func sortMarksAndTheMouse(width: Int, height: Int) async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let speeds = ["c-slow.bin": 8 << 10, "a-mid.bin": 96 << 10, "b-fast.bin": 768 << 10, "d-two.bin": 8 << 10, "e-one.bin": 8 << 10]
        for (name, speed) in speeds {
            var plan = FaultPlan.file(size: 64 << 20, seed: UInt64(speed))
            plan.throttle = speed
            server.route("/" + name, plan)
        }
        let order = ["c-slow.bin", "a-mid.bin", "b-fast.bin", "d-two.bin", "e-one.bin"]
        let run = try HaulRun()
        let haul = try HaulProcess.binary(named: "haul").path
        let urls = order.map { server.url("/" + $0) }.joined(separator: " ")
        let tmux = try TmuxDriver(command: "\(haul) --state-dir \(run.state) -d \(run.downloads) -j 5 -s 1 \(urls)", width: width, height: height)
        defer { tmux.kill() }
        /// The names in screen order.
        func shownOrder(_ screen: String) -> [String] {
            screen.split(separator: "\n").compactMap { line in order.first { line.contains($0) } }
        }
        let running = try await tmux.waitFor("five rows in queue order") { shownOrder($0) == order }
        let lines = running.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[2].hasPrefix("   Name") && lines[2].contains("Speed/State"), "\(running)")

        try tmux.send("o")
        // Each wait reads the whole order: a screen read between two lines' updates shows half of one.
        try await tmux.waitFor("sorted by name") { $0.contains("Name▾") && shownOrder($0) == order.sorted() }
        try tmux.send("ooo", literal: true)
        try await tmux.waitFor("sorted by speed, fastest first", timeout: .seconds(20)) { screen in
            let shown = shownOrder(screen)
            return screen.contains("Speed/State▾") && shown.count == 5 && Array(shown.prefix(2)) == ["b-fast.bin", "a-mid.bin"]
        }
        // A click on the sorted heading: queue order again.
        let headingLine = 3, speedColumn = width - 12
        try tmux.send("\u{1B}[<0;\(speedColumn);\(headingLine)M", literal: true)
        try await tmux.waitFor("queue order again") { !$0.contains("▾") && shownOrder($0) == order }

        // A click on the third row selects it (rows start on line 4).
        try tmux.send("\u{1B}[<0;8;6M", literal: true)
        try await tmux.waitFor("Downloading 3/5")

        // Mark the first three (m walks down), then one space pauses those three only.
        try tmux.send("g")
        try await tmux.waitFor("Downloading 1/5")
        try tmux.send("mmm", literal: true)
        try await tmux.waitFor("3 marked")
        try tmux.send("Space")
        try await tmux.waitFor("three paused rows") { screen in
            Self.rows(screen, containing: "paused").filter { line in order.contains { line.contains($0) } }.count == 3
        }
        let states = try await eventuallyValue("the queue's states", timeout: .seconds(10)) { () -> [String: String]? in
            let rows = try? await run.list()
            let byName = Dictionary(uniqueKeysWithValues: (rows ?? []).compactMap { row -> (String, String)? in
                guard let name = row["name"] as? String, let state = row["state"] as? String else { return nil }
                return (name, state)
            })
            return byName.values.filter { $0 == "paused" }.count == 3 ? byName : nil
        }
        #expect(states["c-slow.bin"] == "paused" && states["a-mid.bin"] == "paused" && states["b-fast.bin"] == "paused")
        #expect(states["d-two.bin"] == "running" && states["e-one.bin"] == "running")
        try tmux.send("q")
        let end = try await tmux.waitFor("exit status") { $0.contains("EXITED=") }
        #expect(end.contains("EXITED=0"))
    }
}
