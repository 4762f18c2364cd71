import FaultServer
import Foundation
import HaulTestSupport
import Testing

/// Hostile playlists (issue 15): each fails its task with an error that names the line, writes nothing, and never
/// crashes haul. Served with HLS's content type, so haul takes each for a stream whatever its body says.
@Suite(.timeLimit(.minutes(2))) struct StreamPlaylistTests {
    /// One bad playlist and what its error must say.
    struct Bad: Sendable, CustomTestStringConvertible {
        var name: String
        var body: [UInt8]
        /// The error starts with this (`playlist line N: `) ...
        var prefix: String
        /// ... and contains this.
        var says: String
        var testDescription: String { name }
    }

    static let header = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n"

    static let cases: [Bad] = [
        Bad(name: "truncated after an EXTINF", body: Array((header + "#EXTINF:2.0,\ns0.ts\n#EXTINF:2.0,\n").utf8),
            prefix: "playlist line 5: ", says: "truncated"),
        Bad(name: "a 1 MB line", body: Array((header + "#EXTINF:2.0,\n" + String(repeating: "a", count: 1 << 20) + "\n#EXT-X-ENDLIST\n").utf8),
            prefix: "playlist line 4: ", says: "longer than"),
        Bad(name: "200,000 segments",
            body: Array(("#EXTM3U\n" + String(repeating: "#EXTINF:1,\ns.ts\n", count: 200_000) + "#EXT-X-ENDLIST\n").utf8),
            prefix: "playlist line ", says: "segments"),
        Bad(name: "a negative duration", body: Array((header + "#EXTINF:-2.0,\ns0.ts\n#EXT-X-ENDLIST\n").utf8),
            prefix: "playlist line 3: ", says: "-2.0"),
        Bad(name: "a segment URI that escapes to file://", body: Array((header + "#EXTINF:2.0,\nfile:///etc/passwd\n#EXT-X-ENDLIST\n").utf8),
            prefix: "playlist line 4: ", says: "file:///etc/passwd"),
        Bad(name: "a key URI on another scheme",
            body: Array((header + "#EXT-X-KEY:METHOD=AES-128,URI=\"ftp://127.0.0.1/k.bin\"\n#EXTINF:2.0,\ns0.ts\n#EXT-X-ENDLIST\n").utf8),
            prefix: "playlist line 3: ", says: "key URI"),
        Bad(name: "invalid UTF-8", body: Array((header + "#EXTINF:2.0,\n").utf8) + [0x73, 0xFF, 0xFE, 0x2E, 0x74, 0x73, 0x0A],
            prefix: "playlist line 4: ", says: "UTF-8"),
        Bad(name: "an HTML page", body: Array("<!DOCTYPE html>\n<html><body>Sign in to watch</body></html>\n".utf8),
            prefix: "playlist line 1: ", says: "HTML"),
        Bad(name: "SAMPLE-AES", body: Array((header + "#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"k.bin\"\n#EXTINF:2.0,\ns0.ts\n#EXT-X-ENDLIST\n").utf8),
            prefix: "playlist line 3: ", says: "SAMPLE-AES"),
        Bad(name: "a DRM key format",
            body: Array((header + "#EXT-X-KEY:METHOD=AES-128,URI=\"k.bin\",KEYFORMAT=\"com.apple.streamingkeydelivery\"\n#EXTINF:2.0,\ns0.ts\n#EXT-X-ENDLIST\n").utf8),
            prefix: "playlist line 3: ", says: "com.apple.streamingkeydelivery"),
    ]

    @Test(arguments: cases)
    func aBadPlaylistFailsNamingTheLineAndWritesNothing(_ bad: Bad) async throws {
        let server = try FaultServer()
        defer { server.stop() }
        server.route("/bad/index.m3u8", FaultPlan(body: .bytes(bad.body), contentType: "application/vnd.apple.mpegurl"))
        server.route("/bad/s0.ts", .file(size: 1000))
        let run = try HaulRun()
        let haul = try run.start(["--headless", "--json", server.url("/bad/index.m3u8")])
        let status = try await haul.waitForExit(timeout: .seconds(30))
        #expect(status == 1, "\(bad.name): the task fails (exit 1), no crash; exit \(status). \(StreamRun.transcript(haul))")
        let error = StreamRun.failure(haul)
        #expect(error.hasPrefix(bad.prefix) && error.contains(bad.says),
                "\(bad.name): the error starts '\(bad.prefix)' and says '\(bad.says)', got '\(error)'")
        #expect(error.count < 400, "\(bad.name): the error quotes, it does not dump: \(error.count) characters")
        #expect(StreamRun.names(run).isEmpty, "\(bad.name): nothing written, found \(StreamRun.names(run))")
        #expect(server.stats("/bad/s0.ts").requests == 0, "\(bad.name): no segment fetched")
        let row = try await run.list().first
        #expect(row?["state"] as? String == "failed" && (row?["error"] as? String) == error, "\(String(describing: row))")
    }

    @Test func anHTMLPageWithItsOwnTypeIsAFileNotAStream() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let page = Array("<html><body>not a playlist</body></html>\n".utf8)
        server.route("/page/index.m3u8", FaultPlan(body: .bytes(page), contentType: "text/html"))
        let run = try HaulRun()
        // Without an extractor (yt-dlp would be asked what video the page holds, DESIGN §11).
        let haul = try run.start(["--headless", "--extractor", "none", server.url("/page/index.m3u8")])
        #expect(try await haul.waitForExit(timeout: .seconds(30)) == 0, "\(StreamRun.transcript(haul))")
        expectSameBytes(run.file("index.m3u8"), page, "a web page is downloaded as it is, named as its link")
    }
}
