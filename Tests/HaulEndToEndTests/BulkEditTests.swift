import FaultServer
import Foundation
import HaulTestSupport
import Testing

/// The list's C and R on the command line: `haul remove --completed`, `haul resume --failed`, `haul list --state`.
@Suite(.timeLimit(.minutes(2))) struct BulkEditTests {
    @Test func removeCompletedResumeFailedAndListByState() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        server.route("/ok1.bin", .file(size: 50_000, seed: 1))
        server.route("/ok2.bin", .file(size: 60_000, seed: 2))
        server.route("/gone1.bin", .status(404))
        server.route("/gone2.bin", .status(404))
        let run = try HaulRun()
        let urls = ["/ok1.bin", "/gone1.bin", "/ok2.bin", "/gone2.bin"].map { server.url($0) }
        let headless = try run.start(["--headless"] + urls)
        #expect(try await headless.waitForExit(timeout: .seconds(30)) == 1)

        let (listed, failedOut, _) = try await run.run(["list", "--state", "failed"])
        #expect(listed == 0)
        #expect(failedOut.split(separator: "\n").count == 2)
        #expect(failedOut.contains("gone1.bin") && failedOut.contains("gone2.bin") && !failedOut.contains("ok1.bin"))
        let (badState, _, badStateError) = try await run.run(["list", "--state", "broken"])
        #expect(badState == 64 || badState == 2, "a usage error")
        #expect(badStateError.contains("not a state"))

        let (removed, _, removedNote) = try await run.run(["remove", "--completed"])
        #expect(removed == 0)
        #expect(removedNote.contains("2 task(s) removed"))
        #expect(run.file("ok1.bin")?.count == 50_000, "the files stay")
        #expect(Set(try await run.list().compactMap { $0["state"] as? String }) == ["failed"])

        let (resumed, _, resumedNote) = try await run.run(["resume", "--failed"])
        #expect(resumed == 0)
        #expect(resumedNote.contains("2 task(s) now waiting"))
        #expect(Set(try await run.list().compactMap { $0["state"] as? String }) == ["waiting"])

        let (both, _, bothError) = try await run.run(["remove", "--completed", "--all"])
        #expect(both != 0 && bothError.contains("one of them"))
    }
}
