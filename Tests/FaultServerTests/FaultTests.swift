import FaultServer
import HaulTestSupport
import Testing

/// Each scripted fault, observed from a real client.
@Suite struct FaultTests {
    let curl: Curl
    let server: FaultServer

    init() throws {
        curl = try Curl()
        server = try FaultServer(lifetime: .seconds(60))
    }

    @Test func dropCutsTheFirstResponseOnly() async throws {
        defer { server.stop() }
        var plan = FaultPlan.file(size: 300_000, seed: 3)
        plan.dropAfter = 100_000
        server.route("/d.bin", plan)
        let cut = try await curl.fetch(server.url("/d.bin"))
        #expect(cut.exitCode == 18)
        #expect(cut.body == plan.body.bytes(in: 0..<100_000))
        let resumed = try await curl.fetch(server.url("/d.bin"), headers: ["Range: bytes=100000-"])
        #expect(resumed.exitCode == 0)
        #expect(resumed.status == 206)
        #expect(cut.body + resumed.body == plan.body.bytes())
        let stats = server.stats("/d.bin")
        #expect(stats.requests == 2)
        #expect(stats.bodyBytesSent == 300_000)
        #expect(stats.rangeHeaders == [nil, "bytes=100000-"])
    }

    @Test func dropTimesCountsOnlyResponsesThatReachThePoint() async throws {
        defer { server.stop() }
        var plan = FaultPlan.file(size: 10_000, seed: 3)
        plan.dropAfter = 5_000
        plan.dropTimes = 2
        server.route("/d.bin", plan)
        // A short range never reaches byte 5000 of its body, so it does not use up a drop.
        let small = try await curl.fetch(server.url("/d.bin"), headers: ["Range: bytes=9000-"])
        #expect(small.exitCode == 0)
        let codes = try await [curl.fetch(server.url("/d.bin")), curl.fetch(server.url("/d.bin")),
                               curl.fetch(server.url("/d.bin"))].map(\.exitCode)
        #expect(codes == [18, 18, 0])
    }

    @Test func shortBodyAnnouncesTheTrueLength() async throws {
        defer { server.stop() }
        var plan = FaultPlan.file(size: 50_000, seed: 4)
        plan.shortBy = 1_000
        server.route("/s.bin", plan)
        let result = try await curl.fetch(server.url("/s.bin"))
        #expect(result.exitCode == 18)
        #expect(result.header("Content-Length") == "50000")
        #expect(result.body == plan.body.bytes(in: 0..<49_000))
    }

    @Test func stallKeepsTheSocketOpenAndSilent() async throws {
        defer { server.stop() }
        var plan = FaultPlan.file(size: 100_000, seed: 5)
        plan.stallAfter = 4_096
        server.route("/st.bin", plan)
        let result = try await curl.fetch(server.url("/st.bin"), options: ["--max-time", "0.5"])
        #expect(result.exitCode == 28)
        #expect(result.body == plan.body.bytes(in: 0..<4_096))
        #expect(server.stats("/st.bin").bodyBytesSent == 4_096)
        let second = try await curl.fetch(server.url("/st.bin"))
        #expect(second.exitCode == 0)
        #expect(second.body == plan.body.bytes())
    }

    @Test func chunkedHasNoLengthAndNoRanges() async throws {
        defer { server.stop() }
        var plan = FaultPlan.file(size: 700_001, seed: 6)
        plan.chunked = true
        server.route("/c.bin", plan)
        let result = try await curl.fetch(server.url("/c.bin"), headers: ["Range: bytes=5-"])
        #expect(result.exitCode == 0)
        #expect(result.status == 200)
        #expect(result.header("Transfer-Encoding") == "chunked")
        #expect(result.header("Content-Length") == nil)
        #expect(result.header("Accept-Ranges") == nil)
        #expect(result.body == plan.body.bytes())
        #expect(server.stats("/c.bin").bodyBytesSent == 700_001)
    }

    @Test func chunkedDropLeavesTheBodyUnterminated() async throws {
        defer { server.stop() }
        var plan = FaultPlan.file(size: 100_000, seed: 6)
        plan.chunked = true
        plan.dropAfter = 30_000
        server.route("/c.bin", plan)
        let result = try await curl.fetch(server.url("/c.bin"))
        #expect(result.exitCode == 18)
        #expect(result.body == plan.body.bytes(in: 0..<30_000))
    }

    @Test func failFirstSendsRetryAfterThenServes() async throws {
        defer { server.stop() }
        var plan = FaultPlan.file(size: 1_000, seed: 8)
        plan.failFirst = 2
        plan.retryAfter = 3
        server.route("/r.bin", plan)
        let first = try await curl.fetch(server.url("/r.bin"))
        let second = try await curl.fetch(server.url("/r.bin"))
        let third = try await curl.fetch(server.url("/r.bin"))
        #expect([first.status, second.status, third.status] == [503, 503, 200])
        #expect(first.header("Retry-After") == "3")
        #expect(third.body == plan.body.bytes())
        #expect(server.stats("/r.bin").statuses == [503, 503, 200])
    }

    @Test func failStatusCanBeAnyCode() async throws {
        defer { server.stop() }
        var plan = FaultPlan.file(size: 10, seed: 8)
        plan.failFirst = 1
        plan.failStatus = 429
        server.route("/r.bin", plan)
        #expect(try await curl.fetch(server.url("/r.bin")).status == 429)
        #expect(try await curl.fetch(server.url("/r.bin")).status == 200)
    }

