import FaultServer
import HaulCore
import HaulTestSupport
@testable import HaulTransfer
import Testing

/// Numbers a lying server sends (a Content-Length past any file, a segment of 1e-300 s before long ones): the task
/// fails naming the value, or goes on with no estimate, and the engine keeps running.
@Suite(.timeLimit(.minutes(1))) struct HostileNumberTests {
    static let lie: Int64 = 9_223_372_036_854_775_000

    @Test(arguments: [
        ("Content-Length: 9223372036854775000", "Content-Length", "9223372036854775000"),
        ("Content-Length: 18446744073709551616", "Content-Length", "18446744073709551616"),
        ("Content-Range: bytes 0-99/9223372036854775807", "Content-Range", "bytes 0-99/9223372036854775807"),
        ("Content-Range: bytes 0-9223372036854775806/*", "Content-Range", "bytes 0-9223372036854775806/*"),
    ])
    func aSizePastTheLargestFileIsRefusedNamingTheHeader(line: String, header: String, value: String) {
        var head = ResponseHead()
        for text in ["HTTP/1.1 \(header == "Content-Range" ? "206 Partial Content" : "200 OK")", line, ""] { _ = head.feed(text + "\r\n") }
        let refusal = DownloadError.implausibleSize(header: header, value: value, host: "h")
        #expect(ResumeCheck.verdict(head: head, requestedOffset: 0, expectedTotal: nil, storedValidators: RemoteValidators(), host: "h")
            == .reject(refusal))
        #expect(RangeCheck.verdict(head: head, requested: 0..<100, total: 1000, validators: RemoteValidators(), host: "h")
            == .reject(refusal))
        #expect(refusal.description.contains("\(header): \(value)") && !refusal.isTransient, "\(refusal)")
        #expect(head.contentLength == nil)
    }

    @Test func anErrorPagesLengthIsNotTheFilesAndTheStatusIsTheError() {
        var head = ResponseHead()
        for text in ["HTTP/1.1 503 Service Unavailable", "Content-Length: \(Self.lie)", ""] { _ = head.feed(text + "\r\n") }
        #expect(head.implausibleSize(host: "h") == nil)
        let verdict = ResumeCheck.verdict(head: head, requestedOffset: 0, expectedTotal: nil, storedValidators: RemoteValidators(), host: "h")
        guard case .reject(.httpStatus(503, _, "h", _)) = verdict else {
            Issue.record("a 503 with a huge length gave \(verdict)")
            return
        }
    }

    @Test func aLyingContentLengthFailsTheTaskNamingItAndTheEngineGoesOn() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        server.route("/lie.bin", .file(size: Self.lie, seed: 41))
        server.route("/true.bin", .file(size: 5000, seed: 42))
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        let options = TransferOptions(stallTimeout: 5, diskReserve: 1 << 20, checkpointInterval: 0.2, split: 4)
        engine.start(request(1, url: server.url("/lie.bin"), directory: dir.path, options: options))
        guard let (error, durable) = try await engine.failure(of: TaskID(1)) else { return }
        #expect(error == .implausibleSize(header: "Content-Length", value: "\(Self.lie)", host: "127.0.0.1"))
        #expect(error.description.contains("Content-Length: \(Self.lie)"), "\(error)")
        #expect(durable == 0)
        engine.start(request(2, url: server.url("/true.bin"), directory: dir.path, options: options))
        #expect(try await engine.outcome(of: TaskID(2)) == .completed(fileName: "true.bin", bytes: 5000))
    }

    @Test func aSegmentWithALyingContentLengthFailsTheStreamNamingIt() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        server.route("/lying/s0.ts", .file(size: Self.lie, seed: 43))
        StreamEngineTests.serve(server, "/lying/index.m3u8", text: StreamEngineTests.playlist(["s0.ts"]))
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/lying/index.m3u8"), directory: dir.path, options: StreamEngineTests.options()))
        guard let (error, _) = try await engine.failure(of: TaskID(1)) else { return }
        #expect(error.description.contains("Content-Length: \(Self.lie)") && !error.isTransient, "\(error)")
    }

    @Test func aTinySegmentBeforeLongOnesLeavesNoEstimateAndTheStreamCompletes() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        // The long segments answer late, so a checkpoint holds the tiny one alone.
        let late = FaultPlan(body: .bytes([]), headerDelay: .milliseconds(800))
        let bodies = StreamEngineTests.stream(server, "tiny", count: 4, plans: [1: late, 2: late, 3: late])
        StreamEngineTests.serve(server, "/tiny/index.m3u8", text: StreamEngineTests.playlist(
            (0..<4).map { "s\($0).ts" }, durations: [1e-300, 900_000, 900_000, 900_000]))
        StreamEngineTests.stream(server, "plain", count: 2)
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/tiny/index.m3u8"), directory: dir.path, options: StreamEngineTests.options()))
        #expect(try await engine.outcome(of: TaskID(1)) == .completed(fileName: "index.ts", bytes: Int64(bodies.joined().count)))
        let checkpoints = StreamEngineTests.checkpoints(engine, 1)
        #expect(!checkpoints.isEmpty)
        // What the controller makes of every checkpoint: after the tiny segment alone, no estimate rather than a trap.
        #expect(checkpoints.allSatisfy { ($0.estimatedTotal() ?? 0) <= StatedSize.limit })
        #expect(checkpoints.contains { $0.segmentsDone == 1 && $0.estimatedTotal() == nil })
        engine.start(request(2, url: server.url("/plain/index.m3u8"), directory: dir.path, options: StreamEngineTests.options()))
        guard case .completed = try await engine.outcome(of: TaskID(2)) else {
            Issue.record("the second stream did not complete")
            return
        }
    }
}
