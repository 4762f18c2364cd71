import FaultServer
import Foundation
import HaulTestSupport
import Testing

/// The live list driven through tmux, as a person would: rows, pause and resume, add, resize, quit.
@Suite(.timeLimit(.minutes(2)), .enabled(if: TmuxDriver.isAvailable)) struct LiveListTests {
    @Test func pauseResumeAddResizeAndQuit() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        var slow = FaultPlan.file(size: 8 << 20, seed: 61)
        slow.throttle = 1 << 20
        server.route("/slow.bin", slow)
        var other = FaultPlan.file(size: 6 << 20, seed: 62)
        other.throttle = 512 << 10
        server.route("/電影.第01集.mp4", other)
        server.route("/added.bin", .file(size: 300_000, seed: 63))
        let run = try HaulRun()
        let haul = try HaulProcess.binary(named: "haul").path
        let tmux = try TmuxDriver(command: "\(haul) --state-dir \(run.state) -d \(run.downloads) -j 3 -s 1 "
            + "\(server.url("/slow.bin")) '\(server.url("/%E9%9B%BB%E5%BD%B1.%E7%AC%AC01%E9%9B%86.mp4"))'")
        defer { tmux.kill() }

        let first = try await tmux.waitFor("rows with progress") { $0.contains("slow.bin") && $0.contains("電影.第01集.mp4") && $0.contains("MiB/s") }
        #expect(first.contains("2 running"))
        #expect(first.contains("space pause/resume"))

        // Pause the selected (first) row: it shows paused and the server stops sending.
        try tmux.send("Space")
        try await tmux.waitFor("1 paused")
        let sentAtPause = server.stats("/slow.bin").bodyBytesSent
        // The server's count of body bytes no longer moves (the throttled body goes out in slices every
        // 50 ms; 300 ms unchanged is six slices missed), short of the whole file.
        let stopped = try await eventuallySteady("the server's body bytes for slow.bin steady", quiet: .milliseconds(300), timeout: .seconds(5)) {
            server.stats("/slow.bin").bodyBytesSent
        }
        #expect(stopped < 8 << 20)
        #expect(sentAtPause > 0)

        // Resume at full speed; it completes and moves to the Completed list.
        slow.throttle = nil
        server.route("/slow.bin", slow)
        try tmux.send("Space")
        // The other download may finish first on a loaded machine: wait for this one's file.
        try await eventually("slow.bin completed", timeout: .seconds(20)) { run.file("slow.bin") != nil }
        expectSameBytes(run.file("slow.bin"), slow.body.bytes())
        #expect(server.stats("/slow.bin").rangeHeaders.last != nil)

        // Add a URL through the prompt; it downloads.
        try tmux.send("a")
        try await tmux.waitFor("URL")
        try tmux.send(server.url("/added.bin"), literal: true)
        try tmux.send("Enter")
        try await eventually("added.bin completed", timeout: .seconds(20)) { run.file("added.bin") != nil }
        #expect(run.file("added.bin")?.count == 300_000)

        // Narrow, then wide again: the rows re-lay out without wrapping.
        try tmux.resize(width: 50, height: 20)
        let narrow = try await tmux.waitFor("50-column layout") { screen in
            screen.contains("電影") && screen.split(separator: "\n").allSatisfy { $0.count <= 50 }
        }
        #expect(!narrow.contains("space pause/resume  a add  x remove  Enter details"))
        try tmux.resize(width: 100, height: 20)
        try await tmux.waitFor("space pause/resume")

        try tmux.send("q")
        // The pane then shows the exit status and `stty -a`: the terminal must be back in cooked mode.
        let end = try await tmux.waitFor("exit status and terminal modes") { $0.contains("EXITED=") && $0.contains("TTY:") }
        #expect(end.contains("EXITED=0"))
        #expect(end.contains("TTY: icanon echo"))
        let rows = try await run.list()
        #expect(rows.count == 3)
        #expect(rows.contains { $0["state"] as? String == "waiting" || $0["state"] as? String == "completed" })
    }

    /// Keys typed faster than the controller answers each act: `>>>` raises the limit by three, and two
    /// spaces pause and then resume the selected task.
    @Test func keysInOneBurstEachAct() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        var slow = FaultPlan.file(size: 64 << 20, seed: 64)
        slow.throttle = 512 << 10
        server.route("/burst.bin", slow)
        let run = try HaulRun()
        let haul = try HaulProcess.binary(named: "haul").path
        let tmux = try TmuxDriver(command: "\(haul) --state-dir \(run.state) -d \(run.downloads) -j 3 \(server.url("/burst.bin"))")
        defer { tmux.kill() }
        try await tmux.waitFor("a running row") { $0.contains("burst.bin") && $0.contains("1 running") && $0.contains("max 3 running") }

        try tmux.send(">>>", literal: true)
        try await tmux.waitFor("max 6 running")
        try tmux.send("  ", literal: true)
        // Pause then resume: the task ends running again, never left paused.
        try await eventually("the pause and the resume to reach the server", timeout: .seconds(10)) {
            server.stats("/burst.bin").requests >= 2
        }
        let screen = try await tmux.waitFor("the task running again") { $0.contains("1 running") && !$0.contains("paused") }
        #expect(screen.contains("max 6 running"))
        try tmux.send("q")
        let end = try await tmux.waitFor("exit status") { $0.contains("EXITED=") }
        #expect(end.contains("EXITED=0"))
    }

    /// `q` after a task failed in the session exits with status 1, as a headless run does.
    @Test func quitAfterAFailureExitsWithStatus1() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        server.route("/gone.bin", .status(404))
        let run = try HaulRun()
        let haul = try HaulProcess.binary(named: "haul").path
        let tmux = try TmuxDriver(command: "\(haul) --state-dir \(run.state) -d \(run.downloads) \(server.url("/gone.bin"))")
        defer { tmux.kill() }
        try await tmux.waitFor("1 failed")
        try tmux.send("q")
        let end = try await tmux.waitFor("exit status") { $0.contains("EXITED=") }
        #expect(end.contains("EXITED=1"))
    }

    /// At 40×12 neither help nor details fits: PgDn and End bring later lines into view.
    @Test func eGivesARunningDownloadANewLinkAndItFinishesFromTheKeptBytes() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        var slow = FaultPlan.file(size: 8 << 20, seed: 64)
        slow.throttle = 1 << 20
        server.route("/old.bin", slow)
        server.route("/new.bin", FaultPlan.file(size: 8 << 20, seed: 64))
        let run = try HaulRun()
        let haul = try HaulProcess.binary(named: "haul").path
        let tmux = try TmuxDriver(command: "\(haul) --state-dir \(run.state) -d \(run.downloads) -s 1 -o film.bin \(server.url("/old.bin"))")
        defer { tmux.kill() }
        try await tmux.waitFor("the row with progress") { $0.contains("film.bin") && $0.contains("MiB/s") }

        try tmux.send("e")
        let prompt = try await tmux.waitFor("New link for #1: ")
        #expect(prompt.contains(server.url("/old.bin")), "the prompt is filled with the current link")
        try tmux.send("C-u")
        try await tmux.waitFor("an empty prompt") { $0.contains("New link for #1:") && !$0.contains("/old.bin") }
        try tmux.send(server.url("/new.bin"), literal: true)
        try tmux.send("Enter")
        try await tmux.waitFor("the download done", timeout: .seconds(30)) { $0.contains("1 done") }
        expectSameBytes(run.file("film.bin"), slow.body.bytes())
        // The new link served only what the old one had not.
        let range = try #require(server.stats("/new.bin").rangeHeaders.first ?? nil)
        #expect(range != "bytes=0-", "\(range)")
        #expect(server.stats("/new.bin").bodyBytesSent < 8 << 20)
        try tmux.send("q")
        try await tmux.waitFor("exit status") { $0.contains("EXITED=") }
    }

    @Test func helpAndDetailsScrollOnASmallTerminal() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        server.route("/gone.bin", .status(404))
        let run = try HaulRun()
        let haul = try HaulProcess.binary(named: "haul").path
        let tmux = try TmuxDriver(
            command: "\(haul) --state-dir \(run.state) -d \(run.downloads) \(server.url("/gone.bin"))", width: 40, height: 12)
        defer { tmux.kill() }
        try await tmux.waitFor("the failed row") { $0.contains("gone.bin") && $0.contains("✗") }

        try tmux.send("?")
        let first = try await tmux.waitFor("↓ more  PgDn")
        #expect(first.contains("Move around"))
        #expect(!first.contains("add URLs"), "the Tasks section goes on below the first page")
        try tmux.send("NPage")
        let paged = try await tmux.waitFor("the second page of help") { $0.contains("add URLs") && $0.contains("↑ more") }
        #expect(!paged.contains("Move around"))
        try tmux.send("End")
        let end = try await tmux.waitFor("Enter         details: close")
        #expect(!end.contains("↓ more"), "nothing below the last page")
        try tmux.send("Escape")
        try await tmux.waitFor("help closed") { !$0.contains("haul — keys") && $0.contains("gone.bin") }

        try tmux.send("Enter")
        // The box and its scroll hint may reach the screen in two writes: wait for the whole box.
        let details = try await tmux.waitFor("the details box with more below") { $0.contains("┌─ details") && $0.contains("↓ more") }
        #expect(!details.contains("Task id"))
        try tmux.send("End")
        try await tmux.waitFor("the end of the details") { $0.contains("Task id") && $0.contains("↑ more") }
        try tmux.send("Escape")
        try await tmux.waitFor("details closed") { !$0.contains("┌─ details") }
        try tmux.send("q")
        try await tmux.waitFor("exit status") { $0.contains("EXITED=") }
    }
}
