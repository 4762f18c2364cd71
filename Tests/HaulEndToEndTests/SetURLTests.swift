import FaultServer
import Foundation
import HaulTestSupport
import Testing

/// `haul set-url` through the built binary (DESIGN §8): an expired link replaced, the bytes kept.
@Suite(.timeLimit(.minutes(2))) struct SetURLTests {
    static func partSize(_ run: HaulRun, _ name: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: run.downloads + "/" + name + ".part"))?[.size] as? Int) ?? 0
    }

    @Test func aNewLinkForAnInterruptedDownloadFinishesItFromTheKeptBytes() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        var plan = FaultPlan.file(size: 6 << 20, seed: 501)
        plan.throttle = 1 << 20
        server.route("/expiring.bin", plan)
        let run = try HaulRun()
        let first = try run.start(["--headless", "-s", "1", "-o", "film.bin", server.url("/expiring.bin")])
        try await eventually("bytes on disk", timeout: .seconds(10)) { Self.partSize(run, "film.bin") > 200_000 }
        first.kill(SIGINT)
        #expect(try await first.waitForExit(timeout: .seconds(10)) == 130)

        // The same file behind a new link; the old one would now answer 403.
        plan.throttle = nil
        server.route("/fresh.bin", plan)
        server.route("/expiring.bin", FaultPlan.status(403))
        let (bad, _, badError) = try await run.run(["set-url", "1", "ftp://127.0.0.1/x"])
        #expect(bad == 2)
        #expect(badError.contains("ftp"), "\(badError)")
        let (status, _, note) = try await run.run(["set-url", "1", server.url("/fresh.bin")])
        #expect(status == 0, "\(note)")
        #expect(note.contains("#1: link set"), "\(note)")

        let second = try run.start(["--headless"])
        #expect(try await second.waitForExit(timeout: .seconds(30)) == 0, "\(second.stderrText())")
        expectSameBytes(run.file("film.bin"), plan.body.bytes())
        let rows = try await run.list()
        #expect(rows.first?["state"] as? String == "completed")
        // Only the missing part came from the new link.
        let kept = try #require(server.stats("/fresh.bin").rangeHeaders.first ?? nil)
        #expect(kept.hasPrefix("bytes=") && kept != "bytes=0-", "\(kept)")
        #expect(server.stats("/fresh.bin").bodyBytesSent < 6 << 20)
        #expect(server.stats("/expiring.bin").statuses.allSatisfy { $0 == 200 })
    }

    /// A script for `--on-link-expired` that appends its arguments to `log` and prints `link`.
    static func renewalScript(_ run: HaulRun, log: String, link: String) throws -> String {
        let path = run.downloads + "/../renew.sh"
        try "#!/bin/sh\necho \"$@\" >> '\(log)'\necho '\(link)'\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(chmod(path, 0o755) == 0)
        return path
    }

    /// A download interrupted with bytes kept, whose link now answers 403.
    static func expiredDownload(_ server: FaultServer, _ run: HaulRun, plan: FaultPlan) async throws {
        var slow = plan
        slow.throttle = 1 << 20
        server.route("/expiring.bin", slow)
        let first = try run.start(["--headless", "-s", "1", "-o", "film.bin", server.url("/expiring.bin")])
        try await eventually("bytes on disk", timeout: .seconds(10)) { Self.partSize(run, "film.bin") > 200_000 }
        first.kill(SIGINT)
        #expect(try await first.waitForExit(timeout: .seconds(10)) == 130)
        server.route("/expiring.bin", FaultPlan.status(403))
    }

    @Test func onLinkExpiredFetchesANewLinkAndFinishesUnattended() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let plan = FaultPlan.file(size: 6 << 20, seed: 502)
        let run = try HaulRun()
        try await Self.expiredDownload(server, run, plan: plan)
        server.route("/fresh.bin", plan)
        let log = run.downloads + "/../renewals.log"
        let script = try Self.renewalScript(run, log: log, link: server.url("/fresh.bin"))

        let second = try run.start(["--headless", "--on-link-expired", script])
        #expect(try await second.waitForExit(timeout: .seconds(30)) == 0, "\(second.stderrText())")
        expectSameBytes(run.file("film.bin"), plan.body.bytes())
        // Run once, with the GID and the expired link; only the missing part came from the new link.
        let calls = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(calls == "0000000000000001 \(server.url("/expiring.bin"))\n", "\(calls)")
        #expect(server.stats("/fresh.bin").bodyBytesSent < 6 << 20)
    }

    @Test func aRenewalThatGivesTheDeadLinkAgainRunsOnceAndTheTaskFails() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let plan = FaultPlan.file(size: 6 << 20, seed: 503)
        let run = try HaulRun()
        try await Self.expiredDownload(server, run, plan: plan)
        let log = run.downloads + "/../renewals.log"
        let script = try Self.renewalScript(run, log: log, link: server.url("/expiring.bin"))

        let second = try run.start(["--headless", "--on-link-expired", script])
        #expect(try await second.waitForExit(timeout: .seconds(30)) == 1, "\(second.stderrText())")
        #expect(((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").count == 1)
        let rows = try await run.list()
        #expect(rows.first?["state"] as? String == "failed")
        #expect(Self.partSize(run, "film.bin") > 200_000, "the kept bytes stay")
    }
}
