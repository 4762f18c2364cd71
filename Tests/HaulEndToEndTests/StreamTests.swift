import Foundation
import HaulTestSupport
import Testing

/// The ffmpeg-made stream (`FFmpegStreamFixture`: 60 s, three variants, AES-128 with either IV, fMP4) downloaded
/// from nginx as a person would: one link, a quality, a finished file that ffprobe and ffmpeg accept, and whose
/// bytes are the plain segments end to end (DESIGN §9).
@Suite(.timeLimit(.minutes(3)), .enabled(if: FFmpegStreamFixture.isAvailable, "ffmpeg, ffprobe, openssl or nginx is not installed"))
struct StreamTests {
    /// A `--stream-quality` value and the height of the variant it must pick.
    struct Choice: Sendable, CustomTestStringConvertible {
        var quality: String?
        var height: Int
        var testDescription: String { "--stream-quality \(quality ?? "(default)") → \(height)p" }
    }

    /// best (the default) is the fMP4 360p, worst the 180p with the IV in the tag, 270 the one with the
    /// sequence-number IV; 310200 is the 270p's BANDWIDTH.
    static let choices = [
        Choice(quality: nil, height: 360), Choice(quality: "best", height: 360), Choice(quality: "worst", height: 180),
        Choice(quality: "270", height: 270), Choice(quality: "310200", height: 270),
    ]

    @Test(arguments: choices)
    func theChosenVariantDownloadsToAFileFFprobeAccepts(_ choice: Choice) async throws {
        let (nginx, stream) = try await FFmpegStreamFixture.nginx()
        defer { nginx.stop() }
        let master = nginx.url("/hls/master.m3u8")
        let variant = stream.variant(height: choice.height)
        let run = try HaulRun()
        let quality = choice.quality.map { ["--stream-quality", $0] } ?? []
        let haul = try run.start(["--headless", "--json"] + quality + [master])
        let status = try await haul.waitForExit(timeout: .seconds(90))
        #expect(status == 0, "\(choice.testDescription): the download should succeed. \(StreamRun.transcript(haul))")

        let name = "master.\(variant.container)"
        #expect(StreamRun.names(run) == [name], "\(choice.testDescription): only \(name) in the download directory")
        expectSameBytes(run.file(name), try variant.expectedOutput(), "\(name): the decrypted segments end to end")
        let path = run.downloads + "/" + name
        let duration = try await MediaCheck.duration(path)
        #expect(duration.map { abs($0 - FFmpegStream.sourceDuration) <= 0.1 } == true,
                "\(name): ffprobe reads \(String(describing: duration)) s, the source is 60 s")
        #expect(try await MediaCheck.streamCount(path) == 2, "\(name): one video and one audio stream")
        #expect(try await MediaCheck.decodeErrors(path) == "", "\(name): ffmpeg decodes every frame without an error")

        // Only the chosen variant's segments were fetched.
        let fetched = Set(nginx.accessEntries().map(\.uri).filter { $0.hasSuffix(".ts") || $0.hasSuffix(".m4s") }
            .map { $0.split(separator: "/").dropLast().last.map(String.init) ?? "" })
        #expect(fetched == [variant.directory], "segments fetched from \(fetched.sorted())")

