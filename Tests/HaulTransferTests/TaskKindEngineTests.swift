import FaultServer
import Foundation
import HaulCore
import HaulTestSupport
@testable import HaulTransfer
import Testing

/// A task's kind is decided once, where its first answer is read (DESIGN §11), and the engine's factory starts the
/// transfer a stored kind names.
@Suite(.timeLimit(.minutes(1))) struct TaskKindEngineTests {
    @Test func aPlaylistFoundByItsFirstBytesIsReportedOnceAsAStream() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        StreamEngineTests.stream(server, "p", count: 3, type: "application/octet-stream")
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/p/index.m3u8"), directory: dir.path, options: StreamEngineTests.options()))
        guard case .completed = try await engine.outcome(of: TaskID(1)) else {
            Issue.record("the stream did not complete")
            return
        }
        // Its answer's head did not tell (octet-stream): the report waited for the body, which showed a playlist.
        #expect(engine.responses(of: TaskID(1)).map(\.kind) == [.stream])
    }

    @Test func aFileIsReportedOnceAsAFileBeforeItsFirstBytesAreCounted() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let body = FaultPlan.file(size: 200_000, seed: 5).body.bytes()
        server.route("/f.bin", FaultPlan(body: .bytes(body), contentType: "application/octet-stream"))
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/f.bin"), directory: dir.path))
        #expect(try await engine.outcome(of: TaskID(1)) == .completed(fileName: "f.bin", bytes: 200_000))
        #expect(engine.responses(of: TaskID(1)).map(\.kind) == [.file])
        let firstResponse = engine.events.firstIndex { if case .responded = $0 { true } else { false } }
        let firstProgress = engine.events.firstIndex { if case .progress = $0 { true } else { false } }
        if let firstProgress { #expect(firstResponse.map { $0 < firstProgress } == true, "the answer is reported before its bytes") }
        #expect(contents(dir.path + "/f.bin") == body)
    }

    @Test func anEmptyFileIsStillReportedAsAFile() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        server.route("/empty.bin", FaultPlan(body: .bytes([]), contentType: "application/octet-stream"))
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/empty.bin"), directory: dir.path))
        #expect(try await engine.outcome(of: TaskID(1)) == .completed(fileName: "empty.bin", bytes: 0))
        #expect(engine.responses(of: TaskID(1)).map(\.kind) == [.file])
    }

    @Test func aTaskDecidedAsAFileStaysOneWhenItsLinkNowAnswersAPlaylist() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        StreamEngineTests.stream(server, "s", count: 2)
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        var file = request(1, url: server.url("/s/index.m3u8"), directory: dir.path)
        file.kind = .file
        engine.start(file)
        guard case .completed(fileName: "index.m3u8", _) = try await engine.outcome(of: TaskID(1)) else {
            Issue.record("a task decided as a file did not stay one")
            return
        }
        #expect(server.stats("/s/s0.ts").requests == 0)
    }
}
