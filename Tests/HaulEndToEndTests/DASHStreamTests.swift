import Foundation
import HaulTestSupport
import Testing

/// DASH as ffmpeg writes it (TECH_NOTES §I.2), through nginx to the built haul: a manifest link becomes a stream task
/// whose video and audio representations are fetched by segment and muxed into one `NAME.mp4` (DESIGN §11). Each
/// addressing kind ffmpeg makes: a template by number, a template with a timeline, and one file in byte ranges.
@Suite(.serialized, .timeLimit(.minutes(3)), .enabled(if: FFmpegStreamFixture.isAvailable, "ffmpeg, ffprobe, openssl or nginx is not installed"))
struct DASHStreamTests {
    static let seconds = 12.0

    /// The three manifests of 12 s of testsrc and sine in 2 s segments, each in its own directory (`number`,
    /// `timeline`, `single`), made once per test process, ffmpeg bounded.
    static let made = Task<String, any Error> {
        let path = FFmpegStreamFixture.directory + "-dash"
        atexit { try? FileManager.default.removeItem(atPath: FFmpegStreamFixture.directory + "-dash") }
        try? FileManager.default.removeItem(atPath: path)
        for (name, options) in [
            ("number", ["-use_template", "1", "-use_timeline", "0"]), ("timeline", ["-use_template", "1", "-use_timeline", "1"]),
            ("single", ["-single_file", "1"]), ("indexed", ["-single_file", "1", "-global_sidx", "1"]),
        ] {
            try FileManager.default.createDirectory(atPath: path + "/" + name, withIntermediateDirectories: true)
            try await FFmpegStreamFixture.run(FFmpegStreamFixture.ffmpeg, [
                "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=25", "-f", "lavfi", "-i", "sine=frequency=440",
                "-t", "\(Int(seconds))", "-map", "0:v", "-map", "1:a", "-c:v", "libx264", "-preset", "ultrafast", "-g", "50",
                "-sc_threshold", "0", "-c:a", "aac", "-f", "dash", "-seg_duration", "2",
            ] + options + [path + "/" + name + "/manifest.mpd"], timeout: .seconds(120))
        }
        try indexedManifest(path + "/indexed")
        return path
    }