        let whole = try #require(StreamRun.streamEvent(haul), "a stream event once the playlist is resolved. \(StreamRun.transcript(haul))")
        #expect(whole["fileName"] as? String == name, "\(whole)")
        let event = StreamRun.fields(whole)
        #expect(event["segments"] as? Int == 30, "\(event)")
        #expect(event["container"] as? String == variant.container, "\(event)")
        #expect((event["variant"] as? String)?.hasPrefix("\(variant.width)x\(variant.height), ") == true, "\(event)")
        let encrypted = variant.encryption != .none
        #expect((event["encryption"] as? String) == (encrypted ? "AES-128" : nil), "\(event)")
        #expect(StreamRun.number(event["durationSeconds"]).map { abs($0 - 60) < 0.01 } == true, "\(event)")
    }

    @Test func aMediaPlaylistLinkIsNamedAfterItAndAnyQualityIsMoot() async throws {
        let (nginx, stream) = try await FFmpegStreamFixture.nginx()
        defer { nginx.stop() }
        let variant = stream.variant(height: 270)
        let run = try HaulRun()
        let haul = try run.start(["--headless", "--json", "--stream-quality", "worst", stream.mediaURL(variant, on: nginx)])
        #expect(try await haul.waitForExit(timeout: .seconds(90)) == 0, "\(StreamRun.transcript(haul))")
        #expect(StreamRun.names(run) == ["index.ts"], "index.m3u8 downloads to index.ts")
        expectSameBytes(run.file("index.ts"), try variant.expectedOutput(), "index.ts (implicit IVs from sequence 5)")
        let row = try #require(try await run.list().first)
        #expect(row["state"] as? String == "completed", "\(row)")
        #expect(row["total"] as? Int == row["bytes"] as? Int && row["bytes"] as? Int == StreamRun.size(run, "index.ts"),
                "once done, the total is exact: \(row)")
        let object = try #require(StreamRun.stream(row), "the list row has a stream object: \(row)")
        #expect(object["segmentsDone"] as? Int == 30 && object["segments"] as? Int == 30, "\(object)")
        #expect(object["estimated"] as? Bool == false, "\(object)")
        #expect(object["variant"] is NSNull || object["variant"] == nil, "a media playlist has no variant: \(object)")
    }

    @Test func dashONamesTheFile() async throws {
        let (nginx, stream) = try await FFmpegStreamFixture.nginx()
        defer { nginx.stop() }
        let run = try HaulRun()
        let haul = try run.start(["--headless", "-o", "film.ts", "--stream-quality", "worst", nginx.url("/hls/master.m3u8")])
        #expect(try await haul.waitForExit(timeout: .seconds(90)) == 0, "\(StreamRun.transcript(haul))")
        // NAME comes from -o, as given; film.ts.part while it runs.
        #expect(StreamRun.names(run) == ["film.ts"], "-o film.ts gives film.ts, not a playlist-named file")
        expectSameBytes(run.file("film.ts"), try stream.worst.expectedOutput(), "film.ts")
    }

    @Test func streamOffSavesThePlaylistItself() async throws {
        let (nginx, stream) = try await FFmpegStreamFixture.nginx()
        defer { nginx.stop() }
        let run = try HaulRun()
        let haul = try run.start(["--headless", "--stream", "off", nginx.url("/hls/master.m3u8")])
        #expect(try await haul.waitForExit(timeout: .seconds(30)) == 0, "\(StreamRun.transcript(haul))")
        #expect(StreamRun.names(run) == ["master.m3u8"], "--stream off keeps the playlist as a file")
        let served = try [UInt8](Data(contentsOf: URL(fileURLWithPath: stream.web + "/master.m3u8")))
        expectSameBytes(run.file("master.m3u8"), served, "master.m3u8")
        #expect(!nginx.accessEntries().contains { $0.uri.hasSuffix(".ts") || $0.uri.hasSuffix(".m3u8") && $0.uri != "/hls/master.m3u8" },
                "no variant playlist or segment was fetched")
    }

    @Test func remuxMP4PassesTheFinishedTSThroughFFmpeg() async throws {
        let (nginx, _) = try await FFmpegStreamFixture.nginx()
        defer { nginx.stop() }
        let run = try HaulRun()
        let haul = try run.start(["--headless", "--stream-quality", "worst", "--stream-remux", "mp4", nginx.url("/hls/master.m3u8")])
        #expect(try await haul.waitForExit(timeout: .seconds(90)) == 0, "\(StreamRun.transcript(haul))")
        #expect(StreamRun.names(run) == ["master.mp4"], "the remuxed file replaces the .ts")
        let path = run.downloads + "/master.mp4"
        let head = try #require(run.file("master.mp4")?.prefix(12))
        #expect(Array(head.dropFirst(4).prefix(4)) == Array("ftyp".utf8), "an MP4 container, not TS")
        let duration = try await MediaCheck.duration(path)
        #expect(duration.map { abs($0 - FFmpegStream.sourceDuration) <= 0.1 } == true, "\(String(describing: duration))")
        #expect(try await MediaCheck.streamCount(path) == 2)
        #expect(try await MediaCheck.decodeErrors(path) == "")
    }

    @Test func inputFileLineOptionsChooseTheVariantOrKeepThePlaylist() async throws {
        let (nginx, stream) = try await FFmpegStreamFixture.nginx()
        defer { nginx.stop() }
        let run = try HaulRun()
        let list = run.root.file("streams.txt")
        let master = nginx.url("/hls/master.m3u8")
        try "\(master)\n  stream-quality=270\n  out=middle.ts\n\(master)\n  stream=off\n  out=list.m3u8\n"
            .write(toFile: list, atomically: true, encoding: .utf8)
        let haul = try run.start(["--headless", "-i", list])
        #expect(try await haul.waitForExit(timeout: .seconds(90)) == 0, "\(StreamRun.transcript(haul))")
        #expect(StreamRun.names(run) == ["list.m3u8", "middle.ts"])
        expectSameBytes(run.file("middle.ts"), try stream.variant(height: 270).expectedOutput(), "middle.ts")
        expectSameBytes(run.file("list.m3u8"), try [UInt8](Data(contentsOf: URL(fileURLWithPath: stream.web + "/master.m3u8"))))
    }
}
