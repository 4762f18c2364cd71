import Foundation
import HaulTestSupport
import Testing

/// The same link, with non-ASCII text and a `%20` escape, through curl and through haul from a real nginx:
/// the same bytes, saved under the decoded name.
@Suite(.timeLimit(.minutes(1)), .enabled(if: NginxFixture.isAvailable, "nginx is not installed"))
struct URLEscapingEndToEndTests {
    @Test func aLinkWithEscapesAndNonASCIITextFetchesWhatCurlFetches() async throws {
        let nginx = try await NginxFixture.start()
        defer { nginx.stop() }
        let content = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        try nginx.write(file: "gen/報告書 2025.pdf", bytes: content)
        // A decoy where a doubly encoded link would land.
        try nginx.write(file: "gen/報告書%202025.pdf", bytes: Array("wrong file".utf8))
        let link = nginx.url("/gen/報告書%202025.pdf")

        let run = try HaulRun()
        let curlOut = run.root.file("curl.bin")
        let curl = try HaulProcess(URL(fileURLWithPath: "/usr/bin/curl"), arguments: ["-sS", "-f", "-o", curlOut, link])
        #expect(try await curl.waitForExit(timeout: .seconds(20)) == 0, "\(curl.stderrText())")
        #expect(FileManager.default.contents(atPath: curlOut).map { [UInt8]($0) == content } == true, "curl fetched another file")

        let (status, out, err) = try await run.run(["--headless", link], directory: true)
        #expect(status == 0, "\(out)\n\(err)")
        #expect(run.file("報告書 2025.pdf").map { $0 == content } == true, "haul fetched another file: \(out)\n\(err)")
    }
}
