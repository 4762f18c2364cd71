import Foundation
import HaulTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Signed links that expire (issue 14 §1, DESIGN §8), against a real nginx with `secure_link`: a throttled download
/// outlives its link, and a freshly signed link finishes it from the kept bytes — given by `haul set-url`, or by an
/// `--on-link-expired` script unattended. A link to another file of the same length is refused unless vouched for.
@Suite(.timeLimit(.minutes(1)), .enabled(if: NginxFixture.isAvailable && LinkTests.opensslAvailable, "nginx or openssl is not installed"))
struct ExpiringLinkTests {
    static let secret = "haul-s3cret"
    static let size = 3 << 20
    /// nginx's `limit_rate` for links with `rate=slow`: the whole file would take 24 s, so the link expires
    /// midway however slowly a loaded machine lets the test act (the fresh links are not throttled).
    static let slowRate = "128k"
    /// One modification time for every copy of the same file, so nginx gives them one ETag and Last-Modified.
    static let mtime = 1_700_000_000

    /// `/signed/…` needs `md5` and `expires` signed like nginx's documentation does; `rate=slow` throttles.
    /// `inside` is added to the location (`auth_basic`, for instance).
    static func start(inside: String = "") async throws -> NginxFixture {
        try await NginxFixture.start(
            locations: """
                location /signed/ {
                    \(inside)
                    secure_link $arg_md5,$arg_expires;
                    secure_link_md5 "$secure_link_expires$uri \(secret)";
                    if ($secure_link = "") { return 403; }
                    if ($secure_link = "0") { return 403; }
                    limit_rate $haul_rate;
                }
                """,
            http: "map $arg_rate $haul_rate { default 0; slow \(slowRate); }")
    }

    /// A link to `path` valid until `expires` (seconds since 1970), signed as `secure_link_md5` expects.
    static func signed(_ nginx: NginxFixture, _ path: String, expires: Int, slow: Bool = false) throws -> String {
        let hash = try LinkTests.secureLinkHash("\(expires)\(path) \(secret)")
        return nginx.url("\(path)?md5=\(hash)&expires=\(expires)" + (slow ? "&rate=slow" : ""))
    }

    static func publish(_ nginx: NginxFixture, _ name: String, _ bytes: [UInt8], mtime: Int = mtime) throws {
        try nginx.write(file: "signed/" + name, bytes: bytes)
        try LinkTests.setModificationTime(nginx.root + "/signed/" + name, mtime)
    }

    /// A throttled download whose link expires three seconds after it starts. Once the link has expired, nginx is
    /// killed mid-answer and started again: haul's retry meets the 403 of an expired link with bytes kept.
    /// Returns the running haul and the expired link.
    /// With `login` (`user:password`), the link carries it.
    static func outliveTheLink(
        _ nginx: NginxFixture, _ run: HaulRun, extra: [String] = [], login: String? = nil
    ) async throws -> (HaulProcess, String) {
        let expires = LinkTests.now + 3
        var link = try signed(nginx, "/signed/film.bin", expires: expires, slow: true)
        if let login { link = link.replacingOccurrences(of: "http://", with: "http://\(login)@") }
        let haul = try run.start(["--headless", "-s", "1", "-o", "film.bin"] + extra + [link])
        try await eventually("bytes on disk and the link expired", timeout: .seconds(15), poll: .milliseconds(50)) {
            LinkTests.partSize(run, "film.bin") > 256 << 10 && LinkTests.now > expires
        }
        #expect(haul.isRunning, "the throttled download should still be running: \(haul.stderrText())")
        try await nginx.restart()
        return (haul, link)
    }

