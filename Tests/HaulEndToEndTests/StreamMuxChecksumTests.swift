import Foundation
import HaulTestSupport
import Testing

/// A stream that ffmpeg makes one file of before it is published (its audio muxed in, or remuxed into MP4) is checked
/// against `--checksum` as that file, before it is published: a wrong one never appears under its final name (the
/// download directory is watched with inotify from before the start), and nothing of it is kept.
@Suite(.serialized, .timeLimit(.minutes(3)), .enabled(if: FFmpegStreamFixture.isAvailable, "ffmpeg, ffprobe, openssl or nginx is not installed"))
struct StreamMuxChecksumTests {
    static let wrong = "sha-256=" + String(repeating: "0", count: 64)

    /// Runs `haul --headless ARGS` in a fresh run whose download directory is watched; the run and what appeared there.
    static func watched(_ arguments: [String]) async throws -> (run: HaulRun, appeared: [String], haul: HaulProcess) {
        let run = try HaulRun()
        try FileManager.default.createDirectory(atPath: run.downloads, withIntermediateDirectories: true)
        let watch = try DirectoryWatch(run.downloads)
        let haul = try run.start(["--headless", "--json"] + arguments)
        #expect(try await haul.waitForExit(timeout: .seconds(90)) == 1, "a failed task exits 1. \(StreamRun.transcript(haul))")
        #expect(StreamRun.failure(haul).contains("checksum"), "\(StreamRun.transcript(haul))")
        return (run, watch.appearedNames(), haul)
    }

    @Test func aMuxedStreamWithAWrongChecksumIsNeverPublished() async throws {
        let nginx = try await StreamAudioTests.serve()
        defer { nginx.stop() }
        let (run, appeared, _) = try await Self.watched(["--checksum", Self.wrong, nginx.url("/av/master.m3u8")])
        #expect(!appeared.contains("master.ts") && !appeared.contains("master.audio.ts"), "\(appeared)")
        #expect(appeared.contains { $0.hasSuffix(".mux.part") }, "ffmpeg muxed the stream before it was checked: \(appeared)")
        #expect(StreamRun.names(run).isEmpty, "\(StreamRun.names(run))")
    }

    @Test func aRemuxedStreamWithAWrongChecksumIsNeverPublished() async throws {
        let (nginx, _) = try await FFmpegStreamFixture.nginx()
        defer { nginx.stop() }
        let (run, appeared, _) = try await Self.watched(
            ["--stream-quality", "worst", "--stream-remux", "mp4", "--checksum", Self.wrong, nginx.url("/hls/master.m3u8")])
        #expect(!appeared.contains("master.mp4") && !appeared.contains("master.ts"), "\(appeared)")
        #expect(appeared.contains("master.mp4.mux.part"), "ffmpeg remuxed the stream before it was checked: \(appeared)")
        #expect(StreamRun.names(run).isEmpty, "\(StreamRun.names(run))")
    }
}
