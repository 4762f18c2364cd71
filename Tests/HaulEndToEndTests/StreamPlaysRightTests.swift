import Foundation
import HaulTestSupport
import Testing

/// HLS output that plays right (issue 26 §1, DESIGN §11), on streams ffmpeg made (`FFmpegOddStreams`), judged by
/// ffprobe's duration and `ffmpeg -v error -f null -`: discontinuities, an init section that changes, an encrypted
/// init section, and the container the name given with `-o` asks for — with ffmpeg on PATH and without it.
@Suite(.serialized, .timeLimit(.minutes(3)), .enabled(if: FFmpegStreamFixture.isAvailable, "ffmpeg, ffprobe, openssl or nginx is not installed"))
struct StreamPlaysRightTests {
    /// Runs `haul --headless --json ARGS` in `run` (PATH without ffmpeg when `ffmpeg` is false) to its end.
    static func haul(_ run: HaulRun, _ arguments: [String], ffmpeg: Bool = true) async throws -> (Int32, HaulProcess) {
        let process: HaulProcess
        if ffmpeg {
            process = try run.start(["--headless", "--json"] + arguments)
        } else {
            let empty = try TemporaryDirectory()
            process = try HaulProcess(
                binary: "haul", arguments: ["--headless", "--json", "--state-dir", run.state, "-d", run.downloads] + arguments,
                environment: ["PATH": empty.path])
        }
        return (try await process.waitForExit(timeout: .seconds(60)), process)
    }

    @Test func discontinuitiesAreRemuxedSoTheDurationIsRight() async throws {
        let nginx = try await FFmpegOddStreams.serve()
        defer { nginx.stop() }
        let run = try HaulRun()
        let (status, haul) = try await Self.haul(run, [nginx.url("/odd/disc.m3u8")])
        #expect(status == 0, "\(StreamRun.transcript(haul))")
        #expect(StreamRun.names(run) == ["disc.ts"], "\(StreamRun.names(run))")
        let path = run.downloads + "/disc.ts"
        let duration = try #require(try await MediaCheck.duration(path))
        #expect(abs(duration - FFmpegOddStreams.discontinuousSeconds) <= 0.2, "ffprobe reads \(duration) s")
        #expect(try await MediaCheck.formatName(path) == "mpegts")
        #expect(try await MediaCheck.decodeErrors(path) == "")
    }

    /// 360p, then 720p after a discontinuity: the copy joins the timestamps up (within a quarter second: ffmpeg leaves a
    /// small gap where the second piece's audio would overlap the first's), and every frame decodes.
    @Test func aResolutionChangeAfterADiscontinuityKeepsTheWholeDuration() async throws {
        let nginx = try await FFmpegOddStreams.serve()
        defer { nginx.stop() }
        let run = try HaulRun()
        let (status, haul) = try await Self.haul(run, [nginx.url("/odd/updown.m3u8")])
        #expect(status == 0, "\(StreamRun.transcript(haul))")
        let path = run.downloads + "/updown.ts"
        let duration = try #require(try await MediaCheck.duration(path))
        #expect(abs(duration - FFmpegOddStreams.upDownSeconds) <= 0.25, "ffprobe reads \(duration) s")
        #expect(try await MediaCheck.decodeErrors(path) == "")
    }