    /// ffmpeg never writes `SegmentBase` (TECH_NOTES §I.2): the manifest of its one-file output with a global `sidx`
    /// is written here, each representation pointing at its file's `sidx` box and the init section before it.
    static func indexedManifest(_ directory: String) throws {
        var representations = ""
        for (index, kind) in ["video", "audio"].enumerated() {
            let file = "manifest-stream\(index).mp4"
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory + "/" + file)))
            var position = 0
            var sidx: (start: Int, size: Int)?
            while position + 8 <= bytes.count, sidx == nil {
                let size = bytes[position..<position + 4].reduce(0) { $0 << 8 | Int($1) }
                if String(decoding: bytes[position + 4..<position + 8], as: UTF8.self) == "sidx" { sidx = (position, size) }
                guard size >= 8 else { break }
                position += size
            }
            let box = try #require(sidx, "\(file) has no sidx box")
            let codecs = kind == "video" ? #"mimeType="video/mp4" codecs="avc1.42c00d" width="160" height="120""# : #"mimeType="audio/mp4" codecs="mp4a.40.2""#
            representations += """
                <AdaptationSet contentType="\(kind)"><Representation id="\(index)" \(codecs) bandwidth="\(100_000 - index * 50_000)">
                  <BaseURL>\(file)</BaseURL>
                  <SegmentBase indexRange="\(box.start)-\(box.start + box.size - 1)"><Initialization range="0-\(box.start - 1)"/></SegmentBase>
                </Representation></AdaptationSet>

                """
        }
        let manifest = """
            <?xml version="1.0" encoding="utf-8"?>
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT12.0S"><Period>
            \(representations)</Period></MPD>
            """
        try manifest.write(toFile: directory + "/manifest.mpd", atomically: true, encoding: .utf8)
    }

    /// nginx serving the manifests as a CDN does (`application/dash+xml`), or, with `plainTypes`, as Debian's
    /// defaults do (`application/octet-stream`: haul finds the manifest by its first element).
    static func serve(plainTypes: Bool = false) async throws -> NginxFixture {
        let source = try await made.value
        let nginx = try await NginxFixture.start(locations: plainTypes ? "" : """
            location /dash/ {
                types { application/dash+xml mpd; video/iso.segment m4s; video/mp4 mp4; }
            }
            """)
        try FileManager.default.copyItem(atPath: source, toPath: nginx.root + "/dash")
        return nginx
    }

    func download(_ kind: String, plainTypes: Bool = false) async throws {
        let nginx = try await Self.serve(plainTypes: plainTypes)
        defer { nginx.stop() }
        let run = try HaulRun()
        let haul = try run.start(["--headless", "--json", nginx.url("/dash/\(kind)/manifest.mpd")])
        #expect(try await haul.waitForExit(timeout: .seconds(90)) == 0, "\(kind): \(StreamRun.transcript(haul))")
        #expect(StreamRun.names(run) == ["manifest.mp4"], "\(kind): one file: \(StreamRun.names(run))")
        let path = run.downloads + "/manifest.mp4"
        #expect(try await MediaCheck.streamCount(path) == 2, "\(kind): the video and the muxed audio")
        let duration = try await MediaCheck.duration(path)
        #expect(duration.map { abs($0 - Self.seconds) <= 0.1 } == true, "\(kind): ffprobe reads \(String(describing: duration)) s")
        #expect(try await MediaCheck.decodeErrors(path) == "", "\(kind)")
        #expect(!nginx.accessEntries().contains { $0.status >= 400 }, "\(kind): \(nginx.accessEntries().filter { $0.status >= 400 })")
    }

    @Test func aTemplateByNumberPlaysAsOneFile() async throws { try await download("number") }

    @Test func webVTTSubtitlesAreSavedBesideAndMuxedIn() async throws {
        let nginx = try await Self.serve()
        defer { nginx.stop() }
        // ffmpeg writes no text AdaptationSet: one is added to its manifest, a whole WebVTT file.
        let directory = nginx.root + "/dash/number"
        try "WEBVTT\n\n00:00:01.000 --> 00:00:02.500\nHello\n\n00:00:05.000 --> 00:00:06.000\nAgain\n"
            .write(toFile: directory + "/eng.vtt", atomically: true, encoding: .utf8)
        let manifest = try String(contentsOfFile: directory + "/manifest.mpd", encoding: .utf8).replacingOccurrences(
            of: "</Period>",
            with: #"<AdaptationSet contentType="text" mimeType="text/vtt" lang="eng"><Representation id="9" bandwidth="100"><BaseURL>eng.vtt</BaseURL></Representation></AdaptationSet></Period>"#)
        try manifest.write(toFile: directory + "/subs.mpd", atomically: true, encoding: .utf8)
        let run = try HaulRun()
        let haul = try run.start(["--headless", "--json", "--stream-subs", "eng", nginx.url("/dash/number/subs.mpd")])
        #expect(try await haul.waitForExit(timeout: .seconds(90)) == 0, "\(StreamRun.transcript(haul))")
        #expect(StreamRun.names(run) == ["subs.eng.vtt", "subs.mp4"], "\(StreamRun.names(run))")
        #expect(try await MediaCheck.streamCount(run.downloads + "/subs.mp4") == 3, "video, audio and the subtitles")
        let text = String(decoding: run.file("subs.eng.vtt") ?? [], as: UTF8.self)
        #expect(text.hasPrefix("WEBVTT") && text.contains("Hello") && text.contains("Again"), "\(text)")
        let stream = try #require(StreamRun.stream(try await run.list().first))
        let renditions = try #require(stream["renditions"] as? [[String: Any]], "\(stream)")
        #expect(renditions.map { $0["kind"] as? String } == ["audio", "subtitles"] && renditions.allSatisfy { $0["chosen"] as? Bool == true })
    }

    @Test func aTemplateWithATimelinePlaysAsOneFile() async throws { try await download("timeline") }

    @Test func oneFileInByteRangesPlaysAsOneFile() async throws { try await download("single") }

    @Test func oneFileIndexedByItsSidxPlaysAsOneFile() async throws { try await download("indexed") }

    @Test func aManifestServedAsPlainBytesIsFoundByItsFirstElement() async throws { try await download("number", plainTypes: true) }

    @Test func killNineThenResumeFetchesOnlyTheSegmentsNotOnRecordAndPlays() async throws {
        let nginx = try await Self.serve()
        defer { nginx.stop() }
        let run = try HaulRun()
        // About 120 KiB a second: the 12 s stream takes several seconds, so the kill lands mid-stream.
        let first = try run.start(["--headless", "--limit-rate", "60K", nginx.url("/dash/timeline/manifest.mpd")])
        defer { first.terminate(SIGKILL) }
        try await StreamRun.waitForSegments(2, of: run, while: first)
        first.kill(SIGKILL)
        #expect(try await first.waitForExit(timeout: .seconds(10)) == 128 + SIGKILL)
        let recorded = try await StreamRun.segmentsDone(run)
        let fetched = Set(nginx.accessEntries().map(\.uri).filter { $0.hasSuffix(".m4s") })

        let second = try run.start(["--headless"], directory: false)
        #expect(try await second.waitForExit(timeout: .seconds(60)) == 0, "\(StreamRun.transcript(second))")
        let path = run.downloads + "/manifest.mp4"
        let duration = try await MediaCheck.duration(path)
        #expect(duration.map { abs($0 - Self.seconds) <= 0.1 } == true, "ffprobe reads \(String(describing: duration)) s")
        #expect(try await MediaCheck.decodeErrors(path) == "")
        // The first video segment was on record before the kill: it is not asked again.
        let firstSegments = nginx.accessEntries().map(\.uri).filter { $0.hasSuffix("chunk-stream0-00001.m4s") }
        #expect(recorded >= 1 && fetched.contains { $0.hasSuffix("chunk-stream0-00001.m4s") } && firstSegments.count == 1,
                "recorded \(recorded), fetched \(firstSegments)")
    }
}
