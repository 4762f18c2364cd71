import Foundation
import HaulTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Cookies with real parts (issue 14 §3, DESIGN §8): nginx refuses a location without the right cookie;
/// `--load-cookies` (Netscape cookies.txt) fetches it over 4 connections and across a kill -9 and a resume; a
/// cookie the server sets on its first answer goes with every later connection; a cookies file that is missing
/// or malformed is refused with its path quoted and adds no task; cookie values never show.
@Suite(.timeLimit(.minutes(1)), .enabled(if: NginxFixture.isAvailable, "nginx is not installed"))
struct CookieTests {
    static let session = "c00kie-abc123"
    static let ticket = "t1cket-789"
    static let size = 4 << 20

    /// `/members/` wants `session=…`, per connection at `rate` (4 MiB at 4 × 512 KiB/s: about 2 s);
    /// `/login/NAME` sets `ticket=…` and answers 302 to `/tickets/NAME`, which wants both cookies;
    /// `/sticky/` wants `session=…`, sets `ticket=…` and wants it back with every Range;
    /// `/open-login/NAME` sets `ticket=…` and answers 302 to `/ticketed/NAME`, which wants only the ticket.
    /// While the document root holds `slow.flag`, `/members/` and `/sticky/` send only 48 KiB/s per connection:
    /// a run to be killed midway stays midway however slowly a loaded machine lets the test act.
    static func start(rate: String = "512k") async throws -> NginxFixture {
        let throttle = """
            set $haul_rate \(rate);
                            if (-f $document_root/slow.flag) { set $haul_rate 48k; }
                            limit_rate $haul_rate;
            """
        return try await NginxFixture.start(locations: """
            location /members/ {
                if ($cookie_session != "\(session)") { return 403; }
                \(throttle)
            }
            location /login/ {
                add_header Set-Cookie "ticket=\(ticket); Path=/; HttpOnly";
                rewrite ^/login/(.*)$ /tickets/$1 redirect;
            }
            location /tickets/ {
                if ($cookie_ticket != "\(ticket)") { return 403; }
                if ($cookie_session != "\(session)") { return 403; }
                limit_rate \(rate);
            }
            location /open-login/ {
                add_header Set-Cookie "ticket=\(ticket); Path=/";
                rewrite ^/open-login/(.*)$ /ticketed/$1 redirect;
            }
            location /ticketed/ {
                if ($cookie_ticket != "\(ticket)") { return 403; }
                limit_rate \(rate);
            }
            location /sticky/ {
                if ($haul_sticky_deny) { return 403; }
                if ($cookie_session != "\(session)") { return 403; }
                add_header Set-Cookie "ticket=\(ticket); Path=/";
                \(throttle)
            }
            """,
            // /sticky/ sets the ticket on every answer and wants it on every request for a range.
            http: #"map "$http_range|$cookie_ticket" $haul_sticky_deny { "~^bytes=[^|]*\|$" 1; default 0; }"#)
    }

    /// A Netscape cookies.txt (TAB-separated, as browsers' exporters and curl write it) with the session cookie.
    static func cookiesFile(_ run: HaulRun) throws -> String {
        let path = run.root.file("cookies.txt")
        let line = ["127.0.0.1", "FALSE", "/", "FALSE", "0", "session", session].joined(separator: "\t")
        try "# Netscape HTTP Cookie File\n# written by a test\n\n\(line)\n".write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The requests for `path` once their bodies add up to the whole file (nginx logs a request when it ends).
    static func served(_ nginx: NginxFixture, _ path: String) async throws -> [NginxFixture.AccessEntry] {
        try await eventuallyValue("\(path) in the access log", timeout: .seconds(5)) { () -> [NginxFixture.AccessEntry]? in
            let entries = nginx.accessEntries().filter { $0.uri == path }
            return entries.filter { $0.status != 403 }.reduce(0) { $0 + $1.bodyBytesSent } >= Int64(size) ? entries : nil
        }
    }

    /// Per connection in the kill tests once `slow.flag` is gone (the resume).
    static let killRate = "512k"

    /// Throttles the kill tests' first run to 48 KiB/s per connection (see `start`) until `fast(nginx)`.
    static func slow(_ nginx: NginxFixture) throws { try nginx.write(file: "slow.flag", bytes: [1]) }
    static func fast(_ nginx: NginxFixture) throws { try FileManager.default.removeItem(atPath: nginx.root + "/slow.flag") }

    /// Waits until the task has 256 KiB on record while `haul` still runs.
    static func awaitBytesOnRecord(_ run: HaulRun, _ haul: HaulProcess) async throws {
        try await eventually("bytes on record", timeout: .seconds(15), poll: .milliseconds(100)) {
            guard haul.isRunning else { throw ProcessEnded(status: haul.exitStatus, stderr: haul.stderrText()) }
            return (try await run.list().first?["bytes"] as? Int ?? 0) > 256 << 10
        }
    }

    struct ProcessEnded: Error, CustomStringConvertible {
        var status: Int32?
        var stderr: String
        var description: String { "haul ended (status \(status.map(String.init) ?? "?")) before it was killed: \(stderr)" }
    }

    static func expectNoCookieValue(in run: HaulRun, output: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let listings = try await run.listings()
        #expect(!listings.isEmpty, sourceLocation: sourceLocation)
        for secret in [session, ticket] {
            #expect(!output.contains(secret), "the run printed a cookie: \(output)", sourceLocation: sourceLocation)
            #expect(!listings.contains(secret), "haul list shows a cookie: \(listings)", sourceLocation: sourceLocation)
        }
    }

    @Test func loadedCookiesGoWithEveryConnectionOfASegmentedDownload() async throws {
        let nginx = try await Self.start()
        defer { nginx.stop() }
        let bytes = LinkTests.bytes(Self.size, seed: 1441)
        try nginx.write(file: "members/film.bin", bytes: bytes)
        let run = try HaulRun()

        // Without the cookie the door stays shut.
        let (refused, out, err) = try await run.download(
            ["--headless", "--retries", "0", "-o", "refused.bin", nginx.url("/members/film.bin")])
        #expect(refused != 0, "\(out)\n\(err)")
        #expect((out + err).contains("403"), "\(out)\n\(err)")
        let shut = nginx.accessEntries().count

        let haul = try run.start(["--json", "-s", "4", "--min-split-size", "1M", "--load-cookies", try Self.cookiesFile(run), nginx.url("/members/film.bin")])
        #expect(try await haul.waitForExit(timeout: .seconds(30)) == 0, "\(haul.stderrText())")
        expectSameBytes(run.file("film.bin"), bytes)
        let entries = try await Self.served(nginx, "/members/film.bin").dropFirst(shut)
        #expect(entries.allSatisfy { [200, 206].contains($0.status) }, "\(entries)")
        #expect(entries.filter { $0.status == 206 && $0.range != nil }.count >= 3, "4 connections: \(entries)")
        #expect(Set(entries.map(\.connection)).count >= 4, "4 connections: \(entries)")
        #expect(entries.allSatisfy { $0.cookie?.contains("session=\(Self.session)") == true }, "\(entries)")
        try await Self.expectNoCookieValue(in: run, output: haul.stdoutText() + haul.stderrText())
    }

    @Test func loadedCookiesGoWithTheResumeAfterAKill() async throws {
        let nginx = try await Self.start(rate: Self.killRate)
        defer { nginx.stop() }
        let bytes = LinkTests.bytes(Self.size, seed: 1442)
        try nginx.write(file: "members/film.bin", bytes: bytes)
        let run = try HaulRun()
        let cookies = try Self.cookiesFile(run)

        try Self.slow(nginx)
        let first = try run.start(["--headless", "-s", "4", "--min-split-size", "1M", "--load-cookies", cookies, nginx.url("/members/film.bin")])
        defer { first.terminate(SIGKILL) }
        try await Self.awaitBytesOnRecord(run, first)
        first.kill(SIGKILL)
        #expect(try await first.waitForExit(timeout: .seconds(10)) == 128 + SIGKILL)
        let kept = try await run.list().first?["bytes"] as? Int ?? 0
        // nginx logs the cut requests when it notices the connections closed.
        let before = try await eventuallySteady("the cut requests logged", quiet: .milliseconds(500), timeout: .seconds(5)) {
            nginx.accessEntries().count
        }

        // The rerun names no URL and no cookies file: the task carries its cookies.
        try Self.fast(nginx)
        let second = try run.start(["--headless"], environment: [:])
        #expect(try await second.waitForExit(timeout: .seconds(30)) == 0, "\(second.stderrText())")
        expectSameBytes(run.file("film.bin"), bytes)
        let resumed = try await eventuallyValue("the resumed requests", timeout: .seconds(5)) { () -> [NginxFixture.AccessEntry]? in
            let entries = Array(nginx.accessEntries().dropFirst(before))
            return entries.reduce(0) { $0 + $1.bodyBytesSent } >= Int64(Self.size - kept) ? entries : nil
        }
        #expect(resumed.allSatisfy { $0.status == 206 && $0.range != nil }, "\(resumed)")
        #expect(resumed.allSatisfy { $0.cookie?.contains("session=\(Self.session)") == true }, "\(resumed)")
        try await Self.expectNoCookieValue(in: run, output: second.stdoutText() + second.stderrText())
    }

    @Test func aCookieTheServerSetsGoesWithEveryLaterConnection() async throws {
        let nginx = try await Self.start()
        defer { nginx.stop() }
        let bytes = LinkTests.bytes(Self.size, seed: 1443)
        try nginx.write(file: "tickets/film.bin", bytes: bytes)
        let run = try HaulRun()

        let haul = try run.start(["--json", "-s", "4", "--min-split-size", "1M", "--load-cookies", try Self.cookiesFile(run), nginx.url("/login/film.bin")])
        #expect(try await haul.waitForExit(timeout: .seconds(30)) == 0, "\(haul.stderrText())")
        expectSameBytes(run.file("film.bin"), bytes)
        let entries = try await Self.served(nginx, "/tickets/film.bin")
        #expect(entries.allSatisfy { [200, 206].contains($0.status) }, "\(entries)")
        #expect(Set(entries.map(\.connection)).count >= 2, "several connections: \(entries)")
        #expect(entries.allSatisfy { $0.cookie?.contains("ticket=\(Self.ticket)") == true }, "\(entries)")
        try await Self.expectNoCookieValue(in: run, output: haul.stdoutText() + haul.stderrText())
    }

    /// As with aria2 (and curl given `-b ""`), cookies a server sets are kept without any cookies file.
    @Test func aCookieTheServerSetsIsKeptWithoutACookiesFile() async throws {
        let nginx = try await Self.start()
        defer { nginx.stop() }
        let bytes = LinkTests.bytes(Self.size, seed: 1449)
        try nginx.write(file: "ticketed/film.bin", bytes: bytes)
        let run = try HaulRun()

        let (status, out, err) = try await run.download(["--headless", "--retries", "0", "-s", "4", "--min-split-size", "1M", nginx.url("/open-login/film.bin")])
        #expect(status == 0, "\(out)\n\(err)")
        expectSameBytes(run.file("film.bin"), bytes)
        let entries = try await Self.served(nginx, "/ticketed/film.bin")
        #expect(entries.allSatisfy { [200, 206].contains($0.status) && $0.cookie?.contains("ticket=\(Self.ticket)") == true }, "\(entries)")
        #expect(!(out + err).contains(Self.ticket))
    }

    /// The cookie a server set is the task's: the ranged requests after a kill -9 carry it, though nothing
    /// asks the server for it again (every request of the resume has a Range, which needs the cookie already).
    @Test func aCookieTheServerSetIsKeptAcrossAKillAndAResume() async throws {
        let nginx = try await Self.start(rate: Self.killRate)
        defer { nginx.stop() }
        let bytes = LinkTests.bytes(Self.size, seed: 1446)
        try nginx.write(file: "sticky/film.bin", bytes: bytes)
        let run = try HaulRun()

        try Self.slow(nginx)
        let first = try run.start(["--headless", "-s", "4", "--min-split-size", "1M", "--load-cookies", try Self.cookiesFile(run), nginx.url("/sticky/film.bin")])
        defer { first.terminate(SIGKILL) }
        try await Self.awaitBytesOnRecord(run, first)
        first.kill(SIGKILL)
        #expect(try await first.waitForExit(timeout: .seconds(10)) == 128 + SIGKILL)
        let before = try await eventuallySteady("the cut requests logged", quiet: .milliseconds(500), timeout: .seconds(5)) {
            nginx.accessEntries().count
        }

        try Self.fast(nginx)
        let second = try run.start(["--headless"], environment: [:])
        #expect(try await second.waitForExit(timeout: .seconds(30)) == 0, "\(second.stderrText())")
        expectSameBytes(run.file("film.bin"), bytes)
        let resumed = Array(nginx.accessEntries().dropFirst(before))
        #expect(!resumed.isEmpty && resumed.allSatisfy { $0.range != nil && $0.status == 206 }, "\(resumed)")
        #expect(resumed.allSatisfy { $0.cookie?.contains("ticket=\(Self.ticket)") == true }, "\(resumed)")
        try await Self.expectNoCookieValue(in: run, output: second.stdoutText() + second.stderrText())
    }

    /// A cookies.txt as browser exporters write it: `#HttpOnly_` lines, a cookie for another path, an expired one.
    @Test func aBrowserExportedCookiesFileSendsTheCookiesThatApply() async throws {
        let nginx = try await Self.start(rate: "0")
        defer { nginx.stop() }
        let bytes = LinkTests.bytes(1 << 20, seed: 1448)
        try nginx.write(file: "members/film.bin", bytes: bytes)
        let run = try HaulRun()
        let path = run.root.file("exported-cookies.txt")
        let lines = [
            ["#HttpOnly_127.0.0.1", "FALSE", "/", "FALSE", "0", "session", Self.session],
            ["127.0.0.1", "FALSE", "/", "FALSE", "4102444800", "theme", "dark"],
            ["127.0.0.1", "FALSE", "/elsewhere", "FALSE", "0", "scoped", "no"],
            ["127.0.0.1", "FALSE", "/", "FALSE", "1", "expired", "no"],
            ["example.org", "TRUE", "/", "FALSE", "0", "foreign", "no"],
        ]
        try ("# Netscape HTTP Cookie File\n# https://curl.se/docs/http-cookies.html\n\n"
             + lines.map { $0.joined(separator: "\t") + "\n" }.joined())
            .write(toFile: path, atomically: true, encoding: .utf8)

        let (status, out, err) = try await run.download(["--headless", "--retries", "0", "--load-cookies", path, nginx.url("/members/film.bin")])
        #expect(status == 0, "\(out)\n\(err)")
        expectSameBytes(run.file("film.bin"), bytes)
        let sent = try await eventuallyValue("the request in the access log", timeout: .seconds(5)) {
            nginx.accessEntries().last { $0.status == 200 }?.cookie
        }
        let names = Set(sent.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).split(separator: "=").first.map(String.init) ?? "" })
        #expect(names == ["session", "theme"], "\(sent)")
    }

