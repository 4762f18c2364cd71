import FaultServer
import Foundation
import HaulTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `haul set-url` asks the new link at once (DESIGN §8), against a real nginx and a server of other software: the
/// same file behind another server is taken, another file of the same length is refused before the link changes,
/// and a link that cannot be reached now is taken with a warning.
@Suite(.timeLimit(.minutes(1)), .enabled(if: NginxFixture.isAvailable, "nginx is not installed"))
struct SetURLCheckTests {
    static let size = 3 << 20
    /// `Mon, 06 Jan 2025 10:00:00 GMT`: nginx's Last-Modified for a file of this modification time.
    static let mtime = 1_736_157_600
    static let lastModified = "Mon, 06 Jan 2025 10:00:00 GMT"

    /// nginx serving `/slow/` at 128 KiB/s, so a download can be interrupted midway.
    static func start() async throws -> NginxFixture {
        try await NginxFixture.start(locations: "location /slow/ { limit_rate 128k; }")
    }

    static func publish(_ nginx: NginxFixture, _ name: String, _ bytes: [UInt8], mtime: Int = mtime) throws {
        try nginx.write(file: "slow/" + name, bytes: bytes)
        try LinkTests.setModificationTime(nginx.root + "/slow/" + name, mtime)
    }

    /// Downloads `/slow/film.bin` as task 1 until some bytes are kept, then interrupts and pauses it.
    static func interrupted(_ nginx: NginxFixture, _ run: HaulRun) async throws -> [String: Any] {
        let haul = try run.start(["--headless", "-s", "1", "-o", "film.bin", nginx.url("/slow/film.bin")])
        try await eventually("bytes on disk", timeout: .seconds(15), poll: .milliseconds(50)) {
            LinkTests.partSize(run, "film.bin") > 256 << 10
        }
        haul.kill(SIGINT)
        #expect(try await haul.waitForExit(timeout: .seconds(10)) == 130, "\(haul.stderrText())")
        #expect(try await run.run(["pause", "1"]).0 == 0)
        let row = try #require(try await run.list().first)
        #expect(row["state"] as? String == "paused", "\(row)")
        return row
    }

    @Test func theSameFileOnAnotherServerWithItsOwnETagIsTakenAndFinishesFromTheKeptBytes() async throws {
        let nginx = try await Self.start()
        defer { nginx.stop() }
        var plan = FaultPlan.file(size: Int64(Self.size), seed: 2401)
        try Self.publish(nginx, "film.bin", plan.body.bytes())
        let run = try HaulRun()
        let kept = try await Self.interrupted(nginx, run)["bytes"] as? Int ?? 0
        #expect(kept > 0)

        // Another server (its own `Server` header, on another host name) words its ETag its own way.
        let other = try FaultServer()
        defer { other.stop() }
        plan.etag = "\"300000-62b2f5a1c4d80\""
        plan.lastModified = Self.lastModified
        other.route("/film.bin", plan)
        let link = "http://localhost:\(other.port)/film.bin"
        let (status, _, note) = try await run.run(["set-url", "1", link])
        #expect(status == 0, "\(note)")
        #expect(!note.contains("warning"), "\(note)")
        #expect(other.stats("/film.bin").requests >= 1, "the new link was asked at once")

        #expect(try await run.run(["resume", "1"]).0 == 0)
        let (finished, out, err) = try await run.download(["--headless"])
        #expect(finished == 0, "\(out)\n\(err)")
        expectSameBytes(run.file("film.bin"), plan.body.bytes())
        let starts = other.stats("/film.bin").rangeHeaders.compactMap { $0.flatMap { Int($0.dropFirst(6).prefix { $0.isNumber }) } }
        #expect(!starts.isEmpty && starts.allSatisfy { $0 >= kept }, "a kept byte was fetched again: \(starts)")
    }

