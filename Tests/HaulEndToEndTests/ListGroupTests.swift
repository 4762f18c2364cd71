import FaultServer
import Foundation
import HaulTestSupport
import Testing

/// A group in the live list, through tmux at 80×24 (DESIGN §12): `haul -i links.txt` with three links is one row
/// named after the file, Enter opens it with its tasks beneath, and one space pauses all three.
@Suite(.timeLimit(.minutes(1)), .enabled(if: TmuxDriver.isAvailable)) struct ListGroupTests {
    @Test func anInputFileIsOneGroupRowThatOpensAndPausesAsOne() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let names = ["one.bin", "two.bin", "three.bin"]
        let run = try HaulRun()
        let input = run.root.path + "/links.txt"
        // Slow enough to be running still when the space comes.
        try names.map { server.url("/gen/\($0)?size=64m&throttle=32k") }.joined(separator: "\n")
            .write(toFile: input, atomically: true, encoding: .utf8)
        let haul = try HaulProcess.binary(named: "haul").path
        let tmux = try TmuxDriver(
            command: "\(haul) --state-dir \(run.state) -d \(run.downloads) -j 5 -s 1 -i \(input)", width: 80, height: 24)
        defer { tmux.kill() }

        /// The screen's lines that name `text`.
        func lines(_ screen: String, naming text: String) -> [Substring] {
            screen.split(separator: "\n").filter { $0.contains(text) }
        }
        let closed = try await tmux.waitFor("one running group row") { screen in
            lines(screen, naming: "▸ links.txt").first.map { $0.contains("0/3 done") && $0.contains("/s") } ?? false
        }
        #expect(!names.contains { closed.contains($0) }, "its tasks are hidden while it is closed:\n\(closed)")
        #expect(closed.contains("Downloading 3 "), "the tab counts the group's tasks:\n\(closed)")

        try tmux.send("Enter")
        let open = try await tmux.waitFor("the group open, its tasks beneath") { screen in
            screen.contains("▾ links.txt") && names.allSatisfy { !lines(screen, naming: "  \($0)").isEmpty }
        }
        let order = open.split(separator: "\n").compactMap { line in
            line.contains("links.txt") ? "links.txt" : names.first { line.contains($0) }
        }
        #expect(order == ["links.txt"] + names, "the group's row, then its tasks in queue order:\n\(open)")

        try tmux.send("Space")
        try await tmux.waitFor("the group and its three tasks paused") { screen in
            (["links.txt"] + names).allSatisfy { name in lines(screen, naming: name).first?.contains("paused") == true }
        }
        let stored = try await eventuallyValue("three paused tasks of group links.txt", timeout: .seconds(10)) { () -> [[String: Any]]? in
            let rows = (try? await run.list()) ?? []
            let paused = rows.filter { $0["state"] as? String == "paused" && $0["group"] as? String == "links.txt" }
            return paused.count == 3 ? rows : nil
        }
        #expect(stored.count == 3)
        try tmux.send("q")
        let end = try await tmux.waitFor("exit status") { $0.contains("EXITED=") }
        #expect(end.contains("EXITED=0"))
    }
}
