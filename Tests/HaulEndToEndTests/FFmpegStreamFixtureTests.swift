import Foundation
import HaulTestSupport
import Testing

/// The ffmpeg-made stream itself, before haul is asked for it: nginx serves it, the reference clients (ffmpeg,
/// openssl) read it, and its plain files are what a decrypting client must write.
@Suite(.timeLimit(.minutes(3)), .enabled(if: FFmpegStreamFixture.isAvailable, "ffmpeg, ffprobe, openssl or nginx is not installed"))
struct FFmpegStreamFixtureTests {
    @Test func theStreamHasThreeVariantsOfSixtySecondsThatDecodeCleanly() async throws {
        let stream = try await FFmpegStreamFixture.stream()
        #expect(stream.variants.map(\.height) == [180, 270, 360])
        #expect(stream.best.height == 360 && stream.worst.height == 180)
        let directory = try TemporaryDirectory(prefix: "haul-ffmpeg-check")
        for variant in stream.variants {
            #expect(variant.segments == 30, "\(variant.directory): \(variant.segments) segments")
            let file = directory.file("\(variant.directory).\(variant.container)")
            try Data(try variant.expectedOutput()).write(to: URL(fileURLWithPath: file))
            let duration = try #require(try await MediaCheck.duration(file))
            #expect(abs(duration - FFmpegStream.sourceDuration) <= 0.1, "\(variant.directory): \(duration) s")
            #expect(try await MediaCheck.streamCount(file) == 2, "\(variant.directory): video and audio")
            #expect(try await MediaCheck.decodeErrors(file) == "", "\(variant.directory)")
        }
    }

    @Test func nginxServesTheMasterAndFFmpegReadsEveryVariantThroughIt() async throws {
        let (nginx, stream) = try await FFmpegStreamFixture.nginx()
        defer { nginx.stop() }
        let directory = try TemporaryDirectory(prefix: "haul-ffmpeg-read")
        for variant in stream.variants {
            // ffmpeg as the reference client: it decrypts (explicit and implicit IV) and remuxes without a complaint.
            let out = directory.file("\(variant.directory).\(variant.container)")
            try await FFmpegStreamFixture.run(
                FFmpegStreamFixture.ffmpeg,
                ["-nostdin", "-v", "error", "-i", stream.mediaURL(variant, on: nginx), "-c", "copy", "-y", out], timeout: .seconds(60))
            let duration = try #require(try await MediaCheck.duration(out))
            #expect(abs(duration - FFmpegStream.sourceDuration) <= 0.1, "\(variant.directory): \(duration) s")
        }
        // ffmpeg asks with `Range: bytes=0-`, so nginx answers 206.
        let playlist = nginx.accessEntries().first { $0.uri == "/hls/v180/index.m3u8" }
        #expect([200, 206].contains(playlist?.status ?? 0), "\(String(describing: playlist))")
        // An encrypted segment decrypts to its plain twin with the IV the playlist implies.
        let v270 = stream.variant(height: 270)
        let served = try [UInt8](Data(contentsOf: URL(fileURLWithPath: stream.web + "/v270/seg_003.ts")))
        let plain = try [UInt8](Data(contentsOf: URL(fileURLWithPath: v270.plainFiles[3])))
        #expect(served.count == (plain.count / 16 + 1) * 16)
        try await FFmpegStreamFixture.run(FFmpegStreamFixture.openssl, [
            "aes-128-cbc", "-d", "-K", FFmpegStream.key.map { String(format: "%02x", $0) }.joined(),
            "-iv", FFmpegStreamFixture.hex(sequence: FFmpegStream.implicitIVFirstSequence + 3),
            "-in", stream.web + "/v270/seg_003.ts", "-out", directory.file("seg3"),
        ], timeout: .seconds(30))
        let clear = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory.file("seg3"))))
        #expect(clear == plain, "segment 3 of 270p does not decrypt with IV = its media sequence number")
    }
}