    @Test func anInputFileLineTakesItsOwnCookies() async throws {
        let nginx = try await Self.start(rate: "0")
        defer { nginx.stop() }
        let bytes = LinkTests.bytes(Self.size, seed: 1444)
        try nginx.write(file: "members/film.bin", bytes: bytes)
        let run = try HaulRun()
        let list = run.root.file("links.txt")
        try "\(nginx.url("/members/film.bin"))\n  load-cookies=\(try Self.cookiesFile(run))\n"
            .write(toFile: list, atomically: true, encoding: .utf8)

        let (status, out, err) = try await run.download(["--headless", "--retries", "0", "-i", list])
        #expect(status == 0, "\(out)\n\(err)")
        expectSameBytes(run.file("film.bin"), bytes)
    }

    @Test func aMissingOrMalformedCookiesFileIsRefusedWithItsPathAndAddsNoTask() async throws {
        let run = try HaulRun()
        // A task already queued, which a refused command must leave as it is.
        #expect(try await run.download(["add", "-o", "kept.bin", "http://127.0.0.1:9/kept.bin"]).0 == 0)
        let missing = run.root.file("no-such-cookies.txt")
        // Space-separated fields: libcurl would skip the line without a word.
        let malformed = run.root.file("spaces-cookies.txt")
        try "127.0.0.1 FALSE / FALSE 0 session \(Self.session)\n".write(toFile: malformed, atomically: true, encoding: .utf8)
        for file in [missing, malformed] {
            for command in [["--headless"], ["add"]] {
                let (status, out, err) = try await run.download(command + ["--load-cookies", file, "http://127.0.0.1:9/film.bin"])
                #expect(status != 0, "\(command) \(file): \(out)\n\(err)")
                #expect(err.contains(file), "\(command): \(err)")
                #expect(!(out + err).contains(Self.session), "\(command): \(err)")
            }
            let list = run.root.file("links.txt")
            try "http://127.0.0.1:9/good.bin\nhttp://127.0.0.1:9/bad.bin\n  load-cookies=\(file)\n"
                .write(toFile: list, atomically: true, encoding: .utf8)
            let (status, out, err) = try await run.download(["add", "-i", list])
            #expect(status != 0, "\(out)\n\(err)")
            #expect(err.contains(file), "\(err)")
        }
        let rows = try await run.list()
        #expect(rows.count == 1 && rows.first?["state"] as? String == "waiting", "a task was added or lost: \(rows)")
    }

