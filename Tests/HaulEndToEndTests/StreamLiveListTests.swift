import FaultServer
import Foundation
import HaulTestSupport
import Testing

/// A stream in the live list, through tmux as a person would: added at the `a` prompt, its row shows the segments
/// and an estimated total, the details pane the stream and its segment map, and space pauses and resumes it.
@Suite(.timeLimit(.minutes(2)), .enabled(if: TmuxDriver.isAvailable)) struct StreamLiveListTests {
    @Test func aStreamAddedAtThePromptShowsItsSegmentsPausesAndFinishes() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        // 40 segments of 128 KiB, each connection at 256 KiB/s: about 5 s over 4 connections.
        let stream = try HLSStream(server, name: "live", query: "segments=40&segsize=128k&conncap=256k")
        let run = try HaulRun()
        let haul = try HaulProcess.binary(named: "haul").path
        let tmux = try TmuxDriver(command: "\(haul) --state-dir \(run.state) -d \(run.downloads) -s 4")
        defer { tmux.kill() }

        try await tmux.waitFor("Nothing to download")
        try tmux.send("a")
        try await tmux.waitFor("URL")
        try tmux.send(stream.url(), literal: true)
        try tmux.send("Enter")
        // The row: the file's name, seg N/40 and an estimated total.
        let row = try await tmux.waitFor("a stream row with segments and an estimate", timeout: .seconds(20)) { screen in
            screen.contains("index.ts") && screen.range(of: #"seg \d+/40"#, options: .regularExpression) != nil
                && screen.range(of: #"/~\d"#, options: .regularExpression) != nil
        }
        #expect(row.contains("1 running"), "\(row)")

        try tmux.send("Enter")
        let details = try await tmux.waitFor("the details pane of the stream") { $0.contains("Stream") && $0.contains("40 segments") }
        #expect(details.contains("media segments"), "\(details)")
        try tmux.send("Escape")

        try tmux.send("Space")
        try await tmux.waitFor("1 paused")
        let paused = try await eventuallySteady("no segment requested while paused", quiet: .milliseconds(600), timeout: .seconds(5)) {
            stream.segmentRequests().reduce(0, +)
        }
        #expect(paused < 40, "paused before the end")
        try tmux.send("Space")
        try await eventually("index.ts completed", timeout: .seconds(40)) { run.file("index.ts") != nil }
        expectSameBytes(run.file("index.ts"), stream.expectedOutput())
        try tmux.send("q")
        try await tmux.waitFor("exit") { $0.contains("EXITED=0") }
    }
}
