import FaultServer
import Foundation
import HaulTestSupport
import Testing

/// Generated HLS streams (`/hls/NAME/…`): playlists, segments and keys as curl and openssl see them, and each fault.
@Suite struct HLSRouteTests {
    let curl: Curl
    let server: FaultServer

    init() throws {
        curl = try Curl()
        server = try FaultServer(lifetime: .seconds(60))
    }

    /// The URI lines (not tags, not blank) of a playlist.
    func uris(_ body: [UInt8]) -> [String] {
        String(decoding: body, as: UTF8.self).split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") }
    }

    /// `uri` (relative to `/hls/NAME/` + `directory`) as a link on the server.
    func link(_ stream: HLSStream, _ uri: String, directory: String = "") -> String {
        server.url("/hls/\(stream.name)/\(directory)\(uri)")
    }

    /// openssl's decryption of `bytes` (AES-128-CBC, PKCS#7), or nil when it fails (bad padding).
    func opensslDecrypt(_ bytes: [UInt8], key: [UInt8], iv: [UInt8]) async throws -> [UInt8]? {
        let hex = { (b: [UInt8]) in b.map { String(format: "%02x", $0) }.joined() }
        let directory = try TemporaryDirectory(prefix: "haul-hls-aes")
        let input = directory.file("in")
        let output = directory.file("out")
        try Data(bytes).write(to: URL(fileURLWithPath: input))
        let process = try HaulProcess(
            URL(fileURLWithPath: "/usr/bin/openssl"),
            arguments: ["aes-128-cbc", "-d", "-K", hex(key), "-iv", hex(iv), "-in", input, "-out", output])
        guard try await process.waitForExit(timeout: .seconds(10)) == 0 else { return nil }
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
    }

    @Test func aMediaPlaylistListsEverySegmentWithTheQueryAndServesTheirBytes() async throws {
        defer { server.stop() }
        let stream = try HLSStream(server, name: "plain", query: "segments=5&segsize=10k&duration=2.5&mediaseq=7")
        let playlist = try await curl.fetch(stream.url())
        #expect(playlist.status == 200)
        #expect(playlist.header("Content-Type") == "application/vnd.apple.mpegurl")
        let text = String(decoding: playlist.body, as: UTF8.self)
        #expect(text.hasPrefix("#EXTM3U\n"))
        #expect(text.contains("#EXT-X-MEDIA-SEQUENCE:7\n"))
        #expect(text.contains("#EXT-X-TARGETDURATION:3\n"))
        #expect(text.contains("#EXTINF:2.500000,\n"))
        #expect(text.hasSuffix("#EXT-X-ENDLIST\n"))
        #expect(uris(playlist.body) == (0..<5).map { "seg\($0).ts?\(stream.query)" })
        var whole: [UInt8] = []
        for uri in uris(playlist.body) {
            let segment = try await curl.fetch(link(stream, uri))
            #expect(segment.status == 200)
            #expect(segment.header("Content-Type") == "video/mp2t")
            whole += segment.body
        }
        #expect(whole == stream.expectedOutput())
        #expect(whole.count == 5 * 10 * 1024)
        // Segments differ from each other and from another stream's.
        #expect(stream.plan.clearSegment(0) != stream.plan.clearSegment(1))
        let other = try HLSStream(server, name: "other", query: stream.query)
        #expect(other.expectedOutput() != stream.expectedOutput())
        #expect(stream.segmentRequests() == [1, 1, 1, 1, 1])
        #expect(stream.playlistRequests() == 1)
    }

