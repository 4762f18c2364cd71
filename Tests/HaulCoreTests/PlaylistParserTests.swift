import HaulCore
import Testing

/// HLS playlists as ffmpeg writes them, and the bad ones a hostile server can send (DESIGN §9).
struct PlaylistParserTests {
    static let base = "https://cdn.example.org/v/index.m3u8?sig=abc"

    static func parse(_ text: String, url: String = base) throws(PlaylistError) -> Playlist {
        try PlaylistParser.parse(Array(text.utf8), url: url)
    }

    static func media(_ text: String) throws -> MediaPlaylist {
        guard case let .media(media) = try parse(text) else { throw PlaylistError(line: nil, .empty) }
        return media
    }

    @Test func ffmpegsMediaPlaylistResolvesEverySegment() throws {
        let media = try Self.media("""
            #EXTM3U
            #EXT-X-VERSION:3
            #EXT-X-TARGETDURATION:2
            #EXT-X-MEDIA-SEQUENCE:7
            #EXT-X-PLAYLIST-TYPE:VOD
            #EXTINF:2.000000,
            seg_000.ts
            #EXTINF:1.5,title
            /abs/seg_001.ts
            #EXT-X-DISCONTINUITY
            #EXTINF:2,
            https://other.example.org/seg_002.ts
            #EXT-X-ENDLIST
            """)
        #expect(media.targetDuration == 2 && media.mediaSequence == 7)
        #expect(media.segments.map(\.uri) == [
            "https://cdn.example.org/v/seg_000.ts", "https://cdn.example.org/abs/seg_001.ts", "https://other.example.org/seg_002.ts",
        ])
        #expect(media.segments.map(\.sequence) == [7, 8, 9])
        #expect(media.segments.map(\.discontinuity) == [false, false, true])
        #expect(media.duration == 5.5 && !media.isEncrypted && !media.isFragmentedMP4)
        #expect(media.segments.map(\.line) == [7, 9, 12])
    }

    @Test func aesKeysGiveTheTagsIVOrTheSequenceNumber() throws {
        let media = try Self.media("""
            #EXTM3U
            #EXT-X-MEDIA-SEQUENCE:1
            #EXT-X-KEY:METHOD=AES-128,URI="enc.key",IV=0x0f0e0d0c0b0a09080706050403020100
            #EXTINF:2,
            a.ts
            #EXT-X-KEY:METHOD=AES-128,URI="https://keys.example.org/k2",KEYFORMAT="identity"
            #EXTINF:2,
            b.ts
            #EXT-X-KEY:METHOD=NONE
            #EXTINF:2,
            c.ts
            #EXT-X-ENDLIST
            """)
        #expect(media.segments[0].key == SegmentKey(uri: "https://cdn.example.org/v/enc.key", iv: Array(0...15).reversed().map(UInt8.init)))
        #expect(media.segments[1].key == SegmentKey(uri: "https://keys.example.org/k2", iv: [UInt8](repeating: 0, count: 15) + [2]))
        #expect(media.segments[2].key == nil)
        #expect(SegmentKey.implicitIV(sequence: 0x0102) == [UInt8](repeating: 0, count: 14) + [1, 2])
    }

    @Test func byteRangesOfOneFileFollowEachOther() throws {
        let media = try Self.media("""
            #EXTM3U
            #EXT-X-MAP:URI="init.mp4",BYTERANGE="720@0"
            #EXTINF:2,
            #EXT-X-BYTERANGE:74448@720
            stream.mp4
            #EXTINF:2,
            #EXT-X-BYTERANGE:76328
            stream.mp4
            #EXT-X-ENDLIST
            """)
        #expect(media.segments.map(\.byteRange) == [720..<75168, 75168..<151496])
        #expect(media.segments[0].initSection == InitSection(uri: "https://cdn.example.org/v/init.mp4", byteRange: 0..<720))
        #expect(media.isFragmentedMP4)
    }

    @Test func aMasterPlaylistListsVariantsAndAudio() throws {
        let playlist = try Self.parse("""
            #EXTM3U
            #EXT-X-VERSION:3
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",LANGUAGE="en",DEFAULT=YES,URI="audio/en.m3u8"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Deutsch",LANGUAGE="de",URI="audio/de.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=950400,RESOLUTION=640x360,CODECS="avc1.42c01e,mp4a.40.2",AUDIO="aud"
            360p/index.m3u8

            #EXT-X-STREAM-INF:BANDWIDTH=3150400,RESOLUTION=1280x720,CODECS="avc1.42c01f,mp4a.40.2"
            720p/index.m3u8
            """)
        guard case let .master(master) = playlist else { Issue.record("not a master playlist"); return }
        #expect(master.variants.map(\.uri) == ["https://cdn.example.org/v/360p/index.m3u8", "https://cdn.example.org/v/720p/index.m3u8"])
        #expect(master.variants[0].codecs == "avc1.42c01e,mp4a.40.2" && master.variants[0].resolution == Resolution(width: 640, height: 360))
        #expect(master.audio(for: master.variants[0])?.name == "English")
        #expect(master.audio(for: master.variants[1]) == nil)
    }

    static let variants = [
        Variant(uri: "a", bandwidth: 800_000, resolution: Resolution(width: 640, height: 360)),
        Variant(uri: "b", bandwidth: 2_800_000, resolution: Resolution(width: 1280, height: 720)),
        Variant(uri: "c", bandwidth: 2_800_000, resolution: Resolution(width: 1920, height: 1080)),
        Variant(uri: "d", bandwidth: 1_400_000, resolution: Resolution(width: 960, height: 540)),
    ]

    @Test(arguments: [
        ("best", "c"), ("worst", "a"), ("720", "b"), ("720p", "b"), ("600", "d"), ("240", "a"), ("4320", "c"),
        ("1500000", "d"), ("100000", "a"),
    ])
    func theChoicePicksAVariant(text: String, expected: String) throws {
        let choice = try #require(VariantChoice(parsing: text))
        #expect(choice.pick(from: Self.variants)?.uri == expected)
    }

    @Test(arguments: ["", "high", "-1", "0", "9999p"])
    func aChoiceThatIsNoneIsRefused(text: String) {
        #expect(VariantChoice(parsing: text) == nil)
    }

    @Test func detectionByBodyOrContentType() {
        #expect(PlaylistParser.isPlaylist(prefix: Array("\u{FEFF}\n#EXTM3U\n".utf8), contentType: nil))
        #expect(PlaylistParser.isPlaylist(prefix: [], contentType: "application/vnd.apple.mpegurl; charset=utf-8"))
        #expect(PlaylistParser.isPlaylist(prefix: [], contentType: "audio/mpegurl"))
        #expect(!PlaylistParser.isPlaylist(prefix: Array("<html>".utf8), contentType: "text/html"))
    }



    @Test(arguments: [
        ("<!DOCTYPE html>\n<html>", PlaylistError(line: 1, .notAPlaylist(html: true))),
        ("", PlaylistError(line: nil, .notAPlaylist(html: false))),
        ("#EXTM3U\n#EXTINF:2,\na.ts\n#EXTINF:2,\n", PlaylistError(line: 4, .truncated)),
        ("#EXTM3U\n#EXTINF:-2,\na.ts\n#EXT-X-ENDLIST", PlaylistError(line: 2, .invalidDuration("-2"))),
        ("#EXTM3U\n#EXTINF:nan,\na.ts\n#EXT-X-ENDLIST", PlaylistError(line: 2, .invalidDuration("nan"))),
        ("#EXTM3U\n#EXTINF:2,\nfile:///etc/passwd\n#EXT-X-ENDLIST", PlaylistError(line: 3, .unsupportedURI(what: "segment", "file:///etc/passwd"))),
        ("#EXTM3U\n#EXT-X-KEY:METHOD=AES-128,URI=\"skd://k\"\n#EXTINF:2,\na.ts\n#EXT-X-ENDLIST", PlaylistError(line: 2, .unsupportedURI(what: "key", "skd://k"))),
        ("#EXTM3U\n#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"k\"\n", PlaylistError(line: 2, .unsupportedEncryption("SAMPLE-AES"))),
        ("#EXTM3U\n#EXT-X-KEY:METHOD=AES-128,URI=\"k\",KEYFORMAT=\"com.apple.streamingkeydelivery\"\n", PlaylistError(line: 2, .unsupportedKeyFormat("com.apple.streamingkeydelivery"))),
        ("#EXTM3U\n#EXT-X-KEY:METHOD=AES-128,URI=\"k\",IV=0xZZ\n", PlaylistError(line: 2, .malformedTag("#EXT-X-KEY"))),
        // Fullwidth digits are hex digits to `Character.isHexDigit`, not to `UInt8(_:radix:)`: haul crashed on them,
        // again on every start while the task waited.
        ("#EXTM3U\n#EXT-X-KEY:METHOD=AES-128,URI=\"k\",IV=0x\u{FF10}\u{FF11}\u{FF41}\n", PlaylistError(line: 2, .malformedTag("#EXT-X-KEY"))),
        ("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n#EXTINF:2,\na.ts", PlaylistError(line: 4, .mixed)),
        ("#EXTM3U\n#EXT-X-ENDLIST", PlaylistError(line: nil, .empty)),
        ("#EXTM3U\na.ts", PlaylistError(line: 2, .malformedTag("#EXTINF"))),
        ("#EXTM3U\n#EXTINF:2,\na.ts\n#EXT-X-MEDIA-SEQUENCE:3\n#EXTINF:2,\nb.ts\n#EXT-X-ENDLIST", PlaylistError(line: 4, .tagAfterSegments("#EXT-X-MEDIA-SEQUENCE"))),
        ("#EXTM3U\n#EXTINF:2,\n#EXT-X-BYTERANGE:10\na.ts\n#EXT-X-ENDLIST", PlaylistError(line: 4, .malformedTag("#EXT-X-BYTERANGE"))),
        ("#EXTM3U\n#EXTINF:2,\n#EXT-X-BYTERANGE:10@9223372036854775807\na.ts\n#EXT-X-ENDLIST", PlaylistError(line: 3, .outOfRange("BYTERANGE", "10@9223372036854775807", limit: PlaylistExtremeNumbersTests.byteRangeLimit))),
    ])
    func badPlaylistsNameTheLine(text: String, expected: PlaylistError) {
        #expect(throws: expected) { try Self.parse(text) }
    }

    @Test func invalidUTF8AndHugeLinesAndCountsAreRefused() {
        #expect(throws: PlaylistError(line: 2, .invalidUTF8)) {
            try PlaylistParser.parse(Array("#EXTM3U\n#EXTINF:2,".utf8) + [0xFF, 0xFE], url: Self.base)
        }
        #expect(throws: PlaylistError(line: 2, .lineTooLong(limit: PlaylistParser.maxLineBytes))) {
            try Self.parse("#EXTM3U\n" + String(repeating: "a", count: 1 << 20))
        }
        let many = "#EXTM3U\n" + String(repeating: "#EXTINF:1,\ns.ts\n", count: 200_000) + "#EXT-X-ENDLIST\n"
        #expect(throws: PlaylistError(line: 2 * PlaylistParser.maxSegments + 3, .tooManySegments(limit: PlaylistParser.maxSegments))) {
            try Self.parse(many)
        }
    }

    @Test func credentialsInABadURIAreNotShown() {
        do {
            _ = try Self.parse("#EXTM3U\n#EXTINF:2,\nftp://user:hunter2@h/a.ts\n#EXT-X-ENDLIST")
            Issue.record("accepted")
        } catch {
            #expect(!error.description.contains("hunter2") && error.description.contains("line 3"))
        }
    }

    /// Short relative links against a 60 KB base would take gigabytes once resolved: the playlist is refused at the
    /// line where its links pass the bound, however small its own text.
    @Test func relativeLinksThatMultiplyALongBaseAreRefused() throws {
        let base = "http://127.0.0.1:8080/" + String(repeating: "p", count: 60_000) + "/index.m3u8"
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n"
        for index in 0..<1_000 { text += "#EXTINF:2,\ns\(index).ts\n" }
        text += "#EXT-X-ENDLIST\n"
        #expect(text.utf8.count < 32 << 10)
        do {
            _ = try PlaylistParser.parse(Array(text.utf8), url: base)
            Issue.record("a playlist whose links take \(1_000 * 60_000) bytes was accepted")
        } catch {
            #expect(error.reason == .linksTooLarge(limit: PlaylistParser.maxResolvedBytes))
            let line = try #require(error.line)
            #expect(line > 500 && line < 1_200, "the line where the bound was passed: \(line)")
        }
    }
}
