import FaultServer
import Foundation
import HaulTestSupport
import Testing

/// `haul NEW-LINK` without `-o` for a file an unfinished task holds part of (DESIGN §8): the fresh link continues
/// that task when it serves the same file, and is a task of its own when it does not.
@Suite(.timeLimit(.minutes(2))) struct RerunLinkTests {
    /// A download of `plan` from `path` interrupted with bytes kept; the link then answers 410, as an expired one.
    static func expiredDownload(_ server: FaultServer, _ run: HaulRun, path: String, plan: FaultPlan, name: String) async throws {
        var slow = plan
        slow.throttle = 1 << 20
        server.route(path, slow)
        let first = try run.start(["--headless", "-s", "1", server.url(path)])
        try await eventually("bytes on disk", timeout: .seconds(10)) { SetURLTests.partSize(run, name) > 200_000 }
        first.kill(SIGINT)
        #expect(try await first.waitForExit(timeout: .seconds(10)) == 130)
        server.route(path, FaultPlan.status(410))
    }

    @Test func aFreshLinkNamingTheSameFileContinuesTheUnfinishedTask() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let plan = FaultPlan.file(size: 6 << 20, seed: 611)
        let run = try HaulRun()
        try await Self.expiredDownload(server, run, path: "/a1/film.bin", plan: plan, name: "film.bin")
        server.route("/b2/film.bin", plan)

        let second = try run.start(["--headless", server.url("/b2/film.bin")])
        #expect(try await second.waitForExit(timeout: .seconds(30)) == 0, "\(second.stderrText())")
        #expect(second.stderrText().contains("continuing it with that link"), "\(second.stderrText())")
        expectSameBytes(run.file("film.bin"), plan.body.bytes())
        #expect(run.file("film (1).bin") == nil)
        let rows = try await run.list()
        #expect(rows.count == 1)
        #expect(rows.first?["state"] as? String == "completed")
        // Only the missing part came from the new link (plus the few bytes of the check).
        #expect(server.stats("/b2/film.bin").bodyBytesSent < 6 << 20 - 150_000)
    }

    @Test func aFreshLinkServingAnotherFileUnderThatNameIsANewTask() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let plan = FaultPlan.file(size: 6 << 20, seed: 612)
        let other = FaultPlan.file(size: 3 << 20, seed: 613)
        let run = try HaulRun()
        try await Self.expiredDownload(server, run, path: "/a1/film.bin", plan: plan, name: "film.bin")
        server.route("/b2/film.bin", other)

        let (status, out, note) = try await run.run(["add", server.url("/b2/film.bin")], directory: true)
        #expect(status == 0, "\(note)")
        #expect(out.contains("#2 "), "\(out)")
        #expect(!note.contains("continuing"), "\(note)")
        let rows = try await run.list()
        #expect(rows.count == 2)
        #expect(rows.first?["url"] as? String == server.url("/a1/film.bin"), "the first task keeps its link")
        #expect(SetURLTests.partSize(run, "film.bin") > 200_000, "and its bytes")
    }

    @Test func aFreshLinkWhoseServerNamesTheSameFileContinuesIt() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        var plan = FaultPlan.file(size: 6 << 20, seed: 614)
        plan.contentDisposition = "attachment; filename=\"report.bin\""
        let run = try HaulRun()
        try await Self.expiredDownload(server, run, path: "/get/1", plan: plan, name: "report.bin")
        server.route("/get/2", plan)
        var renamed = plan
        renamed.contentDisposition = "attachment; filename=\"other.bin\""
        server.route("/get/3", renamed)

        // The same bytes under another name are not that task's file.
        let (otherStatus, otherOut, _) = try await run.run(["add", server.url("/get/3")], directory: true)
        #expect(otherStatus == 0)
        #expect(otherOut.contains("#2 "), "\(otherOut)")
        let (status, out, note) = try await run.run(["add", server.url("/get/2")], directory: true)
        #expect(status == 0, "\(note)")
        #expect(out.contains("#1 report.bin (continued with the new link"), "\(out)")
        let rows = try await run.list()
        #expect(rows.count == 2)
        #expect(rows.first?["url"] as? String == server.url("/get/2"))
    }
}