    @Test func aKeyedStreamDecryptsWithTheTagsIVOrTheSequenceNumber() async throws {
        defer { server.stop() }
        for (query, implicit) in [("segments=3&segsize=1000&key=1", false), ("segments=3&segsize=4096&key=1&iv=seq&mediaseq=9", true)] {
            let stream = try HLSStream(server, name: implicit ? "implicit" : "explicit", query: query)
            let text = String(decoding: try await curl.fetch(stream.url()).body, as: UTF8.self)
            let keyLine = try #require(text.split(separator: "\n").first { $0.hasPrefix("#EXT-X-KEY:") })
            #expect(keyLine.contains("METHOD=AES-128,URI=\"key.bin?\(query)\""))
            #expect(keyLine.contains("IV=0x0f0e0d0c0b0a09080706050403020100") != implicit, "\(keyLine)")
            let key = try await curl.fetch(link(stream, "key.bin?\(query)"))
            #expect(key.body == HLSPlan.key)
            for index in 0..<3 {
                let served = try await curl.fetch(link(stream, "seg\(index).ts?\(query)")).body
                #expect(served.count == (stream.plan.segmentSize / 16 + 1) * 16)
                let iv = implicit ? [UInt8](repeating: 0, count: 15) + [UInt8(9 + index)] : HLSPlan.explicitIV
                #expect(try await opensslDecrypt(served, key: HLSPlan.key, iv: iv) == stream.plan.clearSegment(index), "\(query) segment \(index)")
            }
        }
    }

    @Test func badPaddingDoesNotDecrypt() async throws {
        defer { server.stop() }
        let stream = try HLSStream(server, name: "pad", query: "segments=2&segsize=1000&key=1&badpad=1")
        let good = try await curl.fetch(link(stream, "seg0.ts?\(stream.query)")).body
        let bad = try await curl.fetch(link(stream, "seg1.ts?\(stream.query)")).body
        #expect(bad.count == good.count)
        #expect(try await opensslDecrypt(good, key: HLSPlan.key, iv: HLSPlan.explicitIV) != nil)
        #expect(try await opensslDecrypt(bad, key: HLSPlan.key, iv: HLSPlan.explicitIV) == nil, "segment 1 decrypted")
    }

    @Test func segmentStatusFaultsAlwaysOrForTheFirstRequests() async throws {
        defer { server.stop() }
        let stream = try HLSStream(server, name: "err", query: "segments=4&segsize=1k&err=1:404,2:503:2&retryafter=3")
        let url = { (index: Int) in self.link(stream, "seg\(index).ts?\(stream.query)") }
        #expect(try await curl.fetch(url(1)).status == 404)
        #expect(try await curl.fetch(url(1)).status == 404)
        let first = try await curl.fetch(url(2))
        #expect(first.status == 503)
        #expect(first.header("Retry-After") == "3")
        #expect(try await curl.fetch(url(2)).status == 503)
        let third = try await curl.fetch(url(2))
        #expect(third.status == 200)
        #expect(third.body == stream.plan.clearSegment(2))
        #expect(try await curl.fetch(url(0)).status == 200)
        #expect(stream.segmentRequests() == [1, 2, 3, 0])
        #expect(server.stats("/hls/err/seg2.ts").statuses == [503, 503, 200])
    }

    @Test func segmentBodyFaultsDropShortAndStallOnce() async throws {
        defer { server.stop() }
        let stream = try HLSStream(server, name: "body", query: "segments=3&segsize=100k&drop=0:40k&short=1:1000:2&stall=2:10k")
        let url = { (index: Int) in self.link(stream, "seg\(index).ts?\(stream.query)") }
        let dropped = try await curl.fetch(url(0))
        #expect(dropped.exitCode == 18)
        #expect(dropped.body == Array(stream.plan.clearSegment(0).prefix(40 << 10)))
        #expect(try await curl.fetch(url(0)).body == stream.plan.clearSegment(0))
        for _ in 0..<2 {
            let short = try await curl.fetch(url(1))
            #expect(short.exitCode == 18)
            #expect(short.header("Content-Length") == "102400")
            #expect(short.body.count == 102_400 - 1000)
        }
        #expect(try await curl.fetch(url(1)).body == stream.plan.clearSegment(1))
        let stalled = try await curl.fetch(url(2), options: ["--max-time", "1"])
        #expect(stalled.exitCode == 28)
        #expect(stalled.body.count == 10 << 10)
        #expect(try await curl.fetch(url(2)).body == stream.plan.clearSegment(2))
    }

