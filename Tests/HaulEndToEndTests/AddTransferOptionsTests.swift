import FaultServer
import Foundation
import HaulTestSupport
import Testing

/// `haul add -s N --limit-rate RATE`: the run command's two options, stored with the tasks added, so that the
/// haul that runs them (a later one, or one running in the background) uses them.
@Suite(.timeLimit(.minutes(2))) struct AddTransferOptionsTests {
    @Test func addStoresSplitAndRateWithTheTask() async throws {
        let run = try HaulRun()
        let (status, _, error) = try await run.run(
            ["add", "-d", run.downloads, "-s", "3", "--limit-rate", "1M", "http://127.0.0.1:9/capped.bin"])
        #expect(status == 0, "\(error)")
        let row = try #require(try await run.listStrict().first)
        #expect(row["split"] as? Int == 3)
        #expect(row["limit-rate"] as? Int == 1 << 20)

        // Checked as the run checks them: the same messages, nothing queued.
        let (badRate, _, rateError) = try await run.run(["add", "-d", run.downloads, "--limit-rate", "fast", "http://127.0.0.1:9/b.bin"])
        let (runBadRate, _, runRateError) = try await run.run(["--headless", "-d", run.downloads, "--limit-rate", "fast", "http://127.0.0.1:9/b.bin"])
        #expect(badRate != 0)
        #expect(badRate == runBadRate)
        #expect(rateError.contains("limit-rate") && firstLine(rateError) == firstLine(runRateError), "\(rateError)\n\(runRateError)")
        let (badSplit, _, splitError) = try await run.run(["add", "-d", run.downloads, "-s", "0", "http://127.0.0.1:9/b.bin"])
        let (runBadSplit, _, runSplitError) = try await run.run(["--headless", "-d", run.downloads, "-s", "0", "http://127.0.0.1:9/b.bin"])
        #expect(badSplit != 0)
        #expect(badSplit == runBadSplit)
        #expect(splitError.contains("split") && firstLine(splitError) == firstLine(runSplitError), "\(splitError)\n\(runSplitError)")
        #expect(try await run.listStrict().count == 1)
    }

    private func firstLine(_ text: String) -> Substring { text.split(separator: "\n").first ?? "" }

    @Test func aRunningHaulUsesTheSplitAndRateAnAddGave() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let plan = FaultPlan.file(size: 4 << 20, seed: 73)
        server.route("/capped.bin", plan)
        let run = try HaulRun()
        // The running haul's own settings would fetch it over one connection, at full speed.
        let daemon = try await BackgroundDaemon(run, ["-s", "1", "--min-split-size", "1M"])
        defer { daemon.kill() }

        let started = ContinuousClock.now
        let (status, _, message) = try await run.run(
            ["add", "-d", run.downloads, "-s", "3", "--limit-rate", "1M", server.url("/capped.bin")])
        #expect(status == 0, "\(message)")
        #expect(message.contains("pid \(daemon.pid)"), "\(message)")
        try await eventually("the running haul finishes the task", timeout: .seconds(30)) {
            try await HaulRun.state(of: 1, in: run.listStrict()) == "completed"
        }
        let elapsed = ContinuousClock.now - started
        expectSameBytes(run.file("capped.bin"), plan.body.bytes())
        let row = try #require(try await run.listStrict().first)
        #expect(row["split"] as? Int == 3)
        #expect(row["limit-rate"] as? Int == 1 << 20)
        // -s 3: more than the one connection the running haul's -s gives; --limit-rate 1M: 4 MiB take seconds.
        let stats = server.stats("/capped.bin")
        #expect(stats.connections >= 3, "\(stats)")
        #expect(elapsed >= .seconds(2), "\(elapsed)")
        try await run.expectStop()
    }
}