    @Test func changedContentGetsANewETagAndDefeatsIfRange() async throws {
        defer { server.stop() }
        var plan = FaultPlan.file(size: 20_000, seed: 9)
        plan.changeAfterRequests = 1
        server.route("/v.bin", plan)
        let first = try await curl.fetch(server.url("/v.bin"))
        let oldETag = try #require(first.header("ETag"))
        let resume = try await curl.fetch(
            server.url("/v.bin"), headers: ["Range: bytes=10000-", "If-Range: \(oldETag)"])
        #expect(first.body == plan.body.bytes(version: 1))
        #expect(resume.status == 200)
        #expect(resume.header("ETag") != oldETag)
        #expect(resume.header("Last-Modified") == "Tue, 07 Jan 2025 10:00:00 GMT")
        #expect(resume.body == plan.body.bytes(version: 2))
        #expect(resume.body == FaultPlan.Body.generated(size: 20_000, seed: 10).bytes())
        #expect(plan.body.bytes(version: 2) != plan.body.bytes(version: 1))
    }

    @Test func wrongRangeStartLiesInContentRange() async throws {
        defer { server.stop() }
        var plan = FaultPlan.file(size: 10_000, seed: 11)
        plan.wrongRangeStart = 0
        server.route("/w.bin", plan)
        let result = try await curl.fetch(server.url("/w.bin"), headers: ["Range: bytes=5000-"])
        #expect(result.status == 206)
        #expect(result.header("Content-Range") == "bytes 0-9999/10000")
        #expect(result.body == plan.body.bytes())
    }

    @Test func extraFaultsHitOnlyRangesAfterByteZeroAndOnlyTheFirstK() async throws {
        defer { server.stop() }
        // From the query: the first two requests for a range after byte 0 get 503 with Retry-After.
        let url = server.url("/gen/x.bin?size=10000&seed=5&xfault=fail&xfaults=2&retryafter=4")
        let whole = try await curl.fetch(url)
        #expect(whole.status == 200)
        let fromZero = try await curl.fetch(url, headers: ["Range: bytes=0-99"])
        #expect(fromZero.status == 206)
        let refused = try await curl.fetch(url, headers: ["Range: bytes=100-199"])
        #expect(refused.status == 503)
        #expect(refused.header("Retry-After") == "4")
        #expect(try await curl.fetch(url, headers: ["Range: bytes=200-"]).status == 503)
        let served = try await curl.fetch(url, headers: ["Range: bytes=300-399"])
        #expect(served.status == 206)
        #expect(served.body == FaultPlan.Body.generated(size: 10_000, seed: 5).bytes(in: 300..<400))
    }

    @Test(arguments: [
        ("cap:100", 206, "bytes 5000-5099/10000", Int64(5000)..<5100, 1),
        ("wrongstart:64", 206, "bytes 5064-5999/10000", 5064..<6000, 1),
        ("etag", 206, "bytes 5000-5999/10000", 5000..<6000, 2),
        ("full", 200, nil, 0..<10000, 1),
        ("416", 416, "bytes */10000", 0..<0, 1),
    ])
    func extraFaultsShapeTheAnswer(
        fault: String, status: Int, contentRange: String?, bytes: Range<Int64>, version: Int
    ) async throws {
        defer { server.stop() }
        let plan = try #require(FaultPlan.fromQuery(["size": "10000", "seed": "6", "xfault": fault], name: "f"))
        server.route("/f.bin", plan)
        let result = try await curl.fetch(server.url("/f.bin"), headers: ["Range: bytes=5000-5999", "If-Range: \"10000-6-v1\""])
        #expect(result.status == status)
        #expect(result.header("Content-Range") == contentRange)
        if status != 416 { #expect(result.body == plan.body.bytes(in: bytes, version: version)) }
        if version == 2 { #expect(result.header("ETag") == "\"10000-6-v2\"") }
        // Only the first such request.
        #expect(try await curl.fetch(server.url("/f.bin"), headers: ["Range: bytes=5000-5999"]).status == 206)
    }

    @Test func anExtraShortBodyClosesEarly() async throws {
        defer { server.stop() }
        var plan = FaultPlan.file(size: 10_000, seed: 7)
        plan.extraFault = .short(1000)
        server.route("/s.bin", plan)
        let cut = try await curl.fetch(server.url("/s.bin"), headers: ["Range: bytes=2000-5999"])
        #expect(cut.exitCode == 18)
        #expect(cut.header("Content-Range") == "bytes 2000-5999/10000")
        #expect(cut.body == plan.body.bytes(in: 2000..<5000))
        #expect(try await curl.fetch(server.url("/s.bin"), headers: ["Range: bytes=2000-5999"]).exitCode == 0)
    }

    @Test func throttleSlowsTheBody() async throws {
        defer { server.stop() }
        var plan = FaultPlan.file(size: 64 * 1024, seed: 12)
        plan.throttle = 256 * 1024
        server.route("/t.bin", plan)
        let clock = ContinuousClock()
        var result: CurlResult?
        let elapsed = try await clock.measure { result = try await curl.fetch(server.url("/t.bin")) }
        #expect(result?.body == plan.body.bytes())
        // What a throttle does: no faster than its rate (a machine can only make it slower).
        #expect(elapsed >= .milliseconds(200), "64 KiB at 256 KiB/s took \(elapsed)")
    }

    @Test func headerDelayHoldsTheStatusLine() async throws {
        defer { server.stop() }
        var plan = FaultPlan.file(size: 10, seed: 13)
        plan.headerDelay = .milliseconds(300)
        server.route("/h.bin", plan)
        let started = ContinuousClock.now
        let result = try await curl.fetch(server.url("/h.bin"))
        #expect(result.status == 200)
        #expect(ContinuousClock.now - started >= .milliseconds(300))
    }
}
