import Foundation
import HaulTestSupport
import Testing

/// A variant whose audio is a separate rendition (`EXT-X-MEDIA:TYPE=AUDIO`), as ffmpeg writes it with
/// `-var_stream_map "v:0,agroup:aud a:0,agroup:aud"`: both media playlists are fetched; with ffmpeg on PATH the
/// finished file has the video and the audio, else the audio is saved beside the video and the task says so
/// (DESIGN §9).
@Suite(.serialized, .timeLimit(.minutes(2)), .enabled(if: FFmpegStreamFixture.isAvailable, "ffmpeg, ffprobe, openssl or nginx is not installed"))
struct StreamAudioTests {
    static let seconds = 12.0

    /// 12 s of testsrc and sine in 2 s segments: `out_0.m3u8` (video), `out_1.m3u8` (audio) under `master.m3u8`;
    /// made once per test process (kept for its life, removed at its exit), ffmpeg bounded.
    static let made = Task<String, any Error> {
        let path = FFmpegStreamFixture.directory + "-av"
        atexit { try? FileManager.default.removeItem(atPath: FFmpegStreamFixture.directory + "-av") }
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try await FFmpegStreamFixture.run(FFmpegStreamFixture.ffmpeg, [
            "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=25", "-f", "lavfi", "-i", "sine=frequency=440",
            "-t", "\(Int(seconds))", "-map", "0:v", "-map", "1:a", "-c:v", "libx264", "-preset", "ultrafast", "-g", "25",
            "-c:a", "aac", "-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod", "-master_pl_name", "master.m3u8",
            "-var_stream_map", "v:0,agroup:aud a:0,agroup:aud,default:yes", "-hls_segment_filename", path + "/s%v_%03d.ts",
            path + "/out_%v.m3u8",
        ], timeout: .seconds(120))
        return path
    }

    static func serve() async throws -> NginxFixture {
        let source = try await made.value
        let nginx = try await NginxFixture.start(locations: """
            location /av/ {
                types { application/vnd.apple.mpegurl m3u8; video/mp2t ts; }
            }
            """)
        try FileManager.default.copyItem(atPath: source, toPath: nginx.root + "/av")
        return nginx
    }

    @Test func withFFmpegTheAudioIsMuxedIntoTheVideo() async throws {
        let nginx = try await Self.serve()
        defer { nginx.stop() }
        let run = try HaulRun()
        let haul = try run.start(["--headless", "--json", nginx.url("/av/master.m3u8")])
        #expect(try await haul.waitForExit(timeout: .seconds(60)) == 0, "\(StreamRun.transcript(haul))")
        #expect(StreamRun.names(run) == ["master.ts"], "one file: \(StreamRun.names(run))")
        let path = run.downloads + "/master.ts"
        #expect(try await MediaCheck.streamCount(path) == 2, "the video and the muxed audio")
        let duration = try await MediaCheck.duration(path)
        #expect(duration.map { abs($0 - Self.seconds) <= 0.1 } == true, "ffprobe reads \(String(describing: duration)) s")
        #expect(try await MediaCheck.decodeErrors(path) == "")
        let event = StreamRun.fields(try #require(StreamRun.streamEvent(haul), "\(StreamRun.transcript(haul))"))
        #expect((event["note"] as? String)?.contains("muxed into it with ffmpeg") == true, "\(event)")
        // Both media playlists' segments were fetched, each once.
        let segments = nginx.accessEntries().map(\.uri).filter { $0.hasSuffix(".ts") }
        #expect(segments.count == Set(segments).count && segments.contains { $0.contains("/s1_") } && segments.contains { $0.contains("/s0_") },
                "\(segments)")
    }

    @Test func withoutFFmpegTheAudioIsSavedBesideTheVideo() async throws {
        let nginx = try await Self.serve()
        defer { nginx.stop() }
        let run = try HaulRun()
        let empty = try TemporaryDirectory()
        let haul = try HaulProcess(
            binary: "haul", arguments: ["--headless", "--json", "--state-dir", run.state, "-d", run.downloads, nginx.url("/av/master.m3u8")],
            environment: ["PATH": empty.path])
        #expect(try await haul.waitForExit(timeout: .seconds(60)) == 0, "\(StreamRun.transcript(haul))")
        #expect(StreamRun.names(run) == ["master.audio.ts", "master.ts"], "\(StreamRun.names(run))")
        #expect(try await MediaCheck.streamCount(run.downloads + "/master.ts") == 1, "the video alone")
        #expect(try await MediaCheck.streamCount(run.downloads + "/master.audio.ts") == 1, "the audio alone")
        let row = try #require(try await run.list().first)
        let note = StreamRun.stream(row)?["note"] as? String
        #expect(note?.contains("saved beside the video as master.audio.ts") == true, "\(row)")
    }
}
