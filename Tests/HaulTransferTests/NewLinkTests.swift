import FaultServer
import Foundation
import HaulCore
import HaulTestSupport
import Testing
@testable import HaulTransfer

/// A task whose link was replaced (DESIGN §8), over real HTTP: the kept bytes go on from the new link when it
/// serves the same file, and stay untouched when it does not.
@Suite(.timeLimit(.minutes(2))) struct NewLinkTests {
    static let size: Int64 = 3 << 20

    /// A partial file of `plan`'s first `kept` bytes, and a request for it from `path` under `change`.
    func resumeFromNewLink(
        _ server: FaultServer, _ dir: TemporaryDirectory, path: String, kept: Int, plan: FaultPlan, change: LinkChange,
        oldETag: String, split: Int = 1, segments: [SegmentRecord] = []
    ) -> TransferRequest {
        var partial = [UInt8](plan.body.bytes()[0..<kept])
        if !segments.isEmpty {
            partial = [UInt8](repeating: 0, count: Int(Self.size))
            for record in segments {
                let end = Int(record.start + record.committed)
                partial.replaceSubrange(Int(record.start)..<end, with: plan.body.bytes()[Int(record.start)..<end])
            }
        }
        #expect(FileManager.default.createFile(atPath: dir.path + "/f.bin.part", contents: Data(partial)))
        var request = request(
            1, url: server.url(path), directory: dir.path, fileName: "f.bin", resumeFrom: Int64(kept),
            expectedTotal: Self.size, validators: RemoteValidators(etag: oldETag),
            options: TransferOptions(stallTimeout: 5, diskReserve: 0, checkpointInterval: 0.2, split: split,
                                     minSplitSize: 1 << 20, maxHostConnections: 16))
        request.segments = segments
        request.linkChange = change
        return request
    }

    @Test func theSameFileFromANewLinkKeepsTheBytesAndFetchesOnlyTheRest() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let plan = FaultPlan.file(size: Self.size, seed: 41)
        server.route("/new.bin", plan)
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(resumeFromNewLink(
            server, dir, path: "/new.bin", kept: 1 << 20, plan: plan, change: .sameFile, oldETag: "\"\(Self.size)-41-v1\""))
        #expect(try await engine.outcome(of: TaskID(1)) == .completed(fileName: "f.bin", bytes: Self.size))
        expectSameBytes(contents(dir.path + "/f.bin"), plan.body.bytes())
        let stats = server.stats("/new.bin")
        #expect(stats.rangeHeaders == ["bytes=\(1 << 20)-"])
        // Asked without If-Range: the answer itself is checked against the kept bytes.
        #expect(stats.ifRangeHeaders == [nil])
        #expect(stats.bodyBytesSent == Int64(Self.size - (1 << 20)))
    }

    @Test func anotherLengthIsRefusedAndTheKeptBytesStay() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let plan = FaultPlan.file(size: Self.size, seed: 42)
        server.route("/longer.bin", FaultPlan.file(size: Self.size + 1000, seed: 42))
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(resumeFromNewLink(
            server, dir, path: "/longer.bin", kept: 1 << 20, plan: plan, change: .keepBytes, oldETag: "\"old\""))
        guard let (error, durable) = try await engine.failure(of: TaskID(1)) else { return }
        #expect(error == .linkServesAnotherFile(kept: Self.size, offered: Int64(Self.size + 1000)))
        #expect(!error.isTransient)
        #expect(durable == 1 << 20)
        expectSameBytes(contents(dir.path + "/f.bin.part"), [UInt8](plan.body.bytes()[0..<(1 << 20)]))
    }

    @Test func anotherETagNeedsKeepBytes() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let plan = FaultPlan.file(size: Self.size, seed: 43)
        server.route("/mirror.bin", plan)
        let dir = try TemporaryDirectory()
        let refused = EngineHarness()
        refused.start(resumeFromNewLink(server, dir, path: "/mirror.bin", kept: 1 << 20, plan: plan, change: .sameFile, oldETag: "\"other\""))
        guard let (error, durable) = try await refused.failure(of: TaskID(1)) else { return }
        guard case let .linkDisagrees(mismatch) = error else {
            Issue.record("refused for another reason: \(error)")
            return
        }
        #expect(mismatch.validator == .etag && mismatch.recorded == "\"other\"")
        #expect(durable == 1 << 20)
        expectSameBytes(contents(dir.path + "/f.bin.part"), [UInt8](plan.body.bytes()[0..<(1 << 20)]))

        let vouched = EngineHarness()
        vouched.start(resumeFromNewLink(server, dir, path: "/mirror.bin", kept: 1 << 20, plan: plan, change: .keepBytes, oldETag: "\"other\""))
        #expect(try await vouched.outcome(of: TaskID(1)) == .completed(fileName: "f.bin", bytes: Self.size))
        expectSameBytes(contents(dir.path + "/f.bin"), plan.body.bytes())
    }

    @Test func aSegmentedTaskKeepsEveryDurableRange() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let plan = FaultPlan.file(size: Self.size, seed: 44)
        server.route("/seg.bin", plan)
        let dir = try TemporaryDirectory()
        let mib = Int64(1 << 20)
        let layout = [
            SegmentRecord(start: 0, end: mib, committed: mib / 2),
            SegmentRecord(start: mib, end: 2 * mib, committed: mib),
            SegmentRecord(start: 2 * mib, end: 3 * mib, committed: mib / 4),
        ]
        let engine = EngineHarness()
        engine.start(resumeFromNewLink(
            server, dir, path: "/seg.bin", kept: Int(mib / 2), plan: plan, change: .sameFile,
            oldETag: "\"\(Self.size)-44-v1\"", split: 4, segments: layout))
        #expect(try await engine.outcome(of: TaskID(1)) == .completed(fileName: "f.bin", bytes: Self.size))
        expectSameBytes(contents(dir.path + "/f.bin"), plan.body.bytes())
        // Only what no range kept was asked for again: 1.75 MiB fetched of 3 MiB.
        #expect(server.stats("/seg.bin").bodyBytesSent == 3 * mib - mib / 2 - mib - mib / 4)
        #expect(server.stats("/seg.bin").ifRangeHeaders.allSatisfy { $0 == nil })
    }
}
