import FaultServer
import Foundation
import HaulCore
import HaulTestSupport
@testable import HaulTransfer
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A kill -9 at any moment around naming and publishing a file leaves, after the next run, exactly one file under
/// the task's name, right, and no part file.
@Suite(.timeLimit(.minutes(1))) struct PublishCrashWindowTests {
    /// Killed after the part file was reserved and written, before its name was recorded: the next attempt, which
    /// knows no name, takes the part back by its mark instead of numbering a second file.
    @Test func aMarkedPartOfAnUnrecordedNameIsTakenBack() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let plan = FaultPlan.file(size: 20_000, seed: 81)
        server.route("/slow.bin", plan)
        let dir = try TemporaryDirectory()
        let task = request(1, url: server.url("/slow.bin"), directory: dir.path)
        try leavePart(dir.path + "/slow.bin.part", bytes: Array(repeating: 7, count: 12_345), tag: PartOwnerTag(task))

        let engine = EngineHarness()
        engine.start(task)
        #expect(try await engine.outcome(of: TaskID(1)) == .completed(fileName: "slow.bin", bytes: 20_000))
        #expect(listing(dir.path) == ["slow.bin"])
        expectSameBytes(contents(dir.path + "/slow.bin"), plan.body.bytes())
    }

    /// Another task's marked part file is not this task's: it stays as it was.
    @Test func anotherTasksMarkedPartIsLeftAlone() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        server.route("/other.bin", .file(size: 5_000, seed: 82))
        let dir = try TemporaryDirectory()
        var other = request(2, url: server.url("/other.bin"), directory: dir.path)
        other.addedAt = 1_700_000_000
        try leavePart(dir.path + "/other.bin.part", bytes: Array("kept".utf8), tag: PartOwnerTag(other))

        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/other.bin"), directory: dir.path))
        #expect(try await engine.outcome(of: TaskID(1)) == .completed(fileName: "other (1).bin", bytes: 5_000))
        #expect(contents(dir.path + "/other.bin.part") == Array("kept".utf8))
    }

    /// Killed between linking the part to its final name and unlinking the part (where a rename cannot refuse to
    /// replace): both names are one file; the next attempt drops the part name and completes without fetching.
    @Test func aPartLinkedToItsPublishedFileCompletesWithoutADuplicate() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let plan = FaultPlan.file(size: 30_000, seed: 83)
        server.route("/linked.bin", plan)
        let dir = try TemporaryDirectory()
        #expect(FileManager.default.createFile(atPath: dir.path + "/linked.bin.part", contents: Data(plan.body.bytes())))
        #expect(link(dir.path + "/linked.bin.part", dir.path + "/linked.bin") == 0)

        let engine = EngineHarness()
        engine.start(request(
            1, url: server.url("/linked.bin"), directory: dir.path, fileName: "linked.bin", resumeFrom: 30_000, expectedTotal: 30_000))
        #expect(try await engine.outcome(of: TaskID(1)) == .completed(fileName: "linked.bin", bytes: 30_000))
        #expect(listing(dir.path) == ["linked.bin"])
        #expect(server.stats("/linked.bin").requests == 0)
    }

    /// Killed after publishing a file of unknown length, before recording it: the file carries the task's mark,
    /// so it counts as published although no total was recorded to compare its size with.
    @Test func aMarkedFileOfUnknownLengthCountsAsPublished() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        server.route("/chunked.bin", .file(size: 9_000, seed: 84))
        let dir = try TemporaryDirectory()
        let task = request(1, url: server.url("/chunked.bin"), directory: dir.path, fileName: "chunked.bin", resumeFrom: 9_000)
        try leavePart(dir.path + "/chunked.bin", bytes: Array(repeating: 1, count: 9_000), tag: PartOwnerTag(task))

        let engine = EngineHarness()
        engine.start(task)
        #expect(try await engine.outcome(of: TaskID(1)) == .completed(fileName: "chunked.bin", bytes: 9_000))
        #expect(server.stats("/chunked.bin").requests == 0)
        #expect(listing(dir.path) == ["chunked.bin"])
    }

    /// Publishing moves the part in one step: no moment leaves the file under two names.
    @Test func publishingLeavesNoSecondName() throws {
        let dir = try TemporaryDirectory()
        #expect(FileManager.default.createFile(atPath: dir.path + "/a.bin.part", contents: Data("a".utf8)))
        #expect(FileManager.default.createFile(atPath: dir.path + "/a.bin", contents: Data("taken".utf8)))
        let directory = try DownloadDirectory(path: dir.path)
        #expect(try directory.publish("a.bin.part", as: "a.bin") == "a (1).bin")
        #expect(listing(dir.path) == ["a (1).bin", "a.bin"])
        #expect(contents(dir.path + "/a.bin") == Array("taken".utf8))
    }

    /// Writes `bytes` at `path` and marks the file with `tag`, as a killed run would have left it.
    func leavePart(_ path: String, bytes: [UInt8], tag: PartOwnerTag) throws {
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        let fd = open(path, O_RDWR)
        #expect(fd >= 0)
        defer { close(fd) }
        tag.mark(fd)
        try #require(tag.marks(fd), "this filesystem keeps extended attributes")
    }
}
