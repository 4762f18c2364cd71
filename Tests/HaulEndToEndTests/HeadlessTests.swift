import FaultServer
import Foundation
import HaulTestSupport
import Testing

/// The built binary in headless mode: exit statuses, JSON events, names and files.
@Suite(.timeLimit(.minutes(2))) struct HeadlessTests {
    @Test func everythingCompletedExitsZeroWithJSONEvents() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let plans = (1...4).map { FaultPlan.file(size: Int64($0) * 300_000, seed: UInt64($0)) }
        for (index, plan) in plans.enumerated() { server.route("/f\(index).bin", plan) }
        let run = try HaulRun()
        let process = try run.start(["--headless", "--json", "-j", "2"] + (0..<4).map { server.url("/f\($0).bin") })
        #expect(try await process.waitForExit(timeout: .seconds(60)) == 0)
        for (index, plan) in plans.enumerated() { expectSameBytes(run.file("f\(index).bin"), plan.body.bytes()) }
        #expect(events(process, named: "added").count == 4)
        #expect(events(process, named: "completed").count == 4)
        let completed = try #require(events(process, named: "completed", id: 1).first)
        #expect(completed["path"] as? String == run.downloads + "/f0.bin")
        #expect(completed["bytes"] as? Int == 300_000)
        #expect(Set(try await run.list().compactMap { $0["state"] as? String }) == ["completed"])
    }

    @Test func aFailedTaskExitsOneAndTheOthersComplete() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        server.route("/ok.bin", .file(size: 100_000))
        server.route("/gone.bin", .status(404))
        let run = try HaulRun()
        let process = try run.start(["--headless", server.url("/gone.bin"), server.url("/ok.bin")])
        #expect(try await process.waitForExit(timeout: .seconds(30)) == 1)
        #expect(run.file("ok.bin")?.count == 100_000)
        #expect(process.stderrText().contains("HTTP 404"))
        #expect(!FileManager.default.fileExists(atPath: run.downloads + "/gone.bin"))
    }

    @Test func usageErrorsExitTwoWithAClearMessage() async throws {
        let run = try HaulRun()
        let (ftp, _, ftpError) = try await run.run(["--headless", "ftp://127.0.0.1/x"], directory: true)
        #expect(ftp == 2)
        #expect(ftpError.contains("only http and https"))
        let (bad, _, badError) = try await run.run(["--headless", "-j", "0", "http://127.0.0.1/x"], directory: true)
        #expect(bad == 2)
        #expect(badError.contains("max-concurrent"))
        let (injected, _, injectedError) = try await run.run(["--headless", "-H", "X-A: b\r\nX-B: c", "http://127.0.0.1/x"], directory: true)
        #expect(injected == 2)
        #expect(injectedError.contains("line break"))
        let (ranged, _, rangedError) = try await run.run(["--headless", "-H", "Range: bytes=0-9", "http://127.0.0.1/x"], directory: true)
        #expect(ranged == 2)
        #expect(rangedError.contains("set by haul itself"))
        let (missing, _, missingError) = try await run.run(["pause", "42"])
        #expect(missing == 2)
        #expect(missingError.contains("no task #42"))
    }

    @Test func inputFileOptionsApply() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        server.route("/a.bin", .file(size: 1000, seed: 1))
        server.route("/b.bin", .file(size: 2000, seed: 2))
        let run = try HaulRun()
        let list = run.root.path + "/list.txt"
        try """
        # two files
        \(server.url("/a.bin"))
          out=renamed.bin
        \(server.url("/b.bin"))
        \tdir=sub
        """.write(toFile: list, atomically: true, encoding: .utf8)
        let (status, _, stderr) = try await run.run(["--headless", "-i", list], directory: true)
        #expect(status == 0, "\(stderr)")
        #expect(run.file("renamed.bin")?.count == 1000)
        #expect(run.file("sub/b.bin")?.count == 2000)
    }

    @Test func retriesTransientErrorsHonouringRetryAfter() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        var plan = FaultPlan.file(size: 50_000, seed: 9)
        plan.failFirst = 2
        plan.retryAfter = 1
        server.route("/busy.bin", plan)
        let run = try HaulRun()
        let process = try run.start(["--headless", "--json", server.url("/busy.bin")])
        #expect(try await process.waitForExit(timeout: .seconds(30)) == 0)
        let retries = events(process, named: "retrying")
        #expect(retries.count == 2)
        #expect(retries.allSatisfy { ($0["after"] as? Double ?? 0) >= 1 })
        expectSameBytes(run.file("busy.bin"), plan.body.bytes())
        #expect(server.stats("/busy.bin").statuses == [503, 503, 200])
    }
}
