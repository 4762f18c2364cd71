import FaultServer
import Foundation
import HaulTestSupport
import Testing

/// Servers that punish every extra request, against a real nginx: a signed link valid for a few seconds (checked on
/// each request, as CDNs do) and a host that allows two requests a second (`limit_req`). A range connection asks for
/// its whole range once, so a download over several connections outlives its link and shares a rationed host.
@Suite(.timeLimit(.minutes(1)), .enabled(if: NginxFixture.isAvailable && LinkTests.opensslAvailable, "nginx or openssl is not installed"))
struct RationedRequestTests {
    static let secret = "haul-short-s3cret"

    static func start() async throws -> NginxFixture {
        try await NginxFixture.start(
            locations: """
                location /short/ {
                    secure_link $arg_md5,$arg_expires;
                    secure_link_md5 "$secure_link_expires$uri \(secret)";
                    if ($secure_link = "") { return 403; }
                    if ($secure_link = "0") { return 410; }
                    limit_rate 1m;
                }
                location /rationed/ {
                    limit_req zone=haul_rationed burst=2 nodelay;
                    limit_rate 1m;
                }
                """,
            http: "limit_req_zone $binary_remote_addr zone=haul_rationed:1m rate=2r/s;")
    }

    static func content(_ size: Int, seed: UInt64) -> [UInt8] {
        FaultPlan.Body.generated(size: Int64(size), seed: seed).bytes()
    }

    /// Body bytes of the file sent (the error pages of refusals left out).
    static func served(_ entries: [NginxFixture.AccessEntry]) -> Int64 {
        entries.filter { $0.status / 100 == 2 }.reduce(0) { $0 + $1.bodyBytesSent }
    }

    /// Every connection runs at 1 MiB/s, so the file takes five seconds at any `-s`; the link is valid for three.
    @Test(arguments: [4, 8]) func aLinkValidForSecondsOutlastsNoRequestOfASegmentedDownload(split: Int) async throws {
        let nginx = try await Self.start()
        defer { nginx.stop() }
        let size = split * 5 << 20
        let bytes = Self.content(size, seed: 2400 + UInt64(split))
        try nginx.write(file: "short/film.bin", bytes: bytes)
        let expires = LinkTests.now + 3
        let hash = try LinkTests.secureLinkHash("\(expires)/short/film.bin \(Self.secret)")
        let link = nginx.url("/short/film.bin?md5=\(hash)&expires=\(expires)")
        let run = try HaulRun()
        let haul = try run.start(["--headless", "-s", "\(split)", "--retries", "0", "-o", "film.bin", link])
        #expect(try await haul.waitForExit(timeout: .seconds(40)) == 0, "\(haul.stderrText())")
        expectSameBytes(run.file("film.bin"), bytes)
        let entries = try await eventuallyValue("every answer in the access log", timeout: .seconds(5)) {
            () -> [NginxFixture.AccessEntry]? in
            let found = nginx.accessEntries()
            return Self.served(found) >= Int64(size) ? found : nil
        }
        // The first request and one per range, and a few ranges taken from slow ones while the link was valid; a
        // range taken after it expired is refused and goes back to the connection it was taken from.
        #expect(entries.count(where: { $0.status / 100 == 2 }) <= split + 4, "\(entries.map { ($0.status, $0.range) })")
        #expect(entries.count(where: { $0.status == 410 }) <= split, "\(entries.map { ($0.status, $0.range) })")
    }

    /// 16 MiB at 1 MiB/s per connection, eight connections, from a host allowing two requests a second with a
    /// burst of two: some connections are refused (503) at first. Those wait and come back while the others go
    /// on; the attempt never ends for it and the file needs few requests.
    @Test func aHostThatRationsRequestsIsSharedWithoutRestartingTheAttempt() async throws {
        let nginx = try await Self.start()
        defer { nginx.stop() }
        let size = 16 << 20
        let bytes = Self.content(size, seed: 2410)
        try nginx.write(file: "rationed/film.bin", bytes: bytes)
        let run = try HaulRun()
        let haul = try run.start(["--headless", "-s", "8", "-o", "film.bin", nginx.url("/rationed/film.bin")])
        #expect(try await haul.waitForExit(timeout: .seconds(40)) == 0, "\(haul.stderrText())")
        expectSameBytes(run.file("film.bin"), bytes)
        let output = haul.stdoutText() + haul.stderrText()
        #expect(!output.contains("retrying"), "\(output)")
        let entries = try await eventuallyValue("every answer in the access log", timeout: .seconds(5)) {
            () -> [NginxFixture.AccessEntry]? in
            let found = nginx.accessEntries()
            return Self.served(found) >= Int64(size) ? found : nil
        }
        let refused = entries.count(where: { $0.status == 503 })
        #expect(refused >= 1, "the host refused nothing: the test proves nothing")
        #expect(refused <= 12, "\(entries.map { ($0.status, $0.range) })")
        #expect(entries.count(where: { $0.status / 100 == 2 }) <= 16, "\(entries.map { ($0.status, $0.range) })")
    }
}