    /// The fresh link's requests: every one asks from the first byte not kept or later, and together they sent
    /// no more than the rest of the file. Returns where the first one started.
    @discardableResult
    static func expectOnlyTheMissingPartFetched(
        _ nginx: NginxFixture, fresh: String, kept: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Int {
        let query = String(fresh[fresh.range(of: "?")!.lowerBound...])
        let entries = try await eventuallyValue("the fresh link's requests in the access log", timeout: .seconds(5)) {
            () -> [NginxFixture.AccessEntry]? in
            let found = nginx.accessEntries().filter { $0.uri.hasSuffix(query) && $0.status != 403 && !isLinkCheck($0.range) }
            return found.reduce(0) { $0 + $1.bodyBytesSent } + Int64(found.first.flatMap { rangeStart($0.range) } ?? 0)
                >= Int64(size) ? found : nil
        }
        let starts = entries.map { rangeStart($0.range) }
        #expect(entries.allSatisfy { $0.status == 206 }, "\(entries)", sourceLocation: sourceLocation)
        #expect(starts.allSatisfy { ($0 ?? -1) >= kept }, "a kept range was fetched again: \(entries)", sourceLocation: sourceLocation)
        let first = starts.first.flatMap { $0 } ?? 0
        let sent = entries.reduce(0) { $0 + Int($1.bodyBytesSent) }
        #expect(sent == size - first, "sent \(sent) bytes for a rest of \(size - first)", sourceLocation: sourceLocation)
        return first
    }

    /// Whether a request's range is the few bytes `haul set-url` asks a new link for (`bytes=N-M`, at most 16).
    static func isLinkCheck(_ range: String?) -> Bool {
        guard let range, range.hasPrefix("bytes="), let dash = range.firstIndex(of: "-"),
              let first = Int(range[range.index(range.startIndex, offsetBy: 6)..<dash]), let last = Int(range[range.index(after: dash)...])
        else { return false }
        return last - first < 16
    }

    /// The first byte of `bytes=N-…`.
    static func rangeStart(_ range: String?) -> Int? {
        guard let range, range.hasPrefix("bytes=") else { return nil }
        return Int(range.dropFirst(6).prefix { $0.isNumber })
    }

    @Test func setURLWithAFreshlySignedLinkFinishesFromTheKeptBytes() async throws {
        let nginx = try await Self.start()
        defer { nginx.stop() }
        let film = LinkTests.bytes(Self.size, seed: 1401)
        try Self.publish(nginx, "film.bin", film)
        let run = try HaulRun()

        let (haul, expired) = try await Self.outliveTheLink(nginx, run)
        #expect(try await haul.waitForExit(timeout: .seconds(20)) == 1, "\(haul.stderrText())")
        #expect((haul.stdoutText() + haul.stderrText()).contains("403"), "\(haul.stderrText())")
        #expect(await nginx.entries { $0.contains { $0.status == 403 } }.contains { $0.status == 403 && expired.hasSuffix($0.uri) },
                "the expired link was refused")
        let row = try #require(try await run.list().first)
        #expect(row["state"] as? String == "failed", "\(row)")
        let kept = row["bytes"] as? Int ?? 0
        #expect(kept > 256 << 10 && kept < Self.size, "\(row)")

        let fresh = try Self.signed(nginx, "/signed/film.bin", expires: LinkTests.now + 3600)
        let (status, _, note) = try await run.run(["set-url", "1", fresh])
        #expect(status == 0, "\(note)")
        let (finished, out, err) = try await run.download(["--headless"])
        #expect(finished == 0, "\(out)\n\(err)")
        expectSameBytes(run.file("film.bin"), film)
        #expect(try await run.list().first?["state"] as? String == "completed")
        try await Self.expectOnlyTheMissingPartFetched(nginx, fresh: fresh, kept: kept)
    }

    /// The way in a person tries first: the same command again with the new link and the same `-o`.
    @Test func theFreshLinkUnderTheSameOutputNameIsTheTasksNewLink() async throws {
        let nginx = try await Self.start()
        defer { nginx.stop() }
        let film = LinkTests.bytes(Self.size, seed: 1405)
        try Self.publish(nginx, "film.bin", film)
        let run = try HaulRun()

        let (haul, _) = try await Self.outliveTheLink(nginx, run)
        #expect(try await haul.waitForExit(timeout: .seconds(20)) == 1, "\(haul.stderrText())")
        let kept = try await run.list().first?["bytes"] as? Int ?? 0
        #expect(kept > 256 << 10)

        let fresh = try Self.signed(nginx, "/signed/film.bin", expires: LinkTests.now + 3600)
        let (finished, out, err) = try await run.download(["--headless", "-o", "film.bin", fresh])
        #expect(finished == 0, "\(out)\n\(err)")
        expectSameBytes(run.file("film.bin"), film)
        let rows = try await run.list()
        #expect(rows.count == 1 && rows.first?["state"] as? String == "completed", "\(rows)")
        #expect(!FileManager.default.fileExists(atPath: run.downloads + "/film (1).bin"))
        try await Self.expectOnlyTheMissingPartFetched(nginx, fresh: fresh, kept: kept)
    }