    @Test func withoutFFmpegDiscontinuitiesAreNotedAsRestartingTimestamps() async throws {
        let nginx = try await FFmpegOddStreams.serve()
        defer { nginx.stop() }
        let run = try HaulRun()
        let (status, haul) = try await Self.haul(run, [nginx.url("/odd/disc.m3u8")], ffmpeg: false)
        #expect(status == 0, "\(StreamRun.transcript(haul))")
        #expect(StreamRun.names(run) == ["disc.ts"], "\(StreamRun.names(run))")
        let event = StreamRun.fields(try #require(StreamRun.streamEvent(haul), "\(StreamRun.transcript(haul))"))
        #expect((event["note"] as? String)?.contains("2 discontinuities") == true, "\(event)")
        let row = try #require(try await run.list().first)
        let note = StreamRun.stream(row)?["note"] as? String ?? ""
        #expect(note.contains("timestamps restart"), "the details say the timestamps restart: \(row)")
    }

    @Test func anInitSectionThatChangesIsRefusedNamingTheSegment() async throws {
        let nginx = try await FFmpegOddStreams.serve()
        defer { nginx.stop() }
        let run = try HaulRun()
        let (status, haul) = try await Self.haul(run, [nginx.url("/odd/mapchange.m3u8")])
        #expect(status == 1, "never a broken 'completed'. \(StreamRun.transcript(haul))")
        let error = StreamRun.failure(haul)
        #expect(error.contains("EXT-X-MAP") && error.contains("segment 2"), "'\(error)'")
        #expect(StreamRun.names(run).isEmpty, "nothing written: \(StreamRun.names(run))")
        #expect(!nginx.accessEntries().contains { $0.uri.hasSuffix(".m4s") }, "no segment fetched")
    }

    @Test func anEncryptedInitSectionIsDecrypted() async throws {
        let nginx = try await FFmpegOddStreams.serve()
        defer { nginx.stop() }
        let run = try HaulRun()
        let (status, haul) = try await Self.haul(run, [nginx.url("/odd/enc/encinit.m3u8")])
        #expect(status == 0, "\(StreamRun.transcript(haul))")
        expectSameBytes(run.file("encinit.mp4"), try FFmpegOddStreams.encInitExpected(), "the init section and segments in the clear")
        #expect(try await MediaCheck.decodeErrors(run.downloads + "/encinit.mp4") == "")
    }

    @Test func theNameGivenDecidesTheContainer() async throws {
        let nginx = try await FFmpegOddStreams.serve()
        defer { nginx.stop() }
        let run = try HaulRun()
        let (status, haul) = try await Self.haul(run, ["-o", "talk.mp4", nginx.url("/odd/piece.m3u8")])
        #expect(status == 0, "\(StreamRun.transcript(haul))")
        #expect(StreamRun.names(run) == ["talk.mp4"], "\(StreamRun.names(run))")
        let path = run.downloads + "/talk.mp4"
        #expect(try await MediaCheck.formatName(path).contains("mp4"), "an MP4 file, not MPEG-TS named .mp4")
        let duration = try #require(try await MediaCheck.duration(path))
        #expect(abs(duration - FFmpegOddStreams.pieceSeconds) <= 0.2, "ffprobe reads \(duration) s")
        #expect(try await MediaCheck.streamCount(path) == 2)
    }

    @Test func withoutFFmpegAnotherContainerIsRefusedAtOnceNamingTheRightExtension() async throws {
        let nginx = try await FFmpegOddStreams.serve()
        defer { nginx.stop() }
        let run = try HaulRun()
        let (status, haul) = try await Self.haul(run, ["-o", "talk.mp4", nginx.url("/odd/piece.m3u8")], ffmpeg: false)
        #expect(status == 1, "\(StreamRun.transcript(haul))")
        let error = StreamRun.failure(haul)
        #expect(error.contains("talk.ts") && error.contains("ffmpeg"), "'\(error)'")
        #expect(StreamRun.names(run).isEmpty, "\(StreamRun.names(run))")
        #expect(!nginx.accessEntries().contains { $0.uri.hasSuffix(".ts") }, "no segment fetched")
    }

    @Test func aPlainM3UMusicPlaylistIsNoHLSMediaPlaylistAndStreamOffKeepsIt() async throws {
        let nginx = try await FFmpegOddStreams.serve()
        defer { nginx.stop() }
        let run = try HaulRun()
        let (status, haul) = try await Self.haul(run, [nginx.url("/odd/music.m3u")])
        #expect(status == 1, "\(StreamRun.transcript(haul))")
        let error = StreamRun.failure(haul)
        #expect(error.contains("not an HLS media playlist") && error.contains("--stream off"), "'\(error)'")
        #expect(!error.contains("live"), "'\(error)'")
        let kept = try HaulRun()
        let (again, off) = try await Self.haul(kept, ["--stream", "off", nginx.url("/odd/music.m3u")])
        #expect(again == 0, "\(StreamRun.transcript(off))")
        #expect(StreamRun.names(kept) == ["music.m3u"], "\(StreamRun.names(kept))")
    }

    @Test func aSeparateAudioRenditionIsMuxedIntoTheContainerTheNameGives() async throws {
        let nginx = try await StreamAudioTests.serve()
        defer { nginx.stop() }
        let run = try HaulRun()
        let (status, haul) = try await Self.haul(run, ["-o", "talk.mkv", nginx.url("/av/master.m3u8")])
        #expect(status == 0, "\(StreamRun.transcript(haul))")
        #expect(StreamRun.names(run) == ["talk.mkv"], "\(StreamRun.names(run))")
        let path = run.downloads + "/talk.mkv"
        #expect(try await MediaCheck.formatName(path).hasPrefix("matroska"), "a Matroska file")
        #expect(try await MediaCheck.streamCount(path) == 2, "the video and the muxed audio")
        #expect(try await MediaCheck.decodeErrors(path) == "")
    }
}
