import FaultServer
import Foundation
import HaulCore
import HaulTestSupport
import HaulTransfer
import Testing

/// Downloads over real HTTP from the fault server, through every resume rule of DESIGN §5.
@Suite(.timeLimit(.minutes(1))) struct ResumeTests {
    @Test func downloadsAWholeFile() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let plan = FaultPlan.file(size: 3 << 20, seed: 11)
        server.route("/a.bin", plan)
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/a.bin"), directory: dir.path))
        let outcome = try await engine.outcome(of: TaskID(1))
        #expect(outcome == .completed(fileName: "a.bin", bytes: 3 << 20))
        expectSameBytes(contents(dir.path + "/a.bin"), plan.body.bytes())
        #expect(listing(dir.path) == ["a.bin"])
        #expect(engine.responses(of: TaskID(1)).first?.totalBytes == 3 << 20)
    }

    @Test func resumesAfterADroppedConnectionWithRangeAndIfRange() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        var plan = FaultPlan.file(size: 4 << 20, seed: 12)
        plan.dropAfter = 1_500_000
        server.route("/drop.bin", plan)
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/drop.bin"), directory: dir.path))
        guard let (error, durable) = try await engine.failure(of: TaskID(1)) else { return }
        #expect(error.isTransient)
        #expect(durable == 1_500_000)
        let first = try #require(engine.responses(of: TaskID(1)).first)
        #expect(try FileManager.default.attributesOfItem(atPath: dir.path + "/drop.bin.part")[.size] as? Int64 == durable)

        engine.start(request(
            2, url: server.url("/drop.bin"), directory: dir.path, fileName: first.fileName, resumeFrom: durable,
            expectedTotal: first.totalBytes, validators: first.validators))
        let outcome = try await engine.outcome(of: TaskID(2))
        #expect(outcome == .completed(fileName: "drop.bin", bytes: 4 << 20))
        expectSameBytes(contents(dir.path + "/drop.bin"), plan.body.bytes())
        let stats = server.stats("/drop.bin")
        #expect(stats.rangeHeaders.last == "bytes=1500000-")
        #expect(stats.ifRangeHeaders.last == first.validators.ifRangeValue)
        #expect(stats.bodyBytesSent == 4 << 20)
        #expect(engine.responses(of: TaskID(2)).first?.restartReason == nil)
    }

    @Test func restartsFromZeroWhenTheServerIgnoresRanges() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        var plan = FaultPlan.file(size: 1 << 20, seed: 13)
        plan.acceptRanges = false
        server.route("/norange.bin", plan)
        let dir = try TemporaryDirectory()
        // A part file holding the first 300,000 bytes, as if an earlier run had stopped there.
        let full = plan.body.bytes()
        #expect(FileManager.default.createFile(atPath: dir.path + "/norange.bin.part", contents: Data(full[0..<300_000])))
        let engine = EngineHarness()
        engine.start(request(
            1, url: server.url("/norange.bin"), directory: dir.path, fileName: "norange.bin", resumeFrom: 300_000,
            expectedTotal: 1 << 20))
        #expect(try await engine.outcome(of: TaskID(1)) == .completed(fileName: "norange.bin", bytes: 1 << 20))
        expectSameBytes(contents(dir.path + "/norange.bin"), full)
        #expect(engine.responses(of: TaskID(1)).first?.restartReason == "server ignores ranges")
        #expect(engine.checkpoints(of: TaskID(1)).first == 0)
    }

    @Test func restartsWhenTheRemoteFileChanged() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        var plan = FaultPlan.file(size: 2 << 20, seed: 14)
        plan.dropAfter = 700_000
        plan.changeAfterRequests = 1
        server.route("/changing.bin", plan)
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/changing.bin"), directory: dir.path))
        guard let (_, durable) = try await engine.failure(of: TaskID(1)) else { return }
        let first = try #require(engine.responses(of: TaskID(1)).first)
        engine.start(request(
            2, url: server.url("/changing.bin"), directory: dir.path, fileName: first.fileName, resumeFrom: durable,
            expectedTotal: first.totalBytes, validators: first.validators))
        #expect(try await engine.outcome(of: TaskID(2)) == .completed(fileName: "changing.bin", bytes: 2 << 20))
        expectSameBytes(contents(dir.path + "/changing.bin"), plan.body.bytes(version: 2))
        #expect(engine.responses(of: TaskID(2)).first?.restartReason == "remote file changed")
    }

    @Test func a416WithTheRecordedTotalMeansComplete() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let plan = FaultPlan.file(size: 500_000, seed: 15)
        server.route("/done.bin", plan)
        let dir = try TemporaryDirectory()
        #expect(FileManager.default.createFile(atPath: dir.path + "/done.bin.part", contents: Data(plan.body.bytes())))
        let engine = EngineHarness()
        engine.start(request(
            1, url: server.url("/done.bin"), directory: dir.path, fileName: "done.bin", resumeFrom: 500_000,
            expectedTotal: 500_000))
        #expect(try await engine.outcome(of: TaskID(1)) == .completed(fileName: "done.bin", bytes: 500_000))
        expectSameBytes(contents(dir.path + "/done.bin"), plan.body.bytes())
        #expect(server.stats("/done.bin").statuses == [416])
    }

    @Test func aRangeStartingElsewhereIsRejected() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        var plan = FaultPlan.file(size: 500_000, seed: 16)
        plan.wrongRangeStart = 0
        server.route("/liar.bin", plan)
        let dir = try TemporaryDirectory()
        let kept = Data(plan.body.bytes()[0..<100_000])
        #expect(FileManager.default.createFile(atPath: dir.path + "/liar.bin.part", contents: kept))
        let engine = EngineHarness()
        engine.start(request(
            1, url: server.url("/liar.bin"), directory: dir.path, fileName: "liar.bin", resumeFrom: 100_000,
            expectedTotal: 500_000))
        guard let (error, durable) = try await engine.failure(of: TaskID(1)) else { return }
        guard case .badContentRange = error else {
            Issue.record("a wrong Content-Range was accepted")
            return
        }
        #expect(durable == 100_000)
        expectSameBytes(contents(dir.path + "/liar.bin.part"), [UInt8](kept))
    }

    @Test func theRecordedOffsetNeverExceedsThePartFile() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let plan = FaultPlan.file(size: 1 << 20, seed: 17)
        server.route("/short.bin", plan)
        let dir = try TemporaryDirectory()
        // The database says 800,000 bytes but only 200,000 reached the disk: resume from 200,000.
        #expect(FileManager.default.createFile(atPath: dir.path + "/short.bin.part", contents: Data(plan.body.bytes()[0..<200_000])))
        let engine = EngineHarness()
        engine.start(request(
            1, url: server.url("/short.bin"), directory: dir.path, fileName: "short.bin", resumeFrom: 800_000,
            expectedTotal: 1 << 20, validators: RemoteValidators(etag: nil, lastModified: nil)))
        #expect(try await engine.outcome(of: TaskID(1)) == .completed(fileName: "short.bin", bytes: 1 << 20))
        #expect(server.stats("/short.bin").rangeHeaders == ["bytes=200000-"])
        expectSameBytes(contents(dir.path + "/short.bin"), plan.body.bytes())
    }

    @Test func pauseKeepsExactlyTheSyncedBytes() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        // Slow enough that a loaded machine still pauses it well before the end.
        var plan = FaultPlan.file(size: 16 << 20, seed: 18)
        plan.throttle = 1 << 20
        server.route("/slow.bin", plan)
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/slow.bin"), directory: dir.path))
        try await eventually("some progress", timeout: .seconds(10)) { (engine.position(of: TaskID(1)) ?? 0) > 300_000 }
        engine.driver.send(.pause(TaskID(1)))
        guard case let .paused(durable) = try await engine.outcome(of: TaskID(1)) else {
            Issue.record("pause did not end in paused")
            return
        }
        #expect(durable > 300_000)
        #expect(durable < 16 << 20)
        let part = try #require(contents(dir.path + "/slow.bin.part"))
        #expect(Int64(part.count) == durable)
        expectSameBytes(part, plan.body.bytes(in: 0..<durable))
    }
}
