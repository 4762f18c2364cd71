import FaultServer
import Foundation
import HaulCore
import HaulTestSupport
@testable import HaulTransfer
import Testing

/// The engine follows redirects itself, one request per hop (`RedirectHop`), for a stream's fetches as for files: a
/// playlist behind a redirect resolves its segments against where it was found, a redirected segment arrives, and
/// a segment that redirects without end fails the stream naming it.
@Suite(.timeLimit(.minutes(1))) struct StreamRedirectTests {
    @Test func aRedirectedPlaylistAndSegmentArriveWhole() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        var bodies = StreamEngineTests.stream(server, "v", count: 4)
        // The playlist's link redirects to it; its second segment lives elsewhere, behind two redirects.
        server.route("/go/index.m3u8", .redirect(to: server.url("/v/index.m3u8")))
        bodies[1] = StreamEngineTests.segment(41)
        server.route("/v/s1.ts", .redirect(to: "/hop/s1.ts", status: 307))
        server.route("/hop/s1.ts", .redirect(to: server.url("/moved/s1.ts"), status: 301))
        server.route("/moved/s1.ts", FaultPlan(body: .bytes(bodies[1])))
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/go/index.m3u8"), directory: dir.path, options: StreamEngineTests.options()))
        let outcome = try await engine.outcome(of: TaskID(1))
        #expect(outcome == .completed(fileName: "index.ts", bytes: Int64(bodies.joined().count)))
        expectSameBytes(contents(dir.path + "/index.ts"), Array(bodies.joined()))
        #expect(["/go/index.m3u8", "/v/index.m3u8", "/v/s1.ts", "/hop/s1.ts", "/moved/s1.ts"].allSatisfy { server.stats($0).requests == 1 })
    }

    @Test func aSegmentThatRedirectsWithoutEndFailsTheStream() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        StreamEngineTests.stream(server, "v", count: 3)
        server.route("/v/s2.ts", .redirect(to: "/v/s2.ts"))
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/v/index.m3u8"), directory: dir.path, options: StreamEngineTests.options()))
        let outcome = try await engine.outcome(of: TaskID(1))
        guard case let .failed(error, _) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(error.description.contains("too many redirects"), "\(error)")
        // Ten redirects followed, the eleventh refused, for each try of the segment.
        let asked = server.stats("/v/s2.ts").requests
        #expect(asked > 0 && asked % (RedirectHop.limit + 1) == 0, "\(asked)")
    }
}
