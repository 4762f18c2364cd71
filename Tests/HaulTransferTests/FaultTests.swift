import FaultServer
import Foundation
import HaulCore
import HaulTestSupport
import HaulTransfer
import Testing

/// Every fault ends in a clear, typed error on that task and never writes where it must not.
@Suite(.timeLimit(.minutes(1))) struct FaultTests {
    @Test func notFoundWritesNothing() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        server.route("/missing.bin", .status(404))
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/missing.bin"), directory: dir.path))
        guard let (error, durable) = try await engine.failure(of: TaskID(1)) else { return }
        guard case let .httpStatus(code, _, host, _) = error else {
            Issue.record("a 404 did not fail with its status")
            return
        }
        #expect(code == 404)
        #expect(host == "127.0.0.1")
        #expect(!error.isTransient)
        #expect(durable == 0)
        #expect(listing(dir.path).isEmpty)
    }

    @Test func unavailableCarriesRetryAfter() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        var plan = FaultPlan.file(size: 1000)
        plan.failFirst = 1
        plan.retryAfter = 7
        server.route("/busy.bin", plan)
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/busy.bin"), directory: dir.path))
        guard let (error, _) = try await engine.failure(of: TaskID(1)) else { return }
        #expect(error.isTransient)
        #expect(error.retryAfter == 7)
        engine.start(request(2, url: server.url("/busy.bin"), directory: dir.path))
        #expect(try await engine.outcome(of: TaskID(2)) == .completed(fileName: "busy.bin", bytes: 1000))
    }

    @Test func aShortBodyIsATransientErrorKeepingTheBytes() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        var plan = FaultPlan.file(size: 1 << 20, seed: 21)
        plan.shortBy = 1000
        server.route("/short.bin", plan)
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/short.bin"), directory: dir.path))
        guard let (error, durable) = try await engine.failure(of: TaskID(1)) else { return }
        #expect(error.isTransient)
        #expect(durable == (1 << 20) - 1000)
        #expect(!listing(dir.path).contains("short.bin"))
    }

    @Test func aStalledServerTimesOut() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        var plan = FaultPlan.file(size: 1 << 20, seed: 22)
        plan.stallAfter = 100_000
        server.route("/stall.bin", plan)
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        var options = TransferOptions(stallTimeout: 1, diskReserve: 0, checkpointInterval: 0.2, split: 1)
        options.connectTimeout = 5
        engine.start(request(1, url: server.url("/stall.bin"), directory: dir.path, options: options))
        guard let (error, durable) = try await engine.failure(of: TaskID(1), timeout: .seconds(10)) else { return }
        guard case .stalled = error else {
            Issue.record("a stall was not reported as one")
            return
        }
        #expect(durable == 100_000)
    }

    @Test func hostileNamesStayInsideTheDownloadDirectory() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        var evil = FaultPlan.file(size: 1000)
        evil.contentDisposition = "attachment; filename=\"../../evil\u{1B}[2J.sh\""
        server.route("/x", evil)
        var cjk = FaultPlan.file(size: 1000, seed: 2)
        cjk.contentDisposition = "attachment; filename=\"fallback.mp4\"; filename*=UTF-8''%E9%9B%BB%E5%BD%B1.mp4"
        server.route("/y", cjk)
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/x"), directory: dir.path))
        engine.start(request(2, url: server.url("/y"), directory: dir.path))
        #expect(try await engine.outcome(of: TaskID(1)) == .completed(fileName: "evil[2J.sh", bytes: 1000))
        #expect(try await engine.outcome(of: TaskID(2)) == .completed(fileName: "電影.mp4", bytes: 1000))
        #expect(listing(dir.path) == ["evil[2J.sh", "電影.mp4"])
    }

    @Test func neverOverwritesAnExistingFile() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        server.route("/same.bin", .file(size: 2000, seed: 3))
        let dir = try TemporaryDirectory()
        #expect(FileManager.default.createFile(atPath: dir.path + "/same.bin", contents: Data("mine".utf8)))
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/same.bin"), directory: dir.path))
        #expect(try await engine.outcome(of: TaskID(1)) == .completed(fileName: "same (1).bin", bytes: 2000))
        expectSameBytes(contents(dir.path + "/same.bin"), Array("mine".utf8))
    }

    @Test func redirectsAreFollowedOnlyToHTTP() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        server.route("/real.bin", .file(size: 5000, seed: 4))
        server.route("/hop1", .redirect(to: "/hop2"))
        server.route("/hop2", .redirect(to: server.url("/real.bin"), status: 301))
        server.route("/to-file", .redirect(to: "file:///etc/passwd"))
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/hop1"), directory: dir.path))
        engine.start(request(2, url: server.url("/to-file"), directory: dir.path))
        #expect(try await engine.outcome(of: TaskID(1)) == .completed(fileName: "hop1", bytes: 5000))
        guard let (error, _) = try await engine.failure(of: TaskID(2)) else { return }
        guard case .unsupportedScheme = error else {
            Issue.record("a redirect to file:// was not refused")
            return
        }
        #expect(listing(dir.path) == ["hop1"])
    }

    /// A `Location` with a raw space (servers send them; curl leaves an absolute one as it is) is followed with the
    /// space sent as `%20`, as a typed link's is; one that is no URL fails its task naming the redirect, not the link.
    @Test func aRedirectToALinkWithASpaceIsFollowedAndOneThatIsNoURLIsNamed() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        server.route("/a b.bin", .file(size: 3000, seed: 8))
        server.route("/spaced", .redirect(to: server.url("/") + "a b.bin"))
        server.route("/broken", .redirect(to: "http://[::1/x"))
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/spaced"), directory: dir.path))
        engine.start(request(2, url: server.url("/broken"), directory: dir.path))
        #expect(try await engine.outcome(of: TaskID(1)) == .completed(fileName: "spaced", bytes: 3000))
        guard let (error, _) = try await engine.failure(of: TaskID(2)) else { return }
        #expect(error.description.contains("Location"), "the redirect is named, not the link: \(error)")
        #expect(!error.description.contains("/broken"), "the link itself is fine: \(error)")
    }

    @Test func chunkedBodiesWithoutALengthComplete() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        var plan = FaultPlan.file(size: 300_000, seed: 5)
        plan.chunked = true
        server.route("/chunked.bin", plan)
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/chunked.bin"), directory: dir.path))
        #expect(try await engine.outcome(of: TaskID(1)) == .completed(fileName: "chunked.bin", bytes: 300_000))
        #expect(engine.responses(of: TaskID(1)).first?.totalBytes == nil)
        expectSameBytes(contents(dir.path + "/chunked.bin"), plan.body.bytes())
    }

    @Test func aChecksumMismatchKeepsNothing() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        server.route("/sum.bin", .file(size: 4000, seed: 6))
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        let wrong = Checksum(algorithm: .sha256, hex: String(repeating: "0", count: 64))
        engine.start(request(1, url: server.url("/sum.bin"), directory: dir.path, checksum: wrong))
        guard let (error, durable) = try await engine.failure(of: TaskID(1)) else { return }
        guard case .checksumMismatch = error else {
            Issue.record("a wrong checksum was accepted")
            return
        }
        #expect(durable == 0)
        #expect(listing(dir.path).isEmpty)
    }

    @Test func aMatchingChecksumPublishes() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        server.route("/empty.bin", FaultPlan(body: .bytes([])))
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        // SHA-256 of no bytes.
        let sum = Checksum(parsing: "sha-256=e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        engine.start(request(1, url: server.url("/empty.bin"), directory: dir.path, checksum: sum))
        #expect(try await engine.outcome(of: TaskID(1)) == .completed(fileName: "empty.bin", bytes: 0))
        #expect(listing(dir.path) == ["empty.bin"])
    }

    @Test func refusedConnectionsAreTransientNetworkErrors() async throws {
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        // Port 1 on loopback: nothing listens there.
        engine.start(request(1, url: "http://127.0.0.1:1/x.bin", directory: dir.path))
        guard let (error, _) = try await engine.failure(of: TaskID(1)) else { return }
        guard case .network = error else {
            Issue.record("a refused connection was not a network error")
            return
        }
        #expect(error.isTransient)
    }
}
