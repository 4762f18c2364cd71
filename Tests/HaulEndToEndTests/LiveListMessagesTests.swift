import FaultServer
import Foundation
import HaulTestSupport
import Testing

/// Messages written while the live list held stderr are replayed on the terminal as they were: no timestamps
/// (those are for a log file, `haul.log`), although the list held them in a file meanwhile.
@Suite(.timeLimit(.minutes(1)), .enabled(if: TmuxDriver.isAvailable, "tmux is not installed"))
struct LiveListMessagesTests {
    @Test func aMessageHeldDuringTheListIsReplayedWithoutATimestamp() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        server.route("/held.bin", .file(size: 10_000, seed: 96))
        let run = try HaulRun()
        let haul = try HaulProcess.binary(named: "haul").path
        let tmux = try TmuxDriver(command: "\(haul) --state-dir \(run.state) -d \(run.downloads) "
            + "--on-download-complete /nonexistent/hook '\(server.url("/held.bin"))'")
        defer { tmux.kill() }
        _ = try await tmux.waitFor("1 done")
        try tmux.send("q")
        let screen = try await tmux.waitFor("EXITED=")
        let line = try #require(screen.split(separator: "\n").first { $0.contains("/nonexistent/hook") }, "\(screen)")
        #expect(line.hasPrefix("haul: hook /nonexistent/hook could not start"), "\(screen)")
    }
}
