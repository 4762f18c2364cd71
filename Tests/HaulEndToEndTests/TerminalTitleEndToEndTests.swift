import FaultServer
import Foundation
import HaulTestSupport
import Testing

/// The live list sets the terminal's title to the overall progress and gives the old title back when it quits.
@Suite(.timeLimit(.minutes(1)), .enabled(if: TmuxDriver.isAvailable)) struct TerminalTitleEndToEndTests {
    @Test func theTitleFollowsTheQueueAndIsRestoredOnQuit() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        var slow = FaultPlan.file(size: 4 << 20, seed: 71)
        slow.throttle = 256 << 10
        server.route("/slow.bin", slow)
        let run = try HaulRun()
        let haul = try HaulProcess.binary(named: "haul").path
        let tmux = try TmuxDriver(command: "printf \"\\033]2;my shell\\007\"; \(haul) --state-dir \(run.state) -d \(run.downloads) \(server.url("/slow.bin"))")
        defer { tmux.kill() }
        try await tmux.waitFor("slow.bin")
        let title = try await eventuallyValue("a progress title", timeout: .seconds(10)) { () -> String? in
            let title = tmux.title()
            return title.contains("1 running") && title.contains("%") ? title : nil
        }
        #expect(title.hasPrefix("haul "), "\(title)")
        try tmux.send("q")
        try await tmux.waitFor("EXITED=")
        try await eventually("the shell's title back", timeout: .seconds(5)) { tmux.title() == "my shell" }
    }
}
