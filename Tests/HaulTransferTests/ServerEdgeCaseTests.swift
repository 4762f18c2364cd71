import FaultServer
import HaulCore
import HaulTestSupport
import HaulTransfer
import Testing

/// Replies that real servers send and that are easy to get wrong: old charsets, root URLs, odd statuses.
@Suite(.timeLimit(.minutes(1))) struct ServerEdgeCaseTests {
    @Test func aLatin1FileNameKeepsItsAccent() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        var plan = FaultPlan.file(size: 1000, seed: 31)
        plan.contentDisposition = "attachment; filename=\"café.txt\""
        plan.latin1Headers = true
        server.route("/latin1", plan)
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/latin1"), directory: dir.path))
        #expect(try await engine.outcome(of: TaskID(1)) == .completed(fileName: "café.txt", bytes: 1000))
        #expect(listing(dir.path) == ["café.txt"])
    }

    @Test func aRootURLIsSavedAsIndexHTML() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        server.route("/", .file(size: 500, seed: 32))
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/"), directory: dir.path))
        #expect(try await engine.outcome(of: TaskID(1)) == .completed(fileName: "index.html", bytes: 500))
        #expect(listing(dir.path) == ["index.html"])
    }

    /// A header line longer than libcurl takes (100 KiB) is the server's fault, named as such: libcurl 7.88 ends
    /// the transfer with CURLE_OUT_OF_MEMORY, which read "network error … Out of memory".
    @Test func aHeaderLongerThanLibcurlTakesIsNamedAsTheServers() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        var plan = FaultPlan.file(size: 1000, seed: 12)
        plan.contentDisposition = "attachment; filename=" + String(repeating: "a", count: 200 << 10)
        server.route("/long.bin", plan)
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/long.bin"), directory: dir.path))
        guard let (error, durable) = try await engine.failure(of: TaskID(1)) else { return }
        guard case .invalidResponse(host: "127.0.0.1", let detail) = error else {
            Issue.record("a 200 KiB header failed as \(error)")
            return
        }
        #expect(detail.contains("header"), "\(detail)")
        #expect(!error.description.contains("Out of memory") || error.description.contains("header"), "\(error)")
        #expect(durable == 0)
        #expect(listing(dir.path).isEmpty)
    }

    @Test func a416ToAFreshDownloadFailsAtOnce() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        server.route("/refused.bin", .status(416))
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/refused.bin"), directory: dir.path))
        guard let (error, durable) = try await engine.failure(of: TaskID(1)) else { return }
        guard case .httpStatus(416, _, "127.0.0.1", _) = error else {
            Issue.record("a 416 without a Range failed as \(error)")
            return
        }
        #expect(!error.isTransient)
        #expect(durable == 0)
        #expect(server.stats("/refused.bin").rangeHeaders == [nil])
        #expect(listing(dir.path).isEmpty)
    }
}
