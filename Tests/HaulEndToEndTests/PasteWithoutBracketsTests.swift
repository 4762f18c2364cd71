import FaultServer
import Foundation
import HaulTestSupport
import Testing

/// 100 URLs pasted into the add prompt of a terminal without bracketed paste arrive as keys: they are text, each
/// line a URL that is added, and none of their letters acts on the list.
@Suite(.timeLimit(.minutes(2)), .enabled(if: TmuxDriver.isAvailable, "tmux is not installed"))
struct PasteWithoutBracketsTests {
    @Test func aHundredPastedLinesAreAHundredURLsAndNoKeys() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        var slow = FaultPlan.file(size: 64 << 20, seed: 71)
        slow.throttle = 256 << 10
        server.route("/slow.bin", slow)
        let run = try HaulRun()
        let haul = try HaulProcess.binary(named: "haul").path
        let tmux = try TmuxDriver(command: "\(haul) --state-dir \(run.state) -d \(run.downloads) -j 1 \(server.url("/slow.bin"))")
        defer { tmux.kill() }
        try await tmux.waitFor("a running row") { $0.contains("slow.bin") && $0.contains("1 running") }

        try tmux.send("a")
        try await tmux.waitFor("the prompt") { $0.contains("URL") }
        // Letters that are keys in the list (p pauses, a adds, q quits, d detaches), and a line break after each URL,
        // one of them at the 256th character as before.
        let urls = (1...100).map { server.url("/paq-\($0)-d.bin") }
        try tmux.send(urls.joined(separator: "\n") + "\n", literal: true)
        // Each pasted line is a URL: all are added, as the line breaks ask, and nothing else happens.
        try await tmux.waitFor("the tasks added") { $0.contains("added 100 URLs") }

        let tasks = try await run.list()
        #expect(tasks.count == 101)
        #expect(tasks.first { ($0["name"] as? String) == "slow.bin" }?["state"] as? String == "running")
        #expect(!tmux.screen().contains("EXITED="))
    }
}