    @Test func theKeyFailsAlwaysOrForTheFirstRequests() async throws {
        defer { server.stop() }
        let always = try HLSStream(server, name: "k1", query: "segments=1&segsize=1k&key=1&keyerr=403")
        #expect(try await curl.fetch(link(always, "key.bin?\(always.query)")).status == 403)
        #expect(try await curl.fetch(link(always, "key.bin?\(always.query)")).status == 403)
        let once = try HLSStream(server, name: "k2", query: "segments=1&segsize=1k&key=1&keyerr=403:1")
        #expect(try await curl.fetch(link(once, "key.bin?\(once.query)")).status == 403)
        #expect(try await curl.fetch(link(once, "key.bin?\(once.query)")).body == HLSPlan.key)
        #expect(once.keyRequests() == 2)
        // No key for a clear stream.
        let clear = try HLSStream(server, name: "k3", query: "segments=1&segsize=1k")
        #expect(try await curl.fetch(link(clear, "key.bin?\(clear.query)")).status == 404)
    }

    @Test func aChangingPlaylistReadsDifferentlyFromItsNextFetch() async throws {
        defer { server.stop() }
        let stream = try HLSStream(server, name: "chg", query: "segments=4&segsize=1k&change=1&changesegments=6&changeduration=3")
        let first = String(decoding: try await curl.fetch(stream.url()).body, as: UTF8.self)
        let second = String(decoding: try await curl.fetch(stream.url()).body, as: UTF8.self)
        #expect(uris(Array(first.utf8)).count == 4)
        #expect(first.contains("#EXTINF:2.000000,"))
        #expect(uris(Array(second.utf8)).count == 6)
        #expect(second.contains("#EXTINF:3.000000,") && !second.contains("#EXTINF:2.000000,"))
        #expect(stream.expectedOutput(fetch: 2).count == 6 << 10)
        #expect(Array(stream.expectedOutput(fetch: 2).prefix(4 << 10)) == stream.expectedOutput(fetch: 1))
        #expect(try await curl.fetch(link(stream, "seg5.ts?\(stream.query)")).status == 200)
        #expect(try await curl.fetch(link(stream, "seg6.ts?\(stream.query)")).status == 404)
    }

    @Test func rotatedLinksHoldOnlyUntilTheNextPlaylistFetch() async throws {
        defer { server.stop() }
        let stream = try HLSStream(server, name: "rot", query: "segments=3&segsize=1k&rotate=1")
        let first = uris(try await curl.fetch(stream.url()).body)
        #expect(first.first == "r1/seg0.ts?\(stream.query)")
        #expect(try await curl.fetch(link(stream, first[0])).status == 200)
        let second = uris(try await curl.fetch(stream.url()).body)
        #expect(second.first == "r2/seg0.ts?\(stream.query)")
        #expect(try await curl.fetch(link(stream, first[1])).status == 403, "a link of the first fetch still works")
        let fresh = try await curl.fetch(link(stream, second[1]))
        #expect(fresh.status == 200)
        #expect(fresh.body == stream.plan.clearSegment(1))
        #expect(try await curl.fetch(link(stream, "seg1.ts?\(stream.query)")).status == 403, "an untokened link works")
        // Counted under the path without the token.
        #expect(stream.segmentRequests() == [1, 3, 0])
    }

