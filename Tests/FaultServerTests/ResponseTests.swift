import FaultServer
import HaulTestSupport
import Testing

/// Content, ranges and validators, checked with the curl CLI over 127.0.0.1.
@Suite struct ResponseTests {
    let curl: Curl
    let server: FaultServer
    let plan = FaultPlan.file(size: (1 << 20) + 3, seed: 7)

    init() throws {
        curl = try Curl()
        server = try FaultServer(lifetime: .seconds(60))
        server.route("/f.bin", plan)
    }

    @Test func fullGetServesTheGeneratedBytes() async throws {
        defer { server.stop() }
        let result = try await curl.fetch(server.url("/f.bin"))
        #expect(result.exitCode == 0)
        #expect(result.status == 200)
        #expect(result.body == plan.body.bytes())
        #expect(result.header("Content-Length") == "\(plan.body.size)")
        #expect(result.header("Accept-Ranges") == "bytes")
        #expect(result.header("ETag") == "\"1048579-7-v1\"")
        #expect(result.header("Last-Modified") == "Mon, 06 Jan 2025 10:00:00 GMT")
        let stats = server.stats("/f.bin")
        #expect(stats.requests == 1)
        #expect(stats.bodyBytesSent == plan.body.size)
        #expect(stats.rangeHeaders == [nil])
        #expect(stats.statuses == [200])
    }

    @Test(arguments: [
        ("bytes=1000-", Int64(1000), Int64((1 << 20) + 2)),
        ("bytes=10-19", 10, 19),
        ("bytes=5-99999999", 5, Int64((1 << 20) + 2)),
        ("bytes=-100", Int64((1 << 20) + 3 - 100), Int64((1 << 20) + 2)),
    ])
    func rangeGetsA206WithTheSlice(range: String, first: Int64, last: Int64) async throws {
        defer { server.stop() }
        let result = try await curl.fetch(server.url("/f.bin"), headers: ["Range: \(range)"])
        #expect(result.status == 206)
        #expect(result.header("Content-Range") == "bytes \(first)-\(last)/\(plan.body.size)")
        #expect(result.header("Content-Length") == "\(last - first + 1)")
        #expect(result.body == plan.body.bytes(in: first..<(last + 1)))
        #expect(server.stats("/f.bin").rangeHeaders == [range])
        #expect(server.stats("/f.bin").bodyBytesSent == last - first + 1)
    }

    @Test func ifRangeWithTheCurrentValidatorHonoursTheRange() async throws {
        defer { server.stop() }
        let byETag = try await curl.fetch(
            server.url("/f.bin"), headers: ["Range: bytes=100-", "If-Range: \"1048579-7-v1\""])
        #expect(byETag.status == 206)
        #expect(byETag.body == plan.body.bytes(in: 100..<plan.body.size))
        let byDate = try await curl.fetch(
            server.url("/f.bin"), headers: ["Range: bytes=100-", "If-Range: Mon, 06 Jan 2025 10:00:00 GMT"])
        #expect(byDate.status == 206)
        #expect(server.stats("/f.bin").ifRangeHeaders == ["\"1048579-7-v1\"", "Mon, 06 Jan 2025 10:00:00 GMT"])
    }

    @Test(arguments: ["\"stale\"", "W/\"1048579-7-v1\"", "Tue, 07 Jan 2025 10:00:00 GMT"])
    func ifRangeMismatchSendsTheWholeBody(ifRange: String) async throws {
        defer { server.stop() }
        let result = try await curl.fetch(server.url("/f.bin"), headers: ["Range: bytes=100-", "If-Range: \(ifRange)"])
        #expect(result.status == 200)
        #expect(result.header("Content-Range") == nil)
        #expect(result.body == plan.body.bytes())
    }

    @Test func rangeStartingAtOrPastTheEndIs416() async throws {
        defer { server.stop() }
        for start in [plan.body.size, plan.body.size + 10] {
            let result = try await curl.fetch(server.url("/f.bin"), headers: ["Range: bytes=\(start)-"])
            #expect(result.status == 416)
            #expect(result.header("Content-Range") == "bytes */\(plan.body.size)")
        }
    }

    @Test func serverWithoutRangesIgnoresRange() async throws {
        defer { server.stop() }
        var noRanges = plan
        noRanges.acceptRanges = false
        server.route("/n.bin", noRanges)
        let result = try await curl.fetch(server.url("/n.bin"), headers: ["Range: bytes=100-"])
        #expect(result.status == 200)
        #expect(result.header("Accept-Ranges") == nil)
        #expect(result.body == plan.body.bytes())
    }

