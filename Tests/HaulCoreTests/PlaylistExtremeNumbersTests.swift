import HaulCore
import Testing

/// The numbers of a hostile playlist (BANDWIDTH, RESOLUTION, BYTERANGE, EXTINF, MEDIA-SEQUENCE) at their extremes:
/// each gives a sane value or an error naming the line and the value — never a trap.
struct PlaylistExtremeNumbersTests {
    static let base = "https://cdn.example.org/v/index.m3u8"
    static let byteRangeLimit = "it must end by byte \(StatedSize.limit), the largest file haul accepts"
    /// 0, negative, 2^63−1, 2^63, 2^64, NaN, infinities and the smallest and largest doubles.
    static let extremes = [
        "0", "-1", "9223372036854775807", "9223372036854775808", "18446744073709551616", "nan", "NaN", "inf", "-inf",
        "1e-300", "1e300",
    ]

    static func parse(_ text: String) throws(PlaylistError) -> Playlist {
        try PlaylistParser.parse(Array(text.utf8), url: base)
    }

    static func master(_ attributes: String) -> String {
        "#EXTM3U\n#EXT-X-STREAM-INF:\(attributes)\na.m3u8\n#EXT-X-STREAM-INF:\(attributes)\nb.m3u8\n"
    }

    static func media(_ tags: String, duration: String = "2") -> String {
        "#EXTM3U\n\(tags)#EXTINF:\(duration),\na.ts\n#EXT-X-ENDLIST\n"
    }

    @Test(arguments: extremes)
    func bandwidth(value: String) throws {
        let text = Self.master("BANDWIDTH=\(value)")
        guard let bits = Int64(value), bits >= 0 else {
            #expect(throws: PlaylistError(line: 2, .malformedTag("#EXT-X-STREAM-INF"))) { try Self.parse(text) }
            return
        }
        guard case let .master(master) = try Self.parse(text) else { Issue.record("not a master"); return }
        #expect(master.variants.map(\.bandwidth) == [bits, bits])
        #expect(VariantChoice.best.pick(from: master.variants) != nil)
        // Ten minutes at that rate: 2^63−1 bit/s is past any file size, so no estimate rather than a trap.
        let info = StreamInfo(tracks: [StreamTrackInfo(
            fingerprint: StreamFingerprint(mediaSequence: 0, segmentCount: 300, durations: 1), segmentCount: 300, durationSeconds: 600)])
        #expect(info.estimatedTotal(bandwidth: bits) == (bits == 0 ? nil : bits == .max ? nil : Int64((Double(bits) / 8 * 600).rounded())))
    }

