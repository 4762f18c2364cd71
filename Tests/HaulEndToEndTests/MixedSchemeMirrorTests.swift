import Foundation
import HaulTestSupport
import Testing

/// An input-file line whose links mix http and https (DESIGN §8), against two real nginx, one of them over TLS:
/// one task fetched from both, as aria2c does, and the user's credential header only ever sent to the link's own
/// origin (scheme included).
@Suite(.timeLimit(.minutes(1)), .enabled(if: NginxFixture.isAvailable && LinkTests.opensslAvailable, "nginx or openssl is not installed"))
struct MixedSchemeMirrorTests {
    static let size = 4 << 20

    @Test func httpAndHttpsLinksOnOneLineAreOneTaskAndTheLoginStaysWithItsOrigin() async throws {
        let capped = "location /files/ { limit_rate 1m; }"
        let plain = try await NginxFixture.start(locations: capped)
        defer { plain.stop() }
        let secure = try await NginxFixture.start(tls: true, locations: capped)
        defer { secure.stop() }
        let film = LinkTests.bytes(Self.size, seed: 2411)
        for nginx in [plain, secure] {
            try nginx.write(file: "files/film.bin", bytes: film)
            try LinkTests.setModificationTime(nginx.root + "/files/film.bin", 1_736_157_600)
        }
        let run = try HaulRun()
        let list = run.root.file("links.txt")
        try "\(plain.url("/files/film.bin"))\t\(secure.url("/files/film.bin"))\n  out=film.bin\n"
            .write(toFile: list, atomically: true, encoding: .utf8)

        let (status, out, err) = try await run.download([
            "--headless", "-s", "2", "--min-split-size", "1M", "--ca-cert", try #require(secure.certificate),
            "-H", "Authorization: Bearer s3cret", "-i", list,
        ])
        #expect(status == 0, "\(out)\n\(err)")
        expectSameBytes(run.file("film.bin"), film)
        #expect(try await run.list().count == 1)
        let own = await plain.entries { !$0.isEmpty }
        let mirror = await secure.entries { !$0.isEmpty }
        #expect(!own.isEmpty && own.allSatisfy { $0.authorization == "Bearer s3cret" }, "\(own)")
        #expect(mirror.contains { $0.status == 206 && $0.bodyBytesSent > 0 }, "the https mirror served ranges: \(mirror)")
        #expect(mirror.allSatisfy { $0.authorization == nil }, "the header went to another origin: \(mirror)")
    }
}
