import FaultServer
import Foundation
import HaulTestSupport
import Testing

/// kill -9 and signals: nothing is lost, and a rerun continues from the durable bytes.
@Suite(.timeLimit(.minutes(3))) struct DurabilityTests {
    @Test func killNineThenRerunResumesEveryTask() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let size: Int64 = 24 << 20
        var plans: [FaultPlan] = []
        for index in 0..<3 {
            var plan = FaultPlan.file(size: size, seed: UInt64(100 + index))
            plan.throttle = 1 << 20
            plans.append(plan)
            server.route("/k\(index).bin", plan)
        }
        let run = try HaulRun()
        let first = try run.start(["--headless", "-s", "1", "-j", "3"] + (0..<3).map { server.url("/k\($0).bin") })
        // Wait until every task has durable bytes in the database, then kill without warning.
        try await eventually("durable progress of all three tasks", timeout: .seconds(30), poll: .milliseconds(200)) {
            let rows = try await run.list()
            return rows.count == 3 && rows.allSatisfy { ($0["bytes"] as? Int ?? 0) >= 2 << 20 }
        }
        first.kill(SIGKILL)
        _ = try await first.waitForExit(timeout: .seconds(10))
        let sentBeforeKill = (0..<3).map { server.stats("/k\($0).bin").bodyBytesSent }
        let recorded = try await run.list().sorted { ($0["id"] as? Int ?? 0) < ($1["id"] as? Int ?? 0) }
            .map { Int64($0["bytes"] as? Int ?? 0) }

        // The rest at full speed: same content and validators, no throttle.
        for (index, var plan) in plans.enumerated() {
            plan.throttle = nil
            server.route("/k\(index).bin", plan)
        }
        let second = try run.start(["--headless", "-s", "1"], directory: false)
        #expect(try await second.waitForExit(timeout: .seconds(60)) == 0)
        for (index, plan) in plans.enumerated() {
            expectSameBytes(run.file("k\(index).bin"), plan.body.bytes(), "k\(index).bin differs")
            let stats = server.stats("/k\(index).bin")
            #expect(stats.rangeHeaders.last == "bytes=\(recorded[index])-")
            #expect(stats.ifRangeHeaders.last != nil)
            #expect(stats.statuses.last == 206)
            // Only the unrecorded tail is fetched again.
            let refetched = sentBeforeKill[index] - recorded[index]
            #expect(Double(refetched) <= Double(size) * 0.10, "refetched \(refetched) bytes of k\(index).bin")
        }
        let total = (0..<3).reduce(Int64(0)) { $0 + server.stats("/k\($1).bin").bodyBytesSent }
        #expect(Double(total) <= Double(size * 3) * 1.10)
        let names = try FileManager.default.contentsOfDirectory(atPath: run.downloads).sorted()
        #expect(names == ["k0.bin", "k1.bin", "k2.bin"])
    }

    @Test func sigtermSavesStateAndExits130() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        var plan = FaultPlan.file(size: 8 << 20, seed: 7)
        plan.throttle = 1 << 20
        server.route("/t.bin", plan)
        let run = try HaulRun()
        let process = try run.start(["--headless", "-s", "1", "--json", server.url("/t.bin")])
        try await eventually("progress", timeout: .seconds(20)) {
            events(process, named: "progress").contains { ($0["bytes"] as? Int ?? 0) > 500_000 }
        }
        process.kill(SIGTERM)
        #expect(try await process.waitForExit(timeout: .seconds(10)) == 130)
        let rows = try await run.list()
        #expect(rows.first?["state"] as? String == "waiting")
        let kept = rows.first?["bytes"] as? Int ?? 0
        #expect(kept > 500_000)
        let part = try FileManager.default.attributesOfItem(atPath: run.downloads + "/t.bin.part")[.size] as? Int
        #expect(part == kept)
        plan.throttle = nil
        server.route("/t.bin", plan)
        let (status, _, _) = try await run.run(["--headless", "-s", "1"])
        #expect(status == 0)
        expectSameBytes(run.file("t.bin"), plan.body.bytes())
    }
}
