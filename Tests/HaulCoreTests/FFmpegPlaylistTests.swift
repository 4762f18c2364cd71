import Foundation
import HaulCore
import Testing

/// Playlists exactly as Debian's ffmpeg 5.1 writes them (Fixtures/hls, made with `-f hls -hls_time 2` from 20 s of
/// testsrc/sine: plain TS, AES-128 with a key-info file, fMP4, `-hls_flags single_file`, and a two-variant master).
struct FFmpegPlaylistTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/hls").path

    static func parse(_ name: String, url: String) throws -> Playlist {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixtures + "/" + name)))
        return try PlaylistParser.parse(bytes, url: url)
    }

    static func media(_ name: String) throws -> MediaPlaylist {
        guard case let .media(media) = try parse(name, url: "http://127.0.0.1:8080/v/index.m3u8") else {
            throw PlaylistError(line: nil, .empty)
        }
        return media
    }

    @Test func plainSegmentsAreTenOfTwoSeconds() throws {
        let media = try Self.media("plain.m3u8")
        #expect(media.segments.count == 10 && media.duration == 20 && media.targetDuration == 2)
        #expect(media.segments.first?.uri == "http://127.0.0.1:8080/v/seg_000.ts")
        #expect(media.segments.last?.uri == "http://127.0.0.1:8080/v/seg_009.ts")
        #expect(!media.isEncrypted && !media.isFragmentedMP4)
        #expect(PlaylistParser.isPlaylist(prefix: try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "/plain.m3u8"))), contentType: nil))
    }

    @Test func theKeyInfoFilesIVGoesWithEverySegment() throws {
        let media = try Self.media("aes.m3u8")
        let iv: [UInt8] = Array((0...15).reversed())
        #expect(media.segments.allSatisfy { $0.key == SegmentKey(uri: "http://127.0.0.1:8080/v/enc.key", iv: iv) })
    }

    @Test func fragmentedMP4SegmentsNeedTheInitSection() throws {
        let media = try Self.media("fmp4.m3u8")
        #expect(media.isFragmentedMP4 && media.segments.count == 10)
        #expect(media.segments.allSatisfy { $0.initSection == InitSection(uri: "http://127.0.0.1:8080/v/init.mp4") })
        #expect(media.segments.first?.uri.hasSuffix("/seg_000.m4s") == true)
    }

    @Test func aSingleFileIsCutIntoContiguousRangesToItsEnd() throws {
        let media = try Self.media("single-file.m3u8")
        let ranges = media.segments.compactMap(\.byteRange)
        #expect(ranges.count == 10 && ranges.first?.lowerBound == 0)
        #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound }, "contiguous")
        #expect(ranges.last?.upperBound == 607_052, "the last range ends at the end of stream.ts")
        #expect(Set(media.segments.map(\.uri)) == ["http://127.0.0.1:8080/v/stream.ts"])
    }

    @Test func theMasterPlaylistOffersBothVariants() throws {
        guard case let .master(master) = try Self.parse("master.m3u8", url: "http://127.0.0.1:8080/v/master.m3u8") else {
            Issue.record("not a master playlist")
            return
        }
        #expect(master.variants.map(\.uri) == ["http://127.0.0.1:8080/v/180p/index.m3u8", "http://127.0.0.1:8080/v/360p/index.m3u8"])
        #expect(VariantChoice.best.pick(from: master.variants)?.resolution == Resolution(width: 640, height: 360))
        #expect(VariantChoice.height(200).pick(from: master.variants)?.bandwidth == 400_400)
        #expect(master.variants.allSatisfy { master.audio(for: $0) == nil }, "ffmpeg muxes the audio into each variant")
    }
}