    @Test func anOnLinkExpiredScriptSignsANewLinkAndTheDownloadFinishesUnattended() async throws {
        let nginx = try await Self.start()
        defer { nginx.stop() }
        let film = LinkTests.bytes(Self.size, seed: 1402)
        try Self.publish(nginx, "film.bin", film)
        let run = try HaulRun()
        // The script hands out a link signed ahead of time, valid for an hour, and notes how it was called.
        let fresh = try Self.signed(nginx, "/signed/film.bin", expires: LinkTests.now + 3600)
        let calls = run.root.file("renewals.log")
        let script = try LinkTests.script(
            run.root.file("renew.sh"), "#!/bin/sh\necho \"$@\" >> '\(calls)'\necho '\(fresh)'\n")

        let (haul, expired) = try await Self.outliveTheLink(nginx, run, extra: ["--on-link-expired", script])
        #expect(try await haul.waitForExit(timeout: .seconds(30)) == 0, "\(haul.stderrText())")
        expectSameBytes(run.file("film.bin"), film)
        let called = (try? String(contentsOfFile: calls, encoding: .utf8)) ?? ""
        #expect(called == "0000000000000001 \(expired)\n", "\(called)")
        let first = try await Self.expectOnlyTheMissingPartFetched(nginx, fresh: fresh, kept: 256 << 10)
        #expect(first > 256 << 10 && first < Self.size)
        #expect(await nginx.entries { $0.contains { $0.status == 403 } }.contains { $0.status == 403 && expired.hasSuffix($0.uri) },
                "the expired link was refused")
    }

    @Test func aLinkToAnotherFileOfTheSameLengthIsRefusedUnlessTheBytesAreVouchedFor() async throws {
        let nginx = try await Self.start()
        defer { nginx.stop() }
        let film = LinkTests.bytes(Self.size, seed: 1403)
        let other = LinkTests.bytes(Self.size, seed: 1404)
        try Self.publish(nginx, "film.bin", film)
        try Self.publish(nginx, "other.bin", other, mtime: Self.mtime + 86_400)
        let run = try HaulRun()

        let (haul, _) = try await Self.outliveTheLink(nginx, run)
        #expect(try await haul.waitForExit(timeout: .seconds(20)) == 1, "\(haul.stderrText())")
        let elsewhere = try Self.signed(nginx, "/signed/other.bin", expires: LinkTests.now + 3600)

        // Same length, another ETag and Last-Modified: refused at once with the difference named, the bytes kept.
        let (refused, _, message) = try await run.run(["set-url", "1", elsewhere])
        #expect(refused == 2, "\(message)")
        #expect(message.contains("ETag") || message.contains("Last-Modified"), "\(message)")
        #expect(message.contains("--keep-bytes"), "\(message)")
        let row = try #require(try await run.list().first)
        #expect(row["state"] as? String == "failed", "\(row)")
        let kept = row["bytes"] as? Int ?? 0
        #expect(kept > 256 << 10, "the kept bytes stay: \(row)")
        #expect(LinkTests.partSize(run, "film.bin") >= kept)
        let part = try #require(FileManager.default.contents(atPath: run.downloads + "/film.bin.part"))
        #expect(Array(part.prefix(kept)) == Array(film[..<kept]), "the kept bytes are still the first file's")

        // Vouched for: the kept bytes stay and the rest comes from the new link.
        let (status, _, note) = try await run.run(["set-url", "1", elsewhere, "--keep-bytes"])
        #expect(status == 0, "\(note)")
        let (finished, out2, err2) = try await run.download(["--headless"])
        #expect(finished == 0, "\(out2)\n\(err2)")
        let spliced = try #require(run.file("film.bin"))
        #expect(spliced.count == Self.size)
        let start = try await eventuallyValue("the accepted request in the log", timeout: .seconds(5)) { () -> Int? in
            nginx.accessEntries().last { $0.uri.hasPrefix("/signed/other.bin") && $0.status == 206 }.flatMap { Self.rangeStart($0.range) }
        }
        #expect(start >= kept)
        #expect(Array(spliced[..<start]) == Array(film[..<start]), "the kept bytes are the first file's")
        #expect(Array(spliced[start...]) == Array(other[start...]), "the rest is the new link's")
    }

    /// The task's request options outlive its link: a fresh link set by `set-url` still goes through the task's
    /// SOCKS proxy, with the task's cookies.
    @Test(.enabled(if: MicrosocksFixture.isAvailable, "microsocks is not installed"))
    func aNewLinkKeepsTheTasksProxyAndCookies() async throws {
        let nginx = try await Self.start()
        defer { nginx.stop() }
        let film = LinkTests.bytes(Self.size, seed: 1406)
        try Self.publish(nginx, "film.bin", film)
        let socks = try await MicrosocksFixture.start(user: "alice", password: "s0cks-pw")
        defer { socks.stop() }
        let run = try HaulRun()
        let cookies = run.root.file("cookies.txt")
        try (["127.0.0.1", "FALSE", "/", "FALSE", "0", "session", "kept-c00kie"].joined(separator: "\t") + "\n")
            .write(toFile: cookies, atomically: true, encoding: .utf8)

        let (haul, _) = try await Self.outliveTheLink(nginx, run, extra: ["--all-proxy", socks.url(), "--load-cookies", cookies])
        #expect(try await haul.waitForExit(timeout: .seconds(20)) == 1, "\(haul.stderrText())")
        let tunnelsBefore = socks.connections().count
        #expect(tunnelsBefore >= 2, "the first request and the retry went through the proxy: \(socks.output())")

        let fresh = try Self.signed(nginx, "/signed/film.bin", expires: LinkTests.now + 3600)
        #expect(try await run.run(["set-url", "1", fresh]).0 == 0)
        let (finished, out, err) = try await run.download(["--headless"])
        #expect(finished == 0, "\(out)\n\(err)")
        expectSameBytes(run.file("film.bin"), film)
        #expect(socks.connections().count > tunnelsBefore, "the fresh link went through the proxy: \(socks.output())")
        #expect(socks.connections().allSatisfy { $0 == "127.0.0.1:\(nginx.port)" }, "\(socks.output())")
        let query = String(fresh[fresh.range(of: "?")!.lowerBound...])
        let freshEntries = await nginx.entries { $0.contains { $0.uri.hasSuffix(query) } }.filter { $0.uri.hasSuffix(query) }
        #expect(!freshEntries.isEmpty && freshEntries.allSatisfy { $0.cookie == "session=kept-c00kie" }, "\(freshEntries)")
    }
}