    @Test(arguments: [
        ("4294967296x4294967296", "4294967296x4294967296"), ("65536x1", "65536x1"), ("1x65536", "1x65536"),
        ("9223372036854775807x9223372036854775807", "9223372036854775807x9223372036854775807"),
    ])
    func anAbsurdResolutionIsRefusedNamingTheLine(value: String, shown: String) {
        let text = Self.master("BANDWIDTH=800000,RESOLUTION=\(value)")
        #expect(throws: PlaylistError(line: 2, .outOfRange("RESOLUTION", shown, limit: "at most 65535 pixels a side"))) {
            try Self.parse(text)
        }
    }

    @Test(arguments: ["0x0", "-1x-1", "9223372036854775808x1", "18446744073709551616x1", "nanxnan", "infxinf", "1e300x1", "65535x65535"])
    func otherResolutionsAreReadOrLeftOut(value: String) throws {
        guard case let .master(master) = try Self.parse(Self.master("BANDWIDTH=800000,RESOLUTION=\(value)")) else {
            Issue.record("not a master")
            return
        }
        #expect(master.variants.map(\.resolution) == Array(repeating: value == "65535x65535" ? Resolution(width: 65535, height: 65535) : nil, count: 2))
    }

    @Test func resolutionsCompareByAreaWhateverTheirSides() {
        let huge = Resolution(width: 4_294_967_296, height: 4_294_967_296)
        #expect(Resolution(width: 1920, height: 1080) < huge)
        #expect(!(huge < huge))
        #expect(Resolution(width: .max, height: 2) > Resolution(width: .max, height: 1))
        #expect(Resolution(width: .max, height: .max) > huge)
        #expect(Resolution(width: 1280, height: 720) < Resolution(width: 1920, height: 1080))
    }

    @Test(arguments: [
        ("9223372036854775807@1", true), ("1@9223372036854775807", true), ("4611686018427387905@0", true),
        ("1@4611686018427387904", true), ("4611686018427387904@0", false), ("720@0", false),
    ])
    func anInitSectionRangePastTheLargestFileIsRefusedNamingTheLine(value: String, refused: Bool) throws {
        let text = Self.media("#EXT-X-MAP:URI=\"i.mp4\",BYTERANGE=\"\(value)\"\n")
        guard refused else {
            guard case let .media(media) = try Self.parse(text) else { Issue.record("not media"); return }
            #expect(media.segments[0].initSection?.byteRange?.upperBound ?? .max <= StatedSize.limit)
            return
        }
        #expect(throws: PlaylistError(line: 2, .outOfRange("BYTERANGE", value, limit: Self.byteRangeLimit))) { try Self.parse(text) }
    }

    @Test(arguments: extremes)
    func segmentByteRanges(value: String) throws {
        for range in ["\(value)@0", "1@\(value)", "\(value)@\(value)"] {
            let text = "#EXTM3U\n#EXTINF:2,\n#EXT-X-BYTERANGE:\(range)\na.ts\n#EXT-X-ENDLIST\n"
            let playlist: Playlist
            do throws(PlaylistError) {
                playlist = try Self.parse(text)
            } catch {
                // The tag's own line, whether it cannot be read or ends past the largest file.
                #expect(error.line == 3, "\(range): \(error)")
                continue
            }
            guard case let .media(media) = playlist else { Issue.record("not media"); continue }
            let bytes = try #require(media.segments[0].byteRange)
            #expect(!bytes.isEmpty && bytes.upperBound <= StatedSize.limit, "\(range)")
        }
    }

    @Test(arguments: extremes)
    func segmentDurations(value: String) throws {
        let text = Self.media("", duration: value)
        guard let seconds = Double(value), seconds.isFinite, seconds >= 0, seconds < PlaylistParser.maxSegmentSeconds else {
            #expect(throws: PlaylistError(line: 2, .invalidDuration(value))) { try Self.parse(text) }
            return
        }
        guard case let .media(media) = try Self.parse(text) else { Issue.record("not media"); return }
        #expect(media.segments[0].duration == seconds)
        // A tiny first segment followed by long ones: the estimate from it is past any file, so there is none.
        var track = StreamTrackInfo(media)
        track.segmentCount = 2
        track.durationSeconds = seconds + 900_000
        track.segmentsDone = 1
        track.doneSeconds = seconds
        track.appendedBytes = 50 << 20
        let expected = seconds == 0 ? nil : Int64(exactly: ((Double(50 << 20) / seconds) * (seconds + 900_000)).rounded())
        #expect(track.estimatedTotal == expected.flatMap { $0 <= StatedSize.limit ? $0 : nil })
        #expect(StreamInfo(tracks: [track]).estimatedTotal() == track.estimatedTotal)
    }

    @Test(arguments: extremes + ["9223372036854675807", "9223372036854675808"])
    func mediaSequences(value: String) throws {
        let text = Self.media("#EXT-X-MEDIA-SEQUENCE:\(value)\n")
        let largest = Int64.max - Int64(PlaylistParser.maxSegments)
        guard let sequence = Int64(value), sequence >= 0 else {
            #expect(throws: PlaylistError(line: 2, .malformedTag("#EXT-X-MEDIA-SEQUENCE"))) { try Self.parse(text) }
            return
        }
        guard sequence <= largest else {
            #expect(throws: PlaylistError(line: 2, .outOfRange("#EXT-X-MEDIA-SEQUENCE", value, limit: "at most \(largest)"))) {
                try Self.parse(text)
            }
            return
        }
        guard case let .media(media) = try Self.parse(text) else { Issue.record("not media"); return }
        #expect(media.segments.map(\.sequence) == [sequence])
    }

    /// A media playlist made in code has no parser to bound its durations: its fingerprint still never traps.
    @Test(arguments: [Double.nan, .infinity, -.infinity, -1, 1e300, 1e-300, 0x1p63])
    func aFingerprintOfAnyDurationNeverTraps(seconds: Double) {
        let media = MediaPlaylist(targetDuration: 2, segments: [MediaSegment(sequence: 0, duration: seconds, uri: "https://h/a.ts")])
        #expect(StreamFingerprint(media) == StreamFingerprint(media))
        #expect(StreamFingerprint(media).mismatch(StreamFingerprint(media)) == nil)
    }

    @Test func theErrorsSayTheValueAndTheBound() {
        #expect(PlaylistError(line: 4, .outOfRange("RESOLUTION", "4294967296x4294967296", limit: "at most 65535 pixels a side")).description
            == "playlist line 4: RESOLUTION '4294967296x4294967296' is out of range (at most 65535 pixels a side)")
        #expect(PlaylistError(line: nil, .tooLarge(limit: PlaylistParser.maxBytes)).description == "playlist: larger than 16.0 MiB")
        #expect(PlaylistError(line: 2, .invalidDuration("1e300")).description
            == "playlist line 2: segment duration '1e300' is not a number of seconds from 0 to under 1000000")
    }
}
