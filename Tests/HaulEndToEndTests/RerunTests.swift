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

    @Test func allowOverwriteFetchesAFinishedFileAgainAndReplacesIt() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let plan = FaultPlan.file(size: 200_000, seed: 603)
        server.route("/again.bin", plan)
        let run = try HaulRun()
        let (first, _, firstError) = try await run.run(["--headless", "-d", run.downloads, server.url("/again.bin")])
        #expect(first == 0, "\(firstError)")
        // The file was edited meanwhile: --allow-overwrite fetches it again, into its own name.
        try Data("edited".utf8).write(to: URL(fileURLWithPath: run.downloads + "/again.bin"))
        let (again, _, error) = try await run.run(["--headless", "-d", run.downloads, "--allow-overwrite", server.url("/again.bin")])
        #expect(again == 0, "\(error)")
        #expect(server.stats("/again.bin").requests == 2)
        expectSameBytes(run.file("again.bin"), plan.body.bytes())
        #expect(try FileManager.default.contentsOfDirectory(atPath: run.downloads) == ["again.bin"])
    }
}

/// `-c`: a partial file another program left at the final name is continued when the server agrees.
@Suite(.timeLimit(.minutes(2))) struct ContinuePartialFileTests {
    @Test func aPartialFileLeftByAnotherProgramIsContinuedFromItsSize() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let plan = FaultPlan.file(size: 3 << 20, seed: 604)
        server.route("/film.bin", plan)
        let run = try HaulRun()
        let bytes = plan.body.bytes()
        try FileManager.default.createDirectory(atPath: run.downloads, withIntermediateDirectories: true)
        try Data(bytes.prefix(1 << 20)).write(to: URL(fileURLWithPath: run.downloads + "/film.bin"))
        let original = try inode(run.downloads + "/film.bin")
        let (status, _, error) = try await run.run(["--headless", "-d", run.downloads, "-s", "1", "-c", server.url("/film.bin")])
        #expect(status == 0, "\(error)")
        expectSameBytes(run.file("film.bin"), bytes)
        // Moved to the part file and back, never copied: no second helping of disk space.
        #expect(try inode(run.downloads + "/film.bin") == original, "the partial file itself was continued")
        #expect(try FileManager.default.contentsOfDirectory(atPath: run.downloads) == ["film.bin"])
        let stats = server.stats("/film.bin")
        #expect(stats.rangeHeaders.first == "bytes=\(1 << 20)-", "\(stats.rangeHeaders)")
        #expect(stats.bodyBytesSent == 2 << 20, "only the missing 2 MiB are fetched")
    }

    @Test func aServerThatDoesNotContinueItLeavesThePartialFileAsItWas() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        var plan = FaultPlan.file(size: 1 << 20, seed: 605)
        plan.acceptRanges = false
        server.route("/whole.bin", plan)
        let run = try HaulRun()
        let partial = Data(repeating: 7, count: 300_000)
        try FileManager.default.createDirectory(atPath: run.downloads, withIntermediateDirectories: true)
        try partial.write(to: URL(fileURLWithPath: run.downloads + "/whole.bin"))
        let original = try inode(run.downloads + "/whole.bin")
        let (status, _, error) = try await run.run(["--headless", "-d", run.downloads, "-c", server.url("/whole.bin")])
        #expect(status == 0, "\(error)")
        #expect(run.file("whole.bin") == [UInt8](partial), "the partial file is untouched")
        #expect(try inode(run.downloads + "/whole.bin") == original, "the partial file came back under its name")
        expectSameBytes(run.file("whole (1).bin"), plan.body.bytes())
        #expect(try FileManager.default.contentsOfDirectory(atPath: run.downloads).sorted() == ["whole (1).bin", "whole.bin"])
    }

    @Test func aDownloadThatFailsBeforeContinuingGivesThePartialFileBack() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        server.route("/gone.bin", FaultPlan.status(404))
        let run = try HaulRun()
        let partial = Data(repeating: 9, count: 200_000)
        try FileManager.default.createDirectory(atPath: run.downloads, withIntermediateDirectories: true)
        try partial.write(to: URL(fileURLWithPath: run.downloads + "/gone.bin"))
        let original = try inode(run.downloads + "/gone.bin")
        let (status, _, error) = try await run.run(["--headless", "-d", run.downloads, "-c", server.url("/gone.bin")])
        #expect(status != 0, "\(error)")
        #expect(run.file("gone.bin") == [UInt8](partial), "the partial file is back with its bytes")
        #expect(try inode(run.downloads + "/gone.bin") == original)
        #expect(try FileManager.default.contentsOfDirectory(atPath: run.downloads) == ["gone.bin"])
    }

    @Test func removingTheTaskGivesThePartialFileBack() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        server.route("/kept.bin", FaultPlan.file(size: 1 << 20, seed: 607))
        let run = try HaulRun()
        let partial = Data(repeating: 5, count: 100_000)
        try FileManager.default.createDirectory(atPath: run.downloads, withIntermediateDirectories: true)
        try partial.write(to: URL(fileURLWithPath: run.downloads + "/kept.bin"))
        let original = try inode(run.downloads + "/kept.bin")
        // Queued, not run: the part file is the partial one, lent until a 206 continues it.
        let (added, _, addError) = try await run.run(["add", "-d", run.downloads, "-c", server.url("/kept.bin")])
        #expect(added == 0, "\(addError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: run.downloads) == ["kept.bin.part"])
        let (removed, _, removeError) = try await run.run(["remove", "--delete-file", "1"])
        #expect(removed == 0, "\(removeError)")
        #expect(run.file("kept.bin") == [UInt8](partial), "the partial file is back with its bytes")
        #expect(try inode(run.downloads + "/kept.bin") == original)
        #expect(try FileManager.default.contentsOfDirectory(atPath: run.downloads) == ["kept.bin"])
    }

    private func inode(_ path: String) throws -> UInt64 {
        let number = try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? NSNumber
        return try #require(number).uint64Value
    }

    @Test func withoutContinueAFileAtTheNameIsNeverTouched() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let plan = FaultPlan.file(size: 100_000, seed: 606)
        server.route("/keep.bin", plan)
        let run = try HaulRun()
        try FileManager.default.createDirectory(atPath: run.downloads, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: run.downloads + "/keep.bin"))
        let (status, _, error) = try await run.run(["--headless", "-d", run.downloads, server.url("/keep.bin")])
        #expect(status == 0, "\(error)")
        #expect(run.file("keep.bin") == Array("mine".utf8))
        expectSameBytes(run.file("keep (1).bin"), plan.body.bytes())
    }
}