    @Test func malformedOrMultipleRangesAreIgnored() async throws {
        defer { server.stop() }
        for range in ["bytes=0-1,5-6", "bytes=9-3", "items=0-5"] {
            let result = try await curl.fetch(server.url("/f.bin"), headers: ["Range: \(range)"])
            #expect(result.status == 200, "Range: \(range)")
            #expect(result.body.count == Int(plan.body.size))
        }
    }

    @Test func headSendsTheHeadersOnly() async throws {
        defer { server.stop() }
        let result = try await curl.fetch(server.url("/f.bin"), options: ["-I"])
        #expect(result.status == 200)
        #expect(result.header("Content-Length") == "\(plan.body.size)")
        // curl -I writes the head where the body would go.
        #expect(String(decoding: result.body, as: UTF8.self).hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(result.body.count < 400)
        #expect(server.stats("/f.bin").bodyBytesSent == 0)
    }

    @Test func unknownPathAndFixedStatusAre404() async throws {
        defer { server.stop() }
        server.route("/gone.bin", .status(404))
        for path in ["/nothing-here", "/gone.bin"] {
            let result = try await curl.fetch(server.url(path))
            #expect(result.status == 404)
            #expect(String(decoding: result.body, as: UTF8.self).contains("404 Not Found"))
        }
        #expect(server.stats("/nothing-here").requests == 1)
    }

    @Test func redirectIsFollowedToTheFile() async throws {
        defer { server.stop() }
        server.route("/go", .redirect(to: "/f.bin"))
        server.route("/go-absolute", .redirect(to: server.url("/f.bin"), status: 301))
        let plain = try await curl.fetch(server.url("/go"))
        #expect(plain.status == 302)
        #expect(plain.header("Location") == "/f.bin")
        let followed = try await curl.fetch(server.url("/go-absolute"), options: ["-L"])
        #expect(followed.statusLines.map { $0.split(separator: " ")[1] } == ["301", "200"])
        #expect(followed.body == plan.body.bytes())
    }

    @Test func contentDispositionAndTypeAreSent() async throws {
        defer { server.stop() }
        var named = FaultPlan(body: .bytes(Array("hello".utf8)))
        named.contentDisposition = "attachment; filename*=UTF-8''%E9%9B%BB%E5%BD%B1.mp4"
        named.contentType = "video/mp4"
        server.route("/download.php", named)
        let result = try await curl.fetch(server.url("/download.php?id=7"))
        #expect(result.header("Content-Disposition") == "attachment; filename*=UTF-8''%E9%9B%BB%E5%BD%B1.mp4")
        #expect(result.header("Content-Type") == "video/mp4")
        #expect(result.body == Array("hello".utf8))
        #expect(server.stats("/download.php").requests == 1)
    }

    @Test func routesMatchEncodedAndDecodedPaths() async throws {
        defer { server.stop() }
        server.route("/電影.第01集.mp4", .file(size: 100, seed: 1))
        let encoded = "/" + FaultPlan.percentEncoded("電影.第01集.mp4")
        let result = try await curl.fetch(server.url(encoded + "?x=1"))
        #expect(result.status == 200)
        #expect(result.body == FaultPlan.Body.generated(size: 100, seed: 1).bytes())
        #expect(server.stats("/電影.第01集.mp4").requests == 1)
        #expect(server.stats(encoded).requests == 1)
    }

    @Test func validatorsCanBeSetOrLeftOut() async throws {
        defer { server.stop() }
        var custom = FaultPlan(body: .bytes([1, 2, 3]), etag: "\"abc\"", sendLastModified: false)
        custom.changeAfterRequests = 1
        server.route("/c", custom)
        let first = try await curl.fetch(server.url("/c"))
        let second = try await curl.fetch(server.url("/c"))
        #expect(first.header("ETag") == "\"abc\"")
        #expect(second.header("ETag") == "\"abc-v2\"")
        #expect(first.header("Last-Modified") == nil)
        #expect(second.body == [0xFE, 0xFD, 0xFC])
        server.route("/d", FaultPlan(body: .bytes([1]), sendETag: false))
        let bare = try await curl.fetch(server.url("/d"))
        #expect(bare.header("ETag") == nil)
        #expect(bare.header("Last-Modified") != nil)
    }
}
