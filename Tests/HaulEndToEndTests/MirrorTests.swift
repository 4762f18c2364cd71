import FaultServer
import Foundation
import HaulTestSupport
import Testing

/// Mirrors through the built binary (DESIGN §8): one file from several links at once; a link that disagrees
/// or dies is dropped with its reason and the others finish the file.
@Suite(.timeLimit(.minutes(2))) struct MirrorTests {
    /// The `links` entries of the first task in `haul list --json`.
    static func links(_ run: HaulRun) async throws -> [[String: Any]] {
        let rows = try await run.list()
        return (rows.first?["links"] as? [[String: Any]]) ?? []
    }

    @Test func twoCappedMirrorsServeOneFileTogether() async throws {
        let fast = try FaultServer()
        let slow = try FaultServer()
        defer {
            fast.stop()
            slow.stop()
        }
        var plan = FaultPlan.file(size: 16 << 20, seed: 601)
        // The same bytes under validators of each server's own: another host and server software, whose ETags
        // say nothing about each other.
        plan.connectionRates = [2 << 20]
        plan.etag = "\"fast\""
        fast.route("/file.bin", plan)
        plan.connectionRates = [1 << 20]
        plan.etag = "\"slow\""
        plan.server = "slow-server/1.0"
        slow.route("/file.bin", plan)
        let run = try HaulRun()
        let process = try run.start([
            "--headless", "-s", "4", "--min-split-size", "1M", "-o", "file.bin",
            "--mirror", slow.url("/file.bin").replacingOccurrences(of: "127.0.0.1", with: "localhost"), fast.url("/file.bin"),
        ])
        #expect(try await process.waitForExit(timeout: .seconds(60)) == 0, "\(process.stderrText())")
        expectSameBytes(run.file("file.bin"), plan.body.bytes())
        let fromFast = fast.stats("/file.bin").bodyBytesSent
        let fromSlow = slow.stats("/file.bin").bodyBytesSent
        // Both served, and together not much more than the file (no range fetched twice over).
        #expect(fromFast > 1 << 20 && fromSlow > 1 << 20, "fast \(fromFast), slow \(fromSlow)")
        #expect(fromFast + fromSlow < (16 << 20) + (4 << 20), "fast \(fromFast), slow \(fromSlow)")
        // Each server's If-Range repeats its own ETag, never the other's.
        let fastIfRange = fast.stats("/file.bin").ifRangeHeaders.compactMap { $0 }
        let slowIfRange = slow.stats("/file.bin").ifRangeHeaders.compactMap { $0 }
        #expect(fastIfRange.allSatisfy { $0 == "\"fast\"" } && slowIfRange.allSatisfy { $0 == "\"slow\"" })
        #expect(!(fastIfRange + slowIfRange).isEmpty)
        // The faster mirror, by measured speed, served more.
        #expect(fromFast > fromSlow, "fast \(fromFast), slow \(fromSlow)")
        let links = try await Self.links(run)
        #expect(links.count == 2 && links.allSatisfy { $0["dropped"] == nil }, "\(links)")
    }

    @Test func aMirrorOfAnotherLengthIsDroppedWithItsReason() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        var plan = FaultPlan.file(size: 12 << 20, seed: 602)
        plan.connectionRates = [2 << 20]
        server.route("/file.bin", plan)
        var other = FaultPlan.file(size: (12 << 20) + 1000, seed: 602)
        other.connectionRates = [2 << 20]
        server.route("/other.bin", other)
        let run = try HaulRun()
        let process = try run.start([
            "--headless", "--json", "-s", "3", "--min-split-size", "1M", "-o", "file.bin",
            "--mirror", server.url("/other.bin").replacingOccurrences(of: "://", with: "://alice:hunter2@"),
            server.url("/file.bin"),
        ])
        #expect(try await process.waitForExit(timeout: .seconds(60)) == 0, "\(process.stderrText())")
        expectSameBytes(run.file("file.bin"), plan.body.bytes())
        // Its ranges were asked, and no byte of its answers was taken.
        #expect(server.stats("/other.bin").requests > 0)
        let links = try await Self.links(run)
        #expect(links.count == 2, "\(links)")
        let dropped = links.first { ($0["url"] as? String)?.hasSuffix("/other.bin") == true }
        let reason = dropped?["dropped"] as? String ?? ""
        #expect(reason.contains("\((12 << 20) + 1000) bytes") && reason.contains("\(12 << 20)"), "\(links)")
        #expect(links.first { ($0["url"] as? String)?.hasSuffix("/file.bin") == true }?["dropped"] == nil)
        // Told as it happened, as a JSON event.
        let told = events(process, named: "link-dropped")
        #expect(told.count == 1 && (told.first?["link"] as? String)?.hasSuffix("/other.bin") == true, "\(told)")
        #expect((told.first?["reason"] as? String) == reason)
        // The mirror's credentials are never shown.
        let (_, listed, _) = try await run.run(["list", "--json"])
        #expect(!process.stdoutText().contains("hunter2") && !process.stderrText().contains("hunter2") && !listed.contains("hunter2"))
        #expect(listed.contains(server.url("/other.bin")), "\(listed)")
    }

    /// The mirror dies, or the main link does (after its first answer decided the file).
    @Test(arguments: [false, true])
    func aLinkThatDiesMidwayLeavesItsRangesToTheOther(mainDies: Bool) async throws {
        let main = try FaultServer()
        let mirror = try FaultServer()
        defer {
            main.stop()
            mirror.stop()
        }
        var plan = FaultPlan.file(size: 16 << 20, seed: 603)
        plan.connectionRates = [1 << 20]
        main.route("/file.bin", plan)
        mirror.route("/file.bin", plan)
        let run = try HaulRun()
        let process = try run.start([
            "--headless", "-s", "4", "--min-split-size", "1M", "-o", "file.bin",
            "--mirror", mirror.url("/file.bin"), main.url("/file.bin"),
        ])
        let (dying, surviving) = mainDies ? (main, mirror) : (mirror, main)
        try await eventually("both serve", timeout: .seconds(20)) {
            dying.stats("/file.bin").bodyBytesSent > 1 << 20 && surviving.stats("/file.bin").bodyBytesSent > 1 << 20
        }
        dying.stop()
        #expect(try await process.waitForExit(timeout: .seconds(60)) == 0, "\(process.stderrText())")
        expectSameBytes(run.file("file.bin"), plan.body.bytes())
        let links = try await Self.links(run)
        let dropped = links.first { ($0["url"] as? String)?.hasPrefix(dying.url("")) == true }
        #expect(dropped?["dropped"] is String, "\(links)")
        #expect(links.first { ($0["url"] as? String)?.hasPrefix(surviving.url("")) == true }?["dropped"] == nil)
    }

    @Test func aMirrorWhoseFileChangesIsDroppedAndTheTwoVersionsAreNeverSpliced() async throws {
        let main = try FaultServer()
        let mirror = try FaultServer()
        defer {
            main.stop()
            mirror.stop()
        }
        var plan = FaultPlan.file(size: 12 << 20, seed: 606)
        plan.connectionRates = [1 << 20]
        main.route("/file.bin", plan)
        var changing = plan
        // Its first answer is the file as the main link has it, then it changes.
        changing.changeAfterRequests = 1
        mirror.route("/file.bin", changing)
        let run = try HaulRun()
        let process = try run.start([
            "--headless", "-s", "3", "--min-split-size", "1M", "-o", "file.bin",
            "--mirror", mirror.url("/file.bin"), main.url("/file.bin"),
        ])
        #expect(try await process.waitForExit(timeout: .seconds(60)) == 0, "\(process.stderrText())")
        expectSameBytes(run.file("file.bin"), plan.body.bytes())
        #expect(mirror.stats("/file.bin").requests > 1)
        let links = try await Self.links(run)
        let reason = links.first { ($0["url"] as? String)?.hasPrefix(mirror.url("")) == true }?["dropped"] as? String
        #expect(reason?.contains("changed") == true, "\(links)")
    }

    @Test func aMainLinkThatIsGoneLeavesTheFileToItsMirror() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let plan = FaultPlan.file(size: 3 << 20, seed: 604)
        server.route("/gone.bin", FaultPlan.status(404))
        server.route("/file.bin", plan)
        let run = try HaulRun()
        let process = try run.start(["--headless", "-o", "file.bin", "--mirror", server.url("/file.bin"), server.url("/gone.bin")])
        #expect(try await process.waitForExit(timeout: .seconds(30)) == 0, "\(process.stderrText())")
        expectSameBytes(run.file("file.bin"), plan.body.bytes())
        let links = try await Self.links(run)
        let main = links.first { ($0["url"] as? String)?.hasSuffix("/gone.bin") == true }
        #expect((main?["dropped"] as? String)?.contains("404") == true, "\(links)")
    }

    @Test func everyLinkFailingFailsTheTask() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        server.route("/a.bin", FaultPlan.status(404))
        server.route("/b.bin", FaultPlan.status(410))
        let run = try HaulRun()
        let process = try run.start(["--headless", "-o", "file.bin", "--mirror", server.url("/b.bin"), server.url("/a.bin")])
        #expect(try await process.waitForExit(timeout: .seconds(30)) != 0)
        let rows = try await run.list()
        #expect(rows.first?["state"] as? String == "failed", "\(rows)")
        #expect((rows.first?["error"] as? String)?.contains("410") == true, "\(rows)")
        let links = try await Self.links(run)
        #expect(links.count == 2 && links.allSatisfy { $0["dropped"] is String }, "\(links)")
    }

    @Test func anInterruptedDownloadGoesOnFromItsKeptRangesOnEveryLink() async throws {
        let main = try FaultServer()
        let mirror = try FaultServer()
        defer {
            main.stop()
            mirror.stop()
        }
        var plan = FaultPlan.file(size: 16 << 20, seed: 605)
        plan.connectionRates = [1 << 20]
        main.route("/file.bin", plan)
        mirror.route("/file.bin", plan)
        let run = try HaulRun()
        let first = try run.start([
            "--headless", "-s", "2", "--min-split-size", "1M", "-o", "file.bin",
            "--mirror", mirror.url("/file.bin"), main.url("/file.bin"),
        ])
        try await eventually("both links serve", timeout: .seconds(20)) {
            main.stats("/file.bin").bodyBytesSent > 2 << 20 && mirror.stats("/file.bin").bodyBytesSent > 2 << 20
        }
        first.kill(SIGINT)
        #expect(try await first.waitForExit(timeout: .seconds(10)) == 130)
        main.resetStats("/file.bin")
        mirror.resetStats("/file.bin")

        // The mirrors were stored with the task: the next run uses them without being told again.
        let second = try run.start(["--headless"])
        #expect(try await second.waitForExit(timeout: .seconds(60)) == 0, "\(second.stderrText())")
        expectSameBytes(run.file("file.bin"), plan.body.bytes())
        let again = main.stats("/file.bin").bodyBytesSent + mirror.stats("/file.bin").bodyBytesSent
        #expect(main.stats("/file.bin").bodyBytesSent > 0 && mirror.stats("/file.bin").bodyBytesSent > 0)
        #expect(again < 14 << 20, "kept ranges were fetched again: \(again)")
    }

    @Test func tabSeparatedLinksOfAnInputFileLineAreOneTaskOnBothServers() async throws {
        let one = try FaultServer()
        let two = try FaultServer()
        defer {
            one.stop()
            two.stop()
        }
        var plan = FaultPlan.file(size: 8 << 20, seed: 607)
        plan.connectionRates = [2 << 20]
        one.route("/file.bin", plan)
        two.route("/file.bin", plan)
        let run = try HaulRun()
        let list = run.root.file("links.txt")
        try "\(one.url("/file.bin"))\t\(two.url("/file.bin"))\n  out=file.bin\n".write(toFile: list, atomically: true, encoding: .utf8)
        let process = try run.start(["--headless", "-s", "2", "--min-split-size", "1M", "-i", list])
        #expect(try await process.waitForExit(timeout: .seconds(60)) == 0, "\(process.stderrText())")
        expectSameBytes(run.file("file.bin"), plan.body.bytes())
        #expect(one.stats("/file.bin").bodyBytesSent > 0 && two.stats("/file.bin").bodyBytesSent > 0)
        #expect(try await run.list().count == 1)
    }

    @Test func splitOneStillMeansAConnectionOnEachLink() async throws {
        let one = try FaultServer()
        let two = try FaultServer()
        defer {
            one.stop()
            two.stop()
        }
        var plan = FaultPlan.file(size: 8 << 20, seed: 608)
        plan.connectionRates = [2 << 20]
        one.route("/file.bin", plan)
        two.route("/file.bin", plan)
        let run = try HaulRun()
        let process = try run.start([
            "--headless", "-s", "1", "--min-split-size", "1M", "-o", "file.bin", "--mirror", two.url("/file.bin"), one.url("/file.bin"),
        ])
        #expect(try await process.waitForExit(timeout: .seconds(60)) == 0, "\(process.stderrText())")
        expectSameBytes(run.file("file.bin"), plan.body.bytes())
        #expect(one.stats("/file.bin").bodyBytesSent > 1 << 20 && two.stats("/file.bin").bodyBytesSent > 1 << 20)
    }

    @Test func mirrorUsageErrorsQuoteTheValueAndQueueNothing() async throws {
        let run = try HaulRun()
        let (twoURLs, _, twoError) = try await run.run(
            ["--headless", "--mirror", "http://127.0.0.1:9/m", "http://127.0.0.1:9/a", "http://127.0.0.1:9/b"], directory: true)
        #expect(twoURLs == 2)
        #expect(twoError.contains("exactly one URL"), "\(twoError)")
        let (scheme, _, schemeError) = try await run.run(
            ["--headless", "--mirror", "ftp://u:pw@127.0.0.1:9/m", "http://127.0.0.1:9/a"], directory: true)
        #expect(scheme == 2)
        #expect(schemeError.contains("'ftp'") && !schemeError.contains("pw"), "\(schemeError)")
        #expect(try await run.list().isEmpty)
    }
}
