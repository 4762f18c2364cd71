import FaultServer
import Foundation
import HaulTestSupport
import Testing

/// Another shell steers a running haul through the shared SQLite queue.
@Suite(.timeLimit(.minutes(2))) struct ControlPlaneTests {
    @Test func addPauseResumeRemoveFromAnotherProcess() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        var slow = FaultPlan.file(size: 6 << 20, seed: 31)
        slow.throttle = 512 << 10
        server.route("/slow.bin", slow)
        server.route("/later.bin", .file(size: 200_000, seed: 32))
        var doomed = FaultPlan.file(size: 6 << 20, seed: 33)
        doomed.throttle = 256 << 10
        server.route("/doomed.bin", doomed)
        let run = try HaulRun()
        let runner = try run.start(["--headless", "--json", server.url("/slow.bin")])
        try await eventually("task 1 running", timeout: .seconds(10)) { !events(runner, named: "started", id: 1).isEmpty }

        // A second transferring process is refused, naming the pid.
        let (refused, _, refusal) = try await run.run(["--headless"])
        #expect(refused == 2)
        #expect(refusal.contains("pid \(runner.pid)"))

        let (added, _, _) = try await run.run(["add", "-d", run.downloads, server.url("/later.bin"), server.url("/doomed.bin")])
        #expect(added == 0)
        try await eventually("the runner picks up the added task", timeout: .seconds(3)) {
            !events(runner, named: "completed", id: 2).isEmpty
        }
        #expect(run.file("later.bin")?.count == 200_000)

        #expect(try await run.run(["pause", "1"]).0 == 0)
        try await eventually("task 1 paused", timeout: .seconds(3)) { !events(runner, named: "paused", id: 1).isEmpty }
        let pausedAt = try #require(events(runner, named: "paused", id: 1).first?["bytes"] as? Int)
        try await eventually("task 3 running", timeout: .seconds(5)) { !events(runner, named: "started", id: 3).isEmpty }

        slow.throttle = nil
        server.route("/slow.bin", slow)
        #expect(try await run.run(["resume", "1"]).0 == 0)
        try await eventually("task 1 resumed", timeout: .seconds(3)) { events(runner, named: "started", id: 1).count == 2 }

        #expect(try await run.run(["remove", "3", "--delete-file"]).0 == 0)
        try await eventually("task 3 removed", timeout: .seconds(3)) { !events(runner, named: "removed", id: 3).isEmpty }
        try await eventually("part file of task 3 deleted", timeout: .seconds(3)) {
            !FileManager.default.fileExists(atPath: run.downloads + "/doomed.bin.part")
        }
        #expect(try await runner.waitForExit(timeout: .seconds(30)) == 0)
        expectSameBytes(run.file("slow.bin"), slow.body.bytes())
        #expect(server.stats("/slow.bin").rangeHeaders.last == "bytes=\(pausedAt)-")
        let states = try await run.list().map { $0["state"] as? String }
        #expect(states == ["completed", "completed"])
    }
}
