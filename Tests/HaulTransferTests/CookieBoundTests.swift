import FaultServer
import Foundation
import HaulCore
import HaulTestSupport
@testable import HaulTransfer
import Testing

/// A task keeps at most 180 cookies of one host and 1,000 in all, the newest: in its reports and in libcurl's
/// jar itself, so a server setting new cookies on every answer cannot make the task's requests (and the engine
/// thread every task shares) slower and slower.
@Suite(.timeLimit(.minutes(1))) struct CookieBoundTests {
    /// The Netscape line of session cookie `name=1` on `host`.
    static func line(_ host: String, _ name: String, value: String = "1") -> String {
        [host, "FALSE", "/", "FALSE", "0", name, value].joined(separator: "\t")
    }

    static func cookies(_ host: String, _ names: [String]) -> [CookieFile.Cookie] {
        names.map { CookieFile.Cookie(line: Substring(line(host, $0)))! }
    }

    static func names(_ cookies: [CookieFile.Cookie]) -> [String] { cookies.map(\.name) }

    @Test func oneHostKeepsItsNewest180AndOtherHostsKeepTheirs() {
        let many = Self.cookies("a.test", (0..<200).map { "a\($0)" })
        let few = Self.cookies("b.test", (0..<10).map { "b\($0)" })
        let bounded = BoundedCookies(few + many)
        #expect(Self.names(bounded.cookies) == (0..<10).map { "b\($0)" } + (20..<200).map { "a\($0)" })
    }

    @Test func allHostsTogetherKeepTheNewest1000() {
        let all = (0..<8).flatMap { host in Self.cookies("h\(host).test", (0..<150).map { "h\(host)c\($0)" }) }
        let bounded = BoundedCookies(all)
        #expect(bounded.cookies == Array(all.suffix(1000)))
    }

    @Test func aChangedCookieBecomesTheNewestAndAGoneOneIsDropped() {
        var bounded = BoundedCookies(Self.cookies("a.test", ["x", "y", "z"]), perHost: 3)
        let jar = Self.cookies("a.test", ["x", "z"]) + [CookieFile.Cookie(line: Substring(Self.line("a.test", "x", value: "2")))!]
        // libcurl replaces a cookie in place: "x" comes first in its list with its new value.
        let updated = bounded.update(from: [jar[2], jar[1]])
        #expect(!updated, "nothing was evicted")
        #expect(bounded.cookies.map(\.identity) == ["a.test\t/\tz\t1", "a.test\t/\tx\t2"])
        let evicted = bounded.update(from: Self.cookies("a.test", ["z", "x", "p", "q"]))
        #expect(evicted)
        #expect(Self.names(bounded.cookies) == ["x", "p", "q"])
    }

    @Test func libcurlsJarIsCutToTheNewestAtEachCheckpointAndTheFileCookiesStay() throws {
        let dir = try TemporaryDirectory()
        let file = dir.file("cookies.txt")
        try Data((Self.line("a.test", "fromFile") + "\n").utf8).write(to: URL(fileURLWithPath: file))
        let jar = try CookieJar(options: RequestOptions(cookiesFile: file), stored: [])
        jar.share.replaceAll(with: jar.takeSeed())
        var reported: [String]?
        for answer in 0..<30 {
            // What 50 Set-Cookie headers of one answer leave in the jar.
            jar.share.replaceAll(with: jar.share.lines + (0..<50).map { Self.line("a.test", "r\(answer)_\($0)") })
            reported = jar.checkpoint() ?? reported
        }
        let inCurl = jar.share.lines.compactMap { CookieFile.Cookie(line: Substring($0)) }
        #expect(inCurl.count == 181, "libcurl's jar holds \(inCurl.count) cookies")
        #expect(inCurl.contains { $0.name == "fromFile" })
        let kept = try #require(reported).compactMap { CookieFile.Cookie(line: Substring($0)) }
        #expect(Self.names(kept) == (20..<50).map { "r26_\($0)" } + (27..<30).flatMap { answer in (0..<50).map { "r\(answer)_\($0)" } })
    }

    @Test func theJarIsCutBetweenCheckpointsOnce180SetCookieHeadersArrived() throws {
        let jar = try CookieJar(options: RequestOptions(), stored: [])
        jar.share.replaceAll(with: jar.takeSeed() + (0..<250).map { Self.line("a.test", "c\($0)") })
        func note(_ header: String, times: Int = 1) {
            for _ in 0..<times { Array(header.utf8).withUnsafeBytes { jar.share.noteHeaderLine($0) } }
        }
        note("Set-Cookie: c0=1\r\n", times: 179)
        note("Content-Type: text/plain\r\n")
        note("Set-Cookie\r\n")
        jar.trimIfGrown()
        #expect(jar.share.lines.count == 250, "179 Set-Cookie headers: the jar is not read yet")
        note("set-cookie: c1=1\r\n")
        jar.trimIfGrown()
        let inCurl = jar.share.lines.compactMap { CookieFile.Cookie(line: Substring($0)) }
        #expect(Self.names(inCurl) == (70..<250).map { "c\($0)" })
    }

    @Test func aStreamWhoseSegmentsEachSet50CookiesReportsOnlyTheNewest180() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let count = 30
        var plans: [Int: FaultPlan] = [:]
        for index in 0..<count {
            var plan = FaultPlan(body: .bytes([]))
            plan.setCookies = 50
            plan.cookieTag = "seg\(index)"
            plan.throttle = 300_000
            plans[index] = plan
        }
        StreamEngineTests.stream(server, "c", count: count, plans: plans)
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/c/index.m3u8"), directory: dir.path, options: StreamEngineTests.options(split: 1)))
        guard case .completed = try await engine.outcome(of: TaskID(1)) else {
            Issue.record("the stream did not complete")
            return
        }
        let reports = engine.events.compactMap { event -> [String]? in
            if case let .cookies(id, lines) = event, id == TaskID(1) { return lines }
            return nil
        }
        #expect(reports.count >= 3, "\(reports.count) cookie reports")
        #expect(reports.allSatisfy { $0.count <= 180 }, "\(reports.map(\.count))")
        let last = try #require(reports.last).compactMap { CookieFile.Cookie(line: Substring($0)) }
        #expect(last.count == 180)
        // Segment I's cookies are seg<I>_0 … seg<I>_49: the newest segment's are all kept, and only those of the
        // three segments before it besides (180 = 3 × 50 + 30).
        let segments = last.map { Int($0.name.dropFirst(3).prefix { $0 != "_" })! }
        let newest = try #require(segments.max())
        #expect(last.filter { $0.name.hasPrefix("seg\(newest)_") }.count == 50)
        #expect(segments.allSatisfy { $0 > newest - 4 }, "kept cookies of segments \(Set(segments).sorted())")
    }
}