    @Test func aJunkLineIsSkippedWithAWarningNamingItAndTheTaskIsAdded() async throws {
        let run = try HaulRun()
        let file = run.root.file("junk-cookies.txt")
        try "127.0.0.1\tFALSE\t/\tFALSE\t1735000000.5\tsession\t\(Self.session)\nnot a cookie line\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        let (status, out, err) = try await run.download(["add", "--load-cookies", file, "http://127.0.0.1:9/film.bin"])
        #expect(status == 0, "\(out)\n\(err)")
        #expect(err.contains("line 2 of cookies file '\(file)'") && err.contains("the line was skipped"), "\(err)")
        #expect(!(out + err).contains(Self.session), "\(err)")
        #expect(try await run.list().count == 1)
    }

    @Test func aCookiesFileNamedOverRPCMustLieInAnAllowedDirectory() async throws {
        let nginx = try await Self.start(rate: "0")
        defer { nginx.stop() }
        let bytes = LinkTests.bytes(Self.size, seed: 1445)
        try nginx.write(file: "members/film.bin", bytes: bytes)
        let run = try HaulRun()
        let allowed = run.root.file("allowed")
        try FileManager.default.createDirectory(atPath: allowed, withIntermediateDirectories: true)
        let outside = try Self.cookiesFile(run)
        let inside = allowed + "/cookies.txt"
        try FileManager.default.copyItem(atPath: outside, toPath: inside)
        let haul = try await Aria2Haul.start(run, arguments: ["--rpc-allowed-dir", allowed])
        defer { haul.process?.terminate() }

        let refused = try await haul.call("aria2.addUri", [[nginx.url("/members/film.bin")], ["load-cookies": outside]])
        #expect(refused.error != nil, "\(refused.body)")
        #expect((try await haul.result("aria2.tellWaiting", [0, 10]) as? [Any])?.isEmpty == true, "a task was added")

        let gid = try #require(try await haul.result("aria2.addUri", [[nginx.url("/members/film.bin")], ["load-cookies": inside]]) as? String)
        try await eventually("the download to complete", timeout: .seconds(20), poll: .milliseconds(100)) {
            try await haul.status(gid, ["status"])["status"] as? String == "complete"
        }
        expectSameBytes(run.file("film.bin"), bytes)
        for answer in [try await haul.call("aria2.getOption", [gid]), try await haul.call("aria2.tellStatus", [gid])] {
            #expect(!answer.body.contains(Self.session), "an RPC answer gives the cookie away: \(answer.body)")
        }
    }

    /// Cookies are the host's: a redirect to another host name (localhost, the same address) takes none along.
    @Test func loadedCookiesDoNotFollowARedirectToAnotherHost() async throws {
        let run = try HaulRun()
        let servers = try await LoginTests.Servers.start(run, seed: 1447)
        defer { servers.stop() }

        let haul = try run.start(["--json", "-s", "4", "--min-split-size", "1M", "--load-cookies", try Self.cookiesFile(run), servers.origin.url("/go-by-name/film.bin")])
        #expect(try await haul.waitForExit(timeout: .seconds(30)) == 0, "\(haul.stderrText())")
        expectSameBytes(run.file("film.bin"), servers.bytes)
        #expect(servers.origin.accessEntries().contains { $0.uri == "/go-by-name/film.bin" && $0.cookie == "session=\(Self.session)" },
                "the origin got its cookie: \(servers.origin.accessEntries())")
        let stored = await servers.store.entries { $0.reduce(0) { $0 + $1.bodyBytesSent } >= Int64(Self.size) }
        #expect(!stored.isEmpty && stored.allSatisfy { $0.cookie == nil }, "the cookie reached localhost: \(stored)")
    }
}
