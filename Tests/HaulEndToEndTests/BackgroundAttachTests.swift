import FaultServer
import Foundation
import HaulTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The live list attached to a background haul, and an owning list handing its downloads over to one,
/// driven through tmux.
@Suite(.timeLimit(.minutes(2)), .enabled(if: TmuxDriver.isAvailable)) struct BackgroundAttachTests {
    /// Plain `haul` shows the daemon's rows and says it is attached; `space` pauses and resumes in the
    /// daemon; `a` adds to the daemon; `q` closes only the view.
    @Test func attachedListSteersTheDaemon() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        var first = FaultPlan.file(size: 32 << 20, seed: 81)
        first.throttle = 256 << 10
        server.route("/first.bin", first)
        var second = FaultPlan.file(size: 32 << 20, seed: 82)
        second.throttle = 256 << 10
        server.route("/second.bin", second)
        server.route("/added.bin", .file(size: 200_000, seed: 83))
        let run = try HaulRun()
        let daemon = try await BackgroundDaemon(run, [server.url("/first.bin"), server.url("/second.bin")])
        defer { daemon.kill() }

        let haul = try HaulProcess.binary(named: "haul").path
        let tmux = try TmuxDriver(command: "\(haul) --state-dir \(run.state) -d \(run.downloads)")
        defer { tmux.kill() }
        // Speeds refreshed from the daemon's snapshots.
        try await tmux.waitFor("both rows running with speeds, attached", timeout: .seconds(30)) {
            $0.contains("attached to haul (pid \(daemon.pid))") && $0.contains("2 running")
                && row("first.bin", in: $0)?.contains("KiB/s") == true && row("second.bin", in: $0)?.contains("KiB/s") == true
        }

        // Each space goes to the daemon, and the row is drawn from its snapshot (the list predicts nothing on
        // screen): the row changes, and the daemon's own state agrees. Key → screen time is bench/rpc.sh's
        // "round trip to the daemon" figure.
        for _ in 0..<2 {
            try tmux.send("Space")
            try await tmux.waitFor("first.bin paused", timeout: .seconds(5)) { row("first.bin", in: $0)?.contains("paused") == true }
            #expect(HaulRun.state(of: 1, in: try await run.listStrict()) == "paused")
            try tmux.send("Space")
            try await tmux.waitFor("first.bin going again", timeout: .seconds(5)) {
                row("first.bin", in: $0).map { !$0.contains("paused") } == true
            }
            #expect(HaulRun.state(of: 1, in: try await run.listStrict()) != "paused")
        }

        // `a` adds to the daemon, which downloads it.
        try tmux.send("a")
        try await tmux.waitFor("URL")
        try tmux.send(server.url("/added.bin"), literal: true)
        try tmux.send("Enter")
        try await tmux.waitFor("Completed 1", timeout: .seconds(15))
        let rows = try await run.listStrict()
        #expect(HaulRun.state(of: 3, in: rows) == "completed")
        #expect(run.file("added.bin")?.count == 200_000)

        // `q` closes the view only: exit 0, the daemon keeps downloading.
        try tmux.send("q")
        let end = try await tmux.waitFor("exit status") { $0.contains("EXITED=") }
        #expect(end.contains("EXITED=0"))
        #expect(end.contains("background (pid \(daemon.pid))"))
        #expect(daemon.isAlive)
        let before = server.stats("/first.bin").bodyBytesSent + server.stats("/second.bin").bodyBytesSent
        try await eventually("bytes still flowing", timeout: .seconds(5)) {
            server.stats("/first.bin").bodyBytesSent + server.stats("/second.bin").bodyBytesSent > before + 64 << 10
        }
        try await run.expectStop()
    }

    /// Two lists attached at once (two tmux servers): a pause in one shows in the other, and back.
    @Test func twoAttachedListsSeeEachOther() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        var slow = FaultPlan.file(size: 32 << 20, seed: 84)
        slow.throttle = 256 << 10
        server.route("/shared.bin", slow)
        let run = try HaulRun()
        let daemon = try await BackgroundDaemon(run, [server.url("/shared.bin")])
        defer { daemon.kill() }

        let haul = try HaulProcess.binary(named: "haul").path
        let command = "\(haul) --state-dir \(run.state) -d \(run.downloads)"
        let one = try TmuxDriver(command: command)
        defer { one.kill() }
        let other = try TmuxDriver(command: command, width: 80, height: 16)
        defer { other.kill() }
        for list in [one, other] {
            try await list.waitFor("attached, running", timeout: .seconds(30)) { $0.contains("attached to haul (pid \(daemon.pid))") && $0.contains("1 running") }
        }

        // Pushed to every attached list on the change: the other list shows it too, each way.
        try one.send("Space")
        try await other.waitFor("the other list showing the pause", timeout: .seconds(5)) {
            row("shared.bin", in: $0)?.contains("paused") == true && $0.contains("1 paused")
        }
        try await one.waitFor("1 paused")
        try other.send("Space")
        try await one.waitFor("the first list showing the resume", timeout: .seconds(5)) {
            row("shared.bin", in: $0).map { !$0.contains("paused") } == true
        }
        try await other.waitFor("resumed in the list that asked") { row("shared.bin", in: $0).map { !$0.contains("paused") } == true }

        for list in [one, other] {
            try list.send("q")
            let end = try await list.waitFor("exit status") { $0.contains("EXITED=") }
            #expect(end.contains("EXITED=0"))
        }
        #expect(daemon.isAlive)
        try await run.expectStop()
    }

    /// `d` in a list that owns the downloads: the list exits, a background haul finishes the file
    /// byte-identically with at most 2 % fetched twice (counted by the server); plain `haul` reattaches.
    @Test func detachHandsOverToABackgroundHaul() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let size: Int64 = 6 << 20
        var plan = FaultPlan.file(size: size, seed: 85)
        plan.throttle = 256 << 10  // 24 s for the owning list: the handover comes well before the end
        server.route("/handover.bin", plan)
        var kept = FaultPlan.file(size: 1 << 20, seed: 86)
        kept.throttle = 64 << 10
        server.route("/kept.bin", kept)
        let run = try HaulRun()
        let haul = try HaulProcess.binary(named: "haul").path
        let owning = try TmuxDriver(
            command: "\(haul) --state-dir \(run.state) -d \(run.downloads) \(server.url("/handover.bin")) \(server.url("/kept.bin"))")
        defer { owning.kill() }

        try await owning.waitFor("an owning list, running", timeout: .seconds(30)) { $0.contains("handover.bin") && $0.contains("2 running") }
        // A task the user paused in the list stays paused in the background haul.
        try owning.send("j")
        try owning.send("Space")
        try await owning.waitFor("1 paused")
        #expect(!owning.screen().contains("attached to haul"))
        try await eventually("part of the file sent", timeout: .seconds(20)) {
            server.stats("/handover.bin").bodyBytesSent > 512 << 10
        }
        // The owning list's response keeps its throttle; the background haul's request gets the rest at full speed.
        var fast = plan
        fast.throttle = nil
        server.route("/handover.bin", fast)
        try owning.send("d")
        let end = try await owning.waitFor("the list exited", timeout: .seconds(20)) { $0.contains("EXITED=") }
        #expect(end.contains("EXITED=0"))
        let pid = try #require(BackgroundDaemon.pid(in: end.split(separator: "\n").first { $0.contains("background (pid") }.map(String.init) ?? ""))
        defer { if ProcessStat(pid: pid)?.isAlive == true { kill(pid, SIGKILL) } }
        #expect(ProcessStat(pid: pid)?.isAlive == true)

        try await eventually("the background haul completed the file", timeout: .seconds(40)) {
            HaulRun.state(of: 1, in: try await run.listStrict()) == "completed"
        }
        expectSameBytes(run.file("handover.bin"), plan.body.bytes())
        #expect(HaulRun.state(of: 2, in: try await run.listStrict()) == "paused")
        let stats = server.stats("/handover.bin")
        let twice = stats.bodyBytesSent - size
        print("detach handover: \(twice) bytes fetched twice of \(size) (\(Double(twice) * 100 / Double(size)) %), requests \(stats.requests), ranges \(stats.rangeHeaders)")
        #expect(stats.requests >= 2)
        // The background haul went on from the middle: from what the owning list had made durable.
        let lastRange = try #require(stats.rangeHeaders.last ?? nil)
        #expect(lastRange.hasPrefix("bytes=") && lastRange.hasSuffix("-"))
        let resumedAt = try #require(Int64(lastRange.dropFirst("bytes=".count).dropLast()))
        #expect(resumedAt >= 256 << 10 && resumedAt < size)
        #expect(twice >= 0)
        #expect(twice * 50 <= size, "at most 2 % fetched twice")

        let attached = try TmuxDriver(command: "\(haul) --state-dir \(run.state) -d \(run.downloads)")
        defer { attached.kill() }
        let screen = try await attached.waitFor("attached to haul (pid \(pid))", timeout: .seconds(30))
        #expect(screen.contains("Completed 1"))
        try attached.send("q")
        try await attached.waitFor("exit status") { $0.contains("EXITED=") }
        try await run.expectStop()
        try await eventually("the background haul ended", timeout: .seconds(5)) { ProcessStat(pid: pid)?.isAlive != true }
    }
}