    @Test func anotherFileOfTheSameLengthIsRefusedAtOnceAndTheTaskKeepsItsLink() async throws {
        let nginx = try await Self.start()
        defer { nginx.stop() }
        let film = LinkTests.bytes(Self.size, seed: 2402)
        try Self.publish(nginx, "film.bin", film)
        try Self.publish(nginx, "other.bin", LinkTests.bytes(Self.size, seed: 2403), mtime: Self.mtime + 86_400)
        let run = try HaulRun()
        let before = try await Self.interrupted(nginx, run)

        let (status, _, message) = try await run.run(["set-url", "1", nginx.url("/slow/other.bin")])
        #expect(status == 2, "\(message)")
        #expect(message.contains("the new link's ETag is") || message.contains("the new link's Last-Modified is"), "\(message)")
        #expect(message.contains("--keep-bytes") && !message.contains("link's the"), "\(message)")
        let after = try #require(try await run.list().first)
        #expect(after["url"] as? String == nginx.url("/slow/film.bin"), "the link stays: \(after)")
        #expect(after["state"] as? String == before["state"] as? String && after["bytes"] as? Int == before["bytes"] as? Int)
        #expect(await nginx.entries { $0.contains { $0.uri == "/slow/other.bin" } }.contains {
            $0.uri == "/slow/other.bin" && ($0.range ?? "").hasPrefix("bytes=\(before["bytes"] as? Int ?? -1)-")
        }, "the new link was asked from the first byte not kept")

        // Vouched for, it is taken.
        let (vouched, _, note) = try await run.run(["set-url", "1", nginx.url("/slow/other.bin"), "--keep-bytes"])
        #expect(vouched == 0, "\(note)")
        #expect(try await run.list().first?["url"] as? String == nginx.url("/slow/other.bin"))
    }

    @Test func theCheckGoesWithTheTasksLoginAndCookies() async throws {
        let nginx = try await Self.start()
        defer { nginx.stop() }
        let film = LinkTests.bytes(Self.size, seed: 2405)
        try Self.publish(nginx, "film.bin", film)
        try Self.publish(nginx, "copy.bin", film)
        let run = try HaulRun()
        let netrc = run.root.file("netrc")
        try "machine 127.0.0.1 login alice password n3trc-pw\n".write(toFile: netrc, atomically: true, encoding: .utf8)
        let cookies = run.root.file("cookies.txt")
        try (["127.0.0.1", "FALSE", "/", "FALSE", "0", "session", "c00kie"].joined(separator: "\t") + "\n")
            .write(toFile: cookies, atomically: true, encoding: .utf8)
        let haul = try run.start([
            "--headless", "-s", "1", "-o", "film.bin", "--netrc-file", netrc, "--load-cookies", cookies,
            "-H", "X-Trace: 7", nginx.url("/slow/film.bin"),
        ])
        try await eventually("bytes on disk", timeout: .seconds(15), poll: .milliseconds(50)) {
            LinkTests.partSize(run, "film.bin") > 256 << 10
        }
        haul.kill(SIGINT)
        #expect(try await haul.waitForExit(timeout: .seconds(10)) == 130, "\(haul.stderrText())")
        let kept = try await run.list().first?["bytes"] as? Int ?? -1

        let (status, _, note) = try await run.run(["set-url", "1", nginx.url("/slow/copy.bin")])
        #expect(status == 0, "\(note)")
        let check = await nginx.entries { $0.contains { $0.uri == "/slow/copy.bin" } }.filter { $0.uri == "/slow/copy.bin" }
        #expect(check.count == 1 && check.first?.range == "bytes=\(kept)-\(kept + 15)", "\(check)")
        let basic = "Basic " + Data("alice:n3trc-pw".utf8).base64EncodedString()
        #expect(check.first?.authorization == basic && check.first?.cookie == "session=c00kie", "\(check)")
    }

    @Test func aLinkThatCannotBeReachedNowIsTakenWithAWarning() async throws {
        let nginx = try await Self.start()
        defer { nginx.stop() }
        try Self.publish(nginx, "film.bin", LinkTests.bytes(Self.size, seed: 2404))
        let run = try HaulRun()
        _ = try await Self.interrupted(nginx, run)
        let closed = try #require(LoopbackPort.free())
        let link = "http://127.0.0.1:\(closed)/film.bin"

        let (status, _, note) = try await run.run(["set-url", "1", link])
        #expect(status == 0, "\(note)")
        #expect(note.contains("warning") && note.contains("could not be checked now"), "\(note)")
        #expect(try await run.list().first?["url"] as? String == link)
    }
}