    @Test func aMasterListsVariantsAndAnAudioGroup() async throws {
        defer { server.stop() }
        let stream = try HLSStream(server, name: "abr", query: "segments=2&segsize=2k&variants=3&audio=1")
        let master = String(decoding: try await curl.fetch(stream.url("master.m3u8")).body, as: UTF8.self)
        let lines = master.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("#EXT-X-STREAM-INF:") } == [
            "#EXT-X-STREAM-INF:BANDWIDTH=2160000,RESOLUTION=960x540,CODECS=\"avc1.42c01e,mp4a.40.2\",AUDIO=\"aud\"",
            "#EXT-X-STREAM-INF:BANDWIDTH=4320000,RESOLUTION=1920x1080,CODECS=\"avc1.42c01e,mp4a.40.2\",AUDIO=\"aud\"",
            "#EXT-X-STREAM-INF:BANDWIDTH=1440000,RESOLUTION=640x360,CODECS=\"avc1.42c01e,mp4a.40.2\",AUDIO=\"aud\"",
        ])
        #expect(master.contains("#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"English\",LANGUAGE=\"en\",DEFAULT=YES,AUTOSELECT=YES,URI=\"audio/index.m3u8?\(stream.query)\""))
        #expect(uris(Array(master.utf8)) == (0..<3).map { "v\($0)/index.m3u8?\(stream.query)" })
        #expect(stream.plan.bestVariant == 1 && stream.plan.worstVariant == 2 && stream.plan.variant(height: 540) == 0)
        let variant = try await curl.fetch(link(stream, "v1/index.m3u8?\(stream.query)"))
        #expect(uris(variant.body) == ["seg0.ts?\(stream.query)", "seg1.ts?\(stream.query)"])
        let segment = try await curl.fetch(link(stream, "seg0.ts?\(stream.query)", directory: "v1/"))
        #expect(segment.body == stream.plan.clearSegment(0, track: .variant(1)))
        #expect(segment.body != stream.plan.clearSegment(0, track: .variant(0)))
        let audio = try await curl.fetch(link(stream, "seg1.ts?\(stream.query)", directory: "audio/"))
        #expect(audio.body == stream.plan.clearSegment(1, track: .audio))
        #expect(try await curl.fetch(link(stream, "index.m3u8?\(stream.query)", directory: "v3/")).status == 404)
        #expect(stream.requests(ofSegment: 0, track: .variant(1)) == 1)
    }

    @Test func byteRangesCutOneFileIntoTheSegments() async throws {
        defer { server.stop() }
        for query in ["segments=3&segsize=5000&byterange=1", "segments=3&segsize=5000&byterange=1&key=1"] {
            let stream = try HLSStream(server, name: "single", query: query)
            let text = String(decoding: try await curl.fetch(stream.url()).body, as: UTF8.self)
            let ranges = text.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-BYTERANGE:") }
                .map { $0.dropFirst("#EXT-X-BYTERANGE:".count).split(separator: "@").map { Int($0)! } }
            #expect(ranges.count == 3)
            #expect(text.contains("#EXT-X-VERSION:4"))
            #expect(uris(Array(text.utf8)) == Array(repeating: "stream.ts?\(query)", count: 3))
            var clear: [UInt8] = []
            for (index, range) in ranges.enumerated() {
                let part = try await curl.fetch(
                    link(stream, "stream.ts?\(query)"), headers: ["Range: bytes=\(range[1])-\(range[1] + range[0] - 1)"])
                #expect(part.status == 206)
                if stream.plan.encrypted {
                    clear += try await opensslDecrypt(part.body, key: HLSPlan.key, iv: HLSPlan.explicitIV) ?? []
                } else {
                    clear += part.body
                }
                #expect(index == 0 || range[1] == ranges[index - 1][0] + ranges[index - 1][1], "ranges are contiguous")
            }
            #expect(clear == stream.expectedOutput(), "\(query)")
        }
    }

    @Test func aConnectionCapHoldsAcrossSegmentsOnOneConnection() async throws {
        defer { server.stop() }
        // 64 KiB/s with a 64 KiB burst: segment 0 goes at once, segment 1 on the same connection waits a second.
        let stream = try HLSStream(server, name: "cap", query: "segments=2&segsize=64k&conncap=64k")
        let directory = try TemporaryDirectory(prefix: "haul-hls-cap")
        var arguments: [String] = []
        for index in 0..<2 {
            if index > 0 { arguments.append("--next") }
            arguments += ["-s", "--noproxy", "*", "--max-time", "8", "-o", directory.file("s\(index)"), "-w", "%{time_total}\\n",
                          link(stream, "seg\(index).ts?\(stream.query)")]
        }
        let process = try HaulProcess(URL(fileURLWithPath: Curl.path), arguments: arguments)
        #expect(try await process.waitForExit(timeout: .seconds(10)) == 0)
        let times = process.stdoutLines().compactMap(Double.init)
        try #require(times.count == 2)
        #expect(times[1] >= 0.85, "the second segment got a fresh burst: \(times)")
        #expect(server.connectionsAccepted == 1)
        // Segment 0 fits the burst and never waits; segment 1 finds the bucket as segment 0 left it.
        let first = try #require(server.stats("/hls/cap/seg0.ts").cappedResponses.first)
        #expect(first == CappedResponse(rate: 64 << 10, bytesBeforeFirstWait: 64 << 10, waits: 0))
        let second = try #require(server.stats("/hls/cap/seg1.ts").cappedResponses.first)
        #expect(second.waits > 0 && second.bytesBeforeFirstWait < 64 << 10, "a fresh burst: \(second)")
        let bytes = try (0..<2).flatMap { [UInt8](try Data(contentsOf: URL(fileURLWithPath: directory.file("s\($0)")))) }
        #expect(bytes == stream.expectedOutput())
    }

    @Test func aLiveOrRetypedPlaylistAndABadQuery() async throws {
        defer { server.stop() }
        let live = try HLSStream(server, name: "live", query: "segments=2&segsize=1k&live=1&type=text/plain")
        let playlist = try await curl.fetch(live.url())
        #expect(playlist.header("Content-Type") == "text/plain")
        let text = String(decoding: playlist.body, as: UTF8.self)
        #expect(!text.contains("#EXT-X-ENDLIST") && !text.contains("PLAYLIST-TYPE"))
        let bad = try await curl.fetch(server.url("/hls/x/index.m3u8?segments=2"))
        #expect(bad.status == 400)
        #expect(String(decoding: bad.body, as: UTF8.self).contains("segsize=S (required)"))
        #expect(throws: HLSStreamQueryError.self) { try HLSStream(server, name: "x", query: "segments=2&err=1") }
        #expect(try await curl.fetch(server.url("/hls/x/nothing.txt?segments=1&segsize=1")).status == 404)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"), "ffmpeg is not installed"))
    func transportStreamSegmentsAreMPEGTSThatFFmpegCopies() async throws {
        defer { server.stop() }
        let stream = try HLSStream(server, name: "ts", query: "segments=3&segsize=100k&ts=1")
        #expect(stream.plan.segmentSize == 102_400 / 188 * 188)
        let segment = try await curl.fetch(link(stream, "seg1.ts?\(stream.query)")).body
        #expect(segment == stream.plan.clearSegment(1))
        #expect(segment.count == stream.plan.segmentSize)
        #expect(stride(from: 0, to: segment.count, by: 188).allSatisfy { segment[$0] == 0x47 }, "a sync byte every 188 bytes")
        let directory = try TemporaryDirectory(prefix: "haul-hls-ts")
        let process = try HaulProcess(
            URL(fileURLWithPath: "/usr/bin/ffmpeg"),
            arguments: ["-nostdin", "-v", "error", "-i", stream.url(), "-map", "0", "-c", "copy", "-f", "mpegts", "-y", directory.file("out.ts")])
        #expect(try await process.waitForExit(timeout: .seconds(30)) == 0, "ffmpeg: \(process.stderrText())")
        let size = (try? FileManager.default.attributesOfItem(atPath: directory.file("out.ts")))?[.size] as? Int ?? 0
        #expect(size >= 3 * stream.plan.segmentSize * 9 / 10, "ffmpeg copied \(size) bytes")
    }
}
