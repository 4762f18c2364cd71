import FaultServer
import Foundation
import HaulTestSupport
import Testing

/// Running the same command again (DESIGN §8): a finished file is not fetched twice, a link given twice is one task.
@Suite(.timeLimit(.minutes(2))) struct RerunTests {
    @Test func aCompletedDownloadIsNotFetchedAgainWhileItsFileIsThere() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let plan = FaultPlan.file(size: 300_000, seed: 601)
        server.route("/once.bin", plan)
        let run = try HaulRun()
        let (first, _, firstError) = try await run.run(["--headless", "-d", run.downloads, server.url("/once.bin")])
        #expect(first == 0, "\(firstError)")
        let (again, _, note) = try await run.run(["--headless", "-d", run.downloads, server.url("/once.bin")])
        #expect(again == 0, "\(note)")
        #expect(note.contains("#1 already downloaded: \(run.downloads)/once.bin"), "\(note)")
        #expect(server.stats("/once.bin").requests == 1)
        #expect(try await run.list().count == 1)

        // Gone from its place: fetched again, under its name.
        try FileManager.default.removeItem(atPath: run.downloads + "/once.bin")
        let (third, _, thirdError) = try await run.run(["--headless", "-d", run.downloads, server.url("/once.bin")])
        #expect(third == 0, "\(thirdError)")
        expectSameBytes(run.file("once.bin"), plan.body.bytes())
        #expect(server.stats("/once.bin").requests == 2)
    }

    @Test func theSameLinkTwiceInOneCommandIsOneTask() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        server.route("/twice.bin", FaultPlan.file(size: 100_000, seed: 602))
        let run = try HaulRun()
        let (status, _, error) = try await run.run(["--headless", "-d", run.downloads, server.url("/twice.bin"), server.url("/twice.bin")])
        #expect(status == 0, "\(error)")
        #expect(try await run.list().count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: run.downloads) == ["twice.bin"])
    }
}
