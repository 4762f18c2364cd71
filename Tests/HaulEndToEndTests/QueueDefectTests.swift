import FaultServer
import Foundation
import HaulTestSupport
import Testing

/// The QA pass's queue defects (issue 6 §8), each driven through the built binary.
@Suite(.timeLimit(.minutes(2))) struct QueueDefectTests {
    /// A file served slowly enough that nothing in these tests finishes it by accident.
    static func slow(size: Int64 = 4 << 20, seed: UInt64, rate: Int = 256 << 10) -> FaultPlan {
        var plan = FaultPlan.file(size: size, seed: seed)
        plan.throttle = rate
        return plan
    }

    /// The id `haul add` printed (`#7 name`).
    static func addedID(_ stdout: String) -> Int? {
        stdout.split(separator: "\n").first.flatMap { line in
            line.hasPrefix("#") ? Int(line.dropFirst().prefix { $0.isNumber }) : nil
        }
    }

    /// Starts every command at once, then waits for all of them; returns their exit statuses.
    static func storm(_ run: HaulRun, _ commands: [[String]]) async throws -> [Int32] {
        let processes = try commands.map { try run.start($0, directory: false) }
        var statuses: [Int32] = []
        for process in processes { statuses.append(try await process.waitForExit(timeout: .seconds(30))) }
        return statuses
    }

    @Test func pauseAndRemoveRightAfterAddAreCarriedOut() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let rounds = 5
        for round in 0..<rounds {
            server.route("/paused-\(round).bin", Self.slow(seed: UInt64(round)))
            server.route("/removed-\(round).bin", Self.slow(seed: UInt64(100 + round)))
        }
        let run = try HaulRun()
        let runner = try run.start(["--headless", "--keep-running", "--json"])
        defer { runner.terminate() }
        var paused: [Int] = []
        var removed: [Int] = []
        for round in 0..<rounds {
            // No wait between the two commands: the runner may not have loaded the task yet.
            let (added, out, addError) = try await run.run(["add", "-d", run.downloads, server.url("/paused-\(round).bin")])
            #expect(added == 0, "\(addError)")
            let pauseID = try #require(Self.addedID(out))
            let (pauseStatus, _, pauseError) = try await run.run(["pause", "\(pauseID)"])
            #expect(pauseStatus == 0, "\(pauseError)")
            paused.append(pauseID)

            let (_, removeOut, _) = try await run.run(["add", "-d", run.downloads, server.url("/removed-\(round).bin")])
            let removeID = try #require(Self.addedID(removeOut))
            let (removeStatus, _, removeError) = try await run.run(["remove", "\(removeID)"])
            #expect(removeStatus == 0, "\(removeError)")
            removed.append(removeID)
        }
        try await eventually("every acknowledged pause carried out", timeout: .seconds(8)) {
            paused.allSatisfy { !events(runner, named: "paused", id: $0).isEmpty }
        }
        try await eventually("every acknowledged remove carried out", timeout: .seconds(8)) {
            removed.allSatisfy { !events(runner, named: "removed", id: $0).isEmpty }
        }
        #expect(events(runner, named: "completed").isEmpty)
        let rows = try await run.list()
        #expect(rows.compactMap { $0["id"] as? Int }.sorted() == paused.sorted())
        #expect(rows.allSatisfy { $0["state"] as? String == "paused" })
        for round in 0..<rounds {
            #expect(run.file("removed-\(round).bin") == nil)
            #expect(run.file("paused-\(round).bin") == nil)
            #expect(server.stats("/removed-\(round).bin").bodyBytesSent < 4 << 20)
        }
        #expect(runner.isRunning)
    }

    @Test func removeDeletingFileInAStormLeavesNoPart() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let count = 6
        let late = 3
        for index in 1...(count + late) { server.route("/storm-\(index).bin", Self.slow(seed: UInt64(200 + index))) }
        let run = try HaulRun()
        let runner = try run.start(
            ["--headless", "--keep-running", "--json", "-j", "\(count)"] + (1...count).map { server.url("/storm-\($0).bin") })
        defer { runner.terminate() }
        try await eventually("every task started", timeout: .seconds(10)) {
            (1...count).allSatisfy { !events(runner, named: "started", id: $0).isEmpty }
        }
        let ids = (1...count).map(String.init)
        // Waves of commands started together: pauses, resumes of tasks just paused (they start again),
        // and removals landing in the same batch as a resume or just after a task restarted.
        var waves: [[[String]]] = []
        waves.append(ids.map { ["pause", $0] })
        waves.append(ids.map { ["resume", $0] } + ids.filter { Int($0)! % 2 == 1 }.map { ["remove", "--delete-file", $0] })
        waves.append(ids.flatMap { [["pause", $0], ["resume", $0]] } + [["remove", "--delete-file", "2"]])
        waves.append(ids.map { ["resume", $0] } + ids.map { ["remove", "--delete-file", $0] })
        for wave in waves {
            let statuses = try await Self.storm(run, wave)
            // 2 is a refusal (already removed, or not in a state the edit applies to); nothing else is allowed.
            #expect(statuses.allSatisfy { $0 == 0 || $0 == 2 }, "\(statuses)")
        }
        // Tasks whose names the engine decides at their first response, removed the moment they start.
        let lateIDs = (count + 1)...(count + late)
        let (added, _, addError) = try await run.run(["add", "-d", run.downloads] + lateIDs.map { server.url("/storm-\($0).bin") })
        #expect(added == 0, "\(addError)")
        try await eventually("the late tasks started", timeout: .seconds(10)) {
            lateIDs.allSatisfy { !events(runner, named: "started", id: $0).isEmpty }
        }
        let statuses = try await Self.storm(run, lateIDs.map { ["remove", "--delete-file", "\($0)"] })
        #expect(statuses.allSatisfy { $0 == 0 }, "\(statuses)")
        try await eventually("every task removed", timeout: .seconds(10)) {
            (1...(count + late)).allSatisfy { !events(runner, named: "removed", id: $0).isEmpty }
        }
        func parts() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: run.downloads)) ?? []).filter { $0.hasSuffix(".part") }
        }
        // The engine deletes them as it lets go of each transfer: allow it a moment, then name what is left.
        try? await eventually("no part file left", timeout: .seconds(5)) { parts().isEmpty }
        #expect(parts().isEmpty, "part files of removed tasks: \(parts())")
        #expect(events(runner, named: "completed").isEmpty)
        #expect(try await run.list().isEmpty)
        #expect(runner.isRunning)
    }

    /// The size of NAME's part file in the run's download directory (0 while there is none).
    static func partSize(_ run: HaulRun, _ name: String) -> Int {
        let attributes = try? FileManager.default.attributesOfItem(atPath: run.downloads + "/" + name + ".part")
        return attributes?[.size] as? Int ?? 0
    }

    @Test func rerunAfterCtrlCContinuesTheSameTask() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        var plan = Self.slow(size: 6 << 20, seed: 300, rate: 1 << 20)
        server.route("/again.bin", plan)
        let run = try HaulRun()
        let first = try run.start(["--headless", server.url("/again.bin")])
        try await eventually("bytes on disk", timeout: .seconds(10)) { Self.partSize(run, "again.bin") > 100_000 }
        first.kill(SIGINT)
        #expect(try await first.waitForExit(timeout: .seconds(10)) == 130)

        plan.throttle = nil
        server.route("/again.bin", plan)
        let second = try run.start(["--headless", server.url("/again.bin")])
        #expect(try await second.waitForExit(timeout: .seconds(30)) == 0)
        #expect(second.stderrText().contains("already in the queue"), "\(second.stderrText())")
        expectSameBytes(run.file("again.bin"), plan.body.bytes())
        let names = try FileManager.default.contentsOfDirectory(atPath: run.downloads)
        #expect(names == ["again.bin"])
        let rows = try await run.list()
        #expect(rows.count == 1)
        #expect(rows.first?["state"] as? String == "completed")
        // The second run continued from the first one's bytes instead of starting over.
        #expect(server.stats("/again.bin").rangeHeaders.last??.hasPrefix("bytes=") == true)
    }

    @Test func downloadDirectoryRemovedMidTransferPausesTheTask() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        var plan = Self.slow(size: 8 << 20, seed: 400, rate: 512 << 10)
        server.route("/doomed.bin", plan)
        let run = try HaulRun()
        let runner = try run.start(["--headless", "--json", server.url("/doomed.bin")])
        defer { runner.terminate() }
        // A gate, not a measure: the transfer has begun (a split part file is allocated at full size at once).
        try await eventually("the transfer begun", timeout: .seconds(10)) { Self.partSize(run, "doomed.bin") > 50_000 }
        try FileManager.default.removeItem(atPath: run.downloads)

        // The engine looks at the part file's link count about once a second.
        let pausedEvent = try await eventuallyValue("the task paused", timeout: .seconds(5)) {
            events(runner, named: "paused", id: 1).first
        }
        let message = pausedEvent["error"] as? String ?? ""
        #expect(message.contains("doomed.bin.part was deleted while downloading"), "\(message)")
        #expect(events(runner, named: "failed").isEmpty)
        #expect(events(runner, named: "completed").isEmpty)
        #expect(try await runner.waitForExit(timeout: .seconds(10)) == 1)
        let row = try #require(try await run.list().first)
        #expect(row["state"] as? String == "paused")
        #expect((row["error"] as? String ?? "").contains("deleted while downloading"))
        #expect(server.stats("/doomed.bin").bodyBytesSent < 8 << 20)

        plan.throttle = nil
        server.route("/doomed.bin", plan)
        #expect(try await run.run(["resume", "1"]).0 == 0)
        let (status, _, stderr) = try await run.run(["--headless"])
        #expect(status == 0, "\(stderr)")
        expectSameBytes(run.file("doomed.bin"), plan.body.bytes())
        #expect(try await run.list().first?["state"] as? String == "completed")
    }

    @Test func pauseOrResumeOfACompletedTaskIsAnError() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        server.route("/done.bin", .file(size: 10_000, seed: 500))
        let run = try HaulRun()
        #expect(try await run.run(["--headless", server.url("/done.bin")], directory: true).0 == 0)
        let (paused, _, pauseError) = try await run.run(["pause", "1"])
        #expect(paused == 2)
        #expect(pauseError.contains("#1 is completed: nothing to pause"), "\(pauseError)")
        let (resumed, _, resumeError) = try await run.run(["resume", "1"])
        #expect(resumed == 2)
        #expect(resumeError.contains("#1 is completed: nothing to resume"), "\(resumeError)")
        #expect(try await run.list().first?["state"] as? String == "completed")
    }

    @Test func aHeadlessRunWithoutJKeepsTheLimitLastSet() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let plans = (1...3).map { Self.slow(size: 600_000, seed: UInt64(600 + $0), rate: 1 << 20) }
        for (index, plan) in plans.enumerated() { server.route("/j\(index + 1).bin", plan) }
        let run = try HaulRun()
        // An empty queue: this run only sets the limit.
        #expect(try await run.run(["-j", "2", "--headless"], directory: true).0 == 0)
        let (added, _, addError) = try await run.run(["add", "-d", run.downloads] + (1...3).map { server.url("/j\($0).bin") })
        #expect(added == 0, "\(addError)")
        let runner = try run.start(["--headless", "--json"], directory: false)
        #expect(try await runner.waitForExit(timeout: .seconds(30)) == 0)

        // Replay the events: never more than two transfers at once, and two did run together.
        var running = Set<Int>()
        var most = 0
        for event in jsonEvents(runner) {
            guard let id = event["id"] as? Int else { continue }
            switch event["event"] as? String {
            case "started": running.insert(id)
            case "completed", "failed", "paused", "removed", "retrying": running.remove(id)
            default: break
            }
            most = max(most, running.count)
        }
        #expect(most == 2)
        for (index, plan) in plans.enumerated() { expectSameBytes(run.file("j\(index + 1).bin"), plan.body.bytes()) }
    }
}
