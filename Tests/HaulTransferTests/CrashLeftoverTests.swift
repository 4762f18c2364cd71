import FaultServer
import Foundation
import HaulCore
import HaulTestSupport
import HaulTransfer
import Testing

/// What a kill -9 can leave in the download directory, and how the next run treats it.
@Suite(.timeLimit(.minutes(1))) struct CrashLeftoverTests {
    @Test func aFilePublishedBeforeTheCrashIsNotFetchedAgain() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let plan = FaultPlan.file(size: 50_000, seed: 71)
        server.route("/done.bin", plan)
        let dir = try TemporaryDirectory()
        #expect(FileManager.default.createFile(atPath: dir.path + "/done.bin", contents: Data(plan.body.bytes())))
        let engine = EngineHarness()
        engine.start(request(
            1, url: server.url("/done.bin"), directory: dir.path, fileName: "done.bin", resumeFrom: 40_000,
            expectedTotal: 50_000))
        #expect(try await engine.outcome(of: TaskID(1)) == .completed(fileName: "done.bin", bytes: 50_000))
        #expect(server.stats("/done.bin").requests == 0)
        #expect(listing(dir.path) == ["done.bin"])
    }

    @Test func anEmptyOrphanPartFileIsTakenOver() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        server.route("/x.bin", .file(size: 10_000, seed: 72))
        let dir = try TemporaryDirectory()
        #expect(FileManager.default.createFile(atPath: dir.path + "/x.bin.part", contents: Data()))
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/x.bin"), directory: dir.path))
        #expect(try await engine.outcome(of: TaskID(1)) == .completed(fileName: "x.bin", bytes: 10_000))
        #expect(listing(dir.path) == ["x.bin"])
    }

    @Test func aNonEmptyForeignPartFileIsLeftAlone() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        server.route("/y.bin", .file(size: 10_000, seed: 73))
        let dir = try TemporaryDirectory()
        #expect(FileManager.default.createFile(atPath: dir.path + "/y.bin.part", contents: Data("someone else's".utf8)))
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/y.bin"), directory: dir.path))
        #expect(try await engine.outcome(of: TaskID(1)) == .completed(fileName: "y (1).bin", bytes: 10_000))
        #expect(contents(dir.path + "/y.bin.part") == Array("someone else's".utf8))
    }

    @Test func twoTasksWithOneNameNeverShareAPartFile() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        var plan = FaultPlan.file(size: 300_000, seed: 74)
        plan.throttle = 1 << 20
        server.route("/same.bin", plan)
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/same.bin"), directory: dir.path))
        engine.start(request(2, url: server.url("/same.bin"), directory: dir.path))
        let names = [try await engine.outcome(of: TaskID(1)), try await engine.outcome(of: TaskID(2))].compactMap { outcome -> String? in
            if case let .completed(name, _) = outcome { return name } else { return nil }
        }
        #expect(Set(names) == ["same.bin", "same (1).bin"])
        expectSameBytes(contents(dir.path + "/same.bin"), plan.body.bytes())
        expectSameBytes(contents(dir.path + "/same (1).bin"), plan.body.bytes())
    }

    @Test func aNameHeldByAnotherUnfinishedTaskIsNeverTaken() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        server.route("/held.bin", .file(size: 5_000, seed: 75))
        let dir = try TemporaryDirectory()
        // Another task recorded this name and stopped before its first byte: its part file is empty.
        #expect(FileManager.default.createFile(atPath: dir.path + "/held.bin.part", contents: Data()))
        let engine = EngineHarness()
        var held = request(1, url: server.url("/held.bin"), directory: dir.path)
        held.namesHeldElsewhere = ["held.bin"]
        engine.start(held)
        #expect(try await engine.outcome(of: TaskID(1)) == .completed(fileName: "held (1).bin", bytes: 5_000))
        #expect(contents(dir.path + "/held.bin.part") == [])
    }
}
