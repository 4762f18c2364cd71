import Foundation
import HaulTestSupport
import Testing

/// Audio and subtitle renditions (issue 26 §5) on the stream ffmpeg makes with two audio renditions (English, the
/// default, and Deutsch) and a WebVTT subtitle rendition (TECH_NOTES §I.5), served by nginx: `--stream-audio` picks
/// the audio by language, `--stream-subs` saves the subtitles beside the video as `NAME.LANG.vtt`, and
/// `haul list --json` lists every rendition with those taken.
@Suite(.serialized, .timeLimit(.minutes(2)), .enabled(if: FFmpegStreamFixture.isAvailable, "ffmpeg, ffprobe, openssl or nginx is not installed"))
struct StreamTracksTests {
    static let cues = ["First line", "Second line", "Third line"]

    /// 12 s in 4 s segments under `master.m3u8`; made once per test process, ffmpeg bounded.
    static let made = Task<String, any Error> {
        let path = FFmpegStreamFixture.directory + "-tracks"
        atexit { try? FileManager.default.removeItem(atPath: FFmpegStreamFixture.directory + "-tracks") }
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let subtitles = "WEBVTT\n\n00:00:01.000 --> 00:00:02.500\n\(cues[0])\n\n00:00:05.000 --> 00:00:06.500\n\(cues[1])\n\n"
            + "00:00:09.000 --> 00:00:10.500\n\(cues[2])\n"
        try subtitles.write(toFile: path + "/subs.vtt", atomically: true, encoding: .utf8)
        try await FFmpegStreamFixture.run(FFmpegStreamFixture.ffmpeg, [
            "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=25", "-f", "lavfi", "-i",
            "sine=frequency=440:sample_rate=48000", "-f", "lavfi", "-i", "sine=frequency=660:sample_rate=48000", "-i", path + "/subs.vtt",
            "-t", "12", "-map", "0:v", "-map", "1:a", "-map", "2:a", "-map", "3:s", "-c:v", "libx264", "-preset", "ultrafast", "-g", "25",
            "-pix_fmt", "yuv420p", "-c:a", "aac", "-c:s", "webvtt", "-f", "hls", "-hls_time", "4", "-hls_playlist_type", "vod",
            "-hls_segment_filename", path + "/out_%v_%03d.ts", "-master_pl_name", "master.m3u8", "-var_stream_map",
            "v:0,s:0,agroup:aud,sgroup:sub,language:eng,name:video a:0,agroup:aud,language:eng,name:English,default:yes a:1,agroup:aud,language:deu,name:Deutsch",
            path + "/out_%v.m3u8",
        ], timeout: .seconds(120))
        return path
    }

    static func serve() async throws -> NginxFixture {
        let source = try await made.value
        let nginx = try await NginxFixture.start(locations: """
            location /tv/ {
                types { application/vnd.apple.mpegurl m3u8; video/mp2t ts; text/vtt vtt; }
            }
            """)
        try FileManager.default.copyItem(atPath: source, toPath: nginx.root + "/tv")
        return nginx
    }

    @Test func theAudioAskedForAndTheSubtitlesBesideTheVideo() async throws {
        let nginx = try await Self.serve()
        defer { nginx.stop() }
        let run = try HaulRun()
        let haul = try run.start(["--headless", "--json", "--stream-audio", "fra,deu", "--stream-subs", "eng", nginx.url("/tv/master.m3u8")])
        #expect(try await haul.waitForExit(timeout: .seconds(60)) == 0, "\(StreamRun.transcript(haul))")
        #expect(StreamRun.names(run) == ["master.eng.vtt", "master.ts"], "\(StreamRun.names(run))")
        #expect(try await MediaCheck.streamCount(run.downloads + "/master.ts") == 2, "the video and the muxed audio")
        let fetched = nginx.accessEntries().map(\.uri)
        #expect(fetched.contains { $0.contains("out_Deutsch_") } && !fetched.contains { $0.contains("out_English") },
                "the Deutsch audio, not the default English one: \(fetched)")
        let subtitles = try #require(run.file("master.eng.vtt").map { String(decoding: $0, as: UTF8.self) })
        #expect(subtitles.hasPrefix("WEBVTT") && subtitles.components(separatedBy: "WEBVTT").count == 2, "one header: \(subtitles)")
        #expect(Self.cues.allSatisfy(subtitles.contains) && subtitles.components(separatedBy: "-->").count == 4, "\(subtitles)")
        let stream = try #require(StreamRun.stream(try await run.list().first))
        let renditions = try #require(stream["renditions"] as? [[String: Any]], "\(stream)")
        #expect(renditions.map { $0["language"] as? String } == ["eng", "deu", "eng"], "\(renditions)")
        #expect(renditions.map { $0["chosen"] as? Bool } == [false, true, true], "\(renditions)")
        #expect((stream["note"] as? String)?.contains("saved beside the video as master.eng.vtt") == true, "\(stream)")
    }

    @Test func withoutOptionsTheDefaultAudioAndNoSubtitles() async throws {
        let nginx = try await Self.serve()
        defer { nginx.stop() }
        let run = try HaulRun()
        let haul = try run.start(["--headless", "--json", nginx.url("/tv/master.m3u8")])
        #expect(try await haul.waitForExit(timeout: .seconds(60)) == 0, "\(StreamRun.transcript(haul))")
        #expect(StreamRun.names(run) == ["master.ts"], "\(StreamRun.names(run))")
        let fetched = nginx.accessEntries().map(\.uri)
        #expect(fetched.contains { $0.contains("out_English_") } && !fetched.contains { $0.contains("Deutsch") || $0.hasSuffix(".vtt") },
                "\(fetched)")
        // Subtitles asked for in a language the stream lacks: none, and no error.
        let bad = try await run.run(["--headless", "--stream-subs", "../etc", nginx.url("/tv/master.m3u8")], directory: true)
        #expect(bad.0 == 2 && bad.2.contains("stream-subs '../etc' is not valid"), "\(bad)")
    }

    @Test func intoMP4TheSubtitlesAreMuxedAsWellAsSavedBeside() async throws {
        let nginx = try await Self.serve()
        defer { nginx.stop() }
        let run = try HaulRun()
        let haul = try run.start(["--headless", "--json", "--stream-remux", "mp4", "--stream-subs", "all", nginx.url("/tv/master.m3u8")])
        #expect(try await haul.waitForExit(timeout: .seconds(60)) == 0, "\(StreamRun.transcript(haul))")
        #expect(StreamRun.names(run) == ["master.eng.vtt", "master.mp4"], "\(StreamRun.names(run))")
        let path = run.downloads + "/master.mp4"
        #expect(try await MediaCheck.streamCount(path) == 3, "video, audio and the subtitles as mov_text")
        let language = try await FFmpegStreamFixture.run(FFmpegStreamFixture.ffprobe, [
            "-v", "error", "-select_streams", "s", "-show_entries", "stream=codec_name:stream_tags=language", "-of", "csv=p=0", path,
        ], timeout: .seconds(30))
        #expect(language.trimmingCharacters(in: .whitespacesAndNewlines) == "mov_text,eng", "\(language)")
        #expect(try await MediaCheck.decodeErrors(path) == "")
    }
}
