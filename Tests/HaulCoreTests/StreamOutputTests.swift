import Foundation
import HaulCore
import Testing

/// What file a stream becomes (`StreamOutput`), fresh segment links (`takingLinks`, `SegmentLinkExpiry`), and the
/// playlists that are no HLS or carry an encrypted init section (issue 26 §1, DESIGN §11). Pure: no network, no ffmpeg.
struct StreamOutputTests {
    static func media(_ text: String, url: String = PlaylistParserTests.base) throws -> MediaPlaylist {
        guard case let .media(media) = try PlaylistParser.parse(Array(text.utf8), url: url) else { throw PlaylistError(line: nil, .empty) }
        return media
    }

    static let discontinuous = """
        #EXTM3U
        #EXT-X-TARGETDURATION:2
        #EXTINF:2,
        a0.ts
        #EXT-X-DISCONTINUITY
        #EXTINF:2,
        b0.ts
        #EXT-X-DISCONTINUITY
        #EXTINF:2,
        c0.ts
        #EXT-X-ENDLIST
        """

    static let ts = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts\n#EXTINF:2,\nb.ts\n#EXT-X-ENDLIST\n"

    @Test func discontinuitiesAreRemuxedWithFFmpegAndNotedWithoutIt() throws {
        let video = try Self.media(Self.discontinuous)
        #expect(video.discontinuityCount == 2)
        let mended = try StreamOutput.decide(video: video, audio: nil, requestedName: nil, remux: nil, ffmpeg: true).get()
        #expect(mended == StreamOutput(container: "ts", format: "ts", mendsTimestamps: true, note: nil))
        #expect(mended.remuxes)
        let noted = try StreamOutput.decide(video: video, audio: nil, requestedName: nil, remux: nil, ffmpeg: false).get()
        #expect(!noted.remuxes && !noted.mendsTimestamps)
        #expect(noted.note?.contains("2 discontinuities") == true && noted.note?.contains("timestamps restart") == true, "\(noted)")
        // Fragmented MP4 keeps its fragments' times through a copy: noted, not remuxed.
        let fragmented = try Self.media(Self.discontinuous.replacingOccurrences(of: "#EXT-X-TARGETDURATION:2", with: "#EXT-X-MAP:URI=\"i.mp4\""))
        let kept = try StreamOutput.decide(video: fragmented, audio: nil, requestedName: nil, remux: nil, ffmpeg: true).get()
        #expect(!kept.remuxes && kept.note?.contains("MPEG-TS streams only") == true, "\(kept)")
        // A discontinuity before the first segment restarts nothing.
        let first = try Self.media("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-DISCONTINUITY\n#EXTINF:2,\na.ts\n#EXT-X-ENDLIST\n")
        #expect(try StreamOutput.decide(video: first, audio: nil, requestedName: nil, remux: nil, ffmpeg: true).get().remuxes == false)
    }

    @Test func anInitSectionThatChangesIsRefusedNamingTheSegment() throws {
        let video = try Self.media("""
            #EXTM3U
            #EXT-X-TARGETDURATION:2
            #EXT-X-MAP:URI="h264.mp4"
            #EXTINF:2,
            a.m4s
            #EXTINF:2,
            b.m4s
            #EXT-X-DISCONTINUITY
            #EXT-X-MAP:URI="hevc.mp4"
            #EXTINF:2,
            c.m4s
            #EXT-X-ENDLIST
            """)
        #expect(video.initSectionChange?.uri.hasSuffix("/c.m4s") == true)
        let refusal = StreamOutput.decide(video: video, audio: nil, requestedName: nil, remux: nil, ffmpeg: true)
        #expect(refusal == .failure(.initSectionChanges(segment: 2, line: 11)))
        let text = DownloadError.streamRefused(.initSectionChanges(segment: 2, line: 11)).description
        #expect(text.hasPrefix("playlist line 11: the init section (EXT-X-MAP) changes at segment 2"), "\(text)")
        // The same map declared again after a discontinuity is no change.
        let same = try Self.media("""
            #EXTM3U
            #EXT-X-MAP:URI="init.mp4"
            #EXTINF:2,
            a.m4s
            #EXT-X-DISCONTINUITY
            #EXT-X-MAP:URI="init.mp4"
            #EXTINF:2,
            b.m4s
            #EXT-X-ENDLIST
            """)
        #expect(same.initSectionChange == nil)
    }

    @Test func theNameGivenDecidesTheContainer() throws {
        let video = try Self.media(Self.ts)
        func decide(_ name: String?, remux: String? = nil, ffmpeg: Bool) -> Result<StreamOutput, StreamOutput.Refusal> {
            StreamOutput.decide(video: video, audio: nil, requestedName: name, remux: remux, ffmpeg: ffmpeg)
        }
        #expect(try decide("talk.mp4", ffmpeg: true).get().format == "mp4")
        #expect(try decide("talk.MKV", remux: "mp4", ffmpeg: true).get().format == "mkv", "the name wins over --stream-remux")
        #expect(try decide("talk.ts", ffmpeg: false).get().remuxes == false)
        #expect(try decide("talk.bin", remux: "mp4", ffmpeg: true).get().format == "mp4", "an unknown extension decides nothing")
        #expect(try decide(nil, ffmpeg: false).get() == StreamOutput(container: "ts", format: "ts", mendsTimestamps: false, note: nil))
        let refusal = decide("talk.mp4", ffmpeg: false)
        #expect(refusal == .failure(.containerNeedsFFmpeg(requested: "talk.mp4", container: "ts", suggested: "talk.ts")))
        if case let .failure(error) = refusal {
            #expect(error.description.contains("name it talk.ts") && error.description.contains("MPEG-TS"), "\(error)")
        }
        #expect(StreamOutput.format(requestedName: "x.mkv", remux: "mp4", container: "ts") == "mkv")
        #expect(StreamOutput.format(requestedName: "x", remux: nil, container: "mp4") == "mp4")
    }

    @Test func aKeyBeforeTheMapAppliesToTheInitSection() throws {
        let media = try Self.media("""
            #EXTM3U
            #EXT-X-MEDIA-SEQUENCE:3
            #EXT-X-KEY:METHOD=AES-128,URI="k.key",IV=0x0f0e0d0c0b0a09080706050403020100
            #EXT-X-MAP:URI="init.mp4"
            #EXTINF:2,
            a.m4s
            #EXT-X-ENDLIST
            """)
        let key = try #require(media.segments[0].initSection?.key)
        #expect(key == SegmentKey(uri: "https://cdn.example.org/v/k.key", iv: Array(0...15).reversed().map(UInt8.init)))
        let implicit = try Self.media("""
            #EXTM3U
            #EXT-X-MEDIA-SEQUENCE:3
            #EXT-X-KEY:METHOD=AES-128,URI="k.key"
            #EXT-X-MAP:URI="init.mp4"
            #EXTINF:2,
            a.m4s
            #EXT-X-ENDLIST
            """)
        #expect(implicit.segments[0].initSection?.key?.iv == SegmentKey.implicitIV(sequence: 3))
        // A map before any key is clear.
        let clear = try Self.media("#EXTM3U\n#EXT-X-MAP:URI=\"init.mp4\"\n#EXT-X-KEY:METHOD=AES-128,URI=\"k\"\n#EXTINF:2,\na.m4s\n#EXT-X-ENDLIST\n")
        #expect(clear.segments[0].initSection?.key == nil && clear.segments[0].key != nil)
    }

    @Test func aPlainM3UIsNoHLSMediaPlaylistAndStreamOffKeepsIt() throws {
        for text in [
            "#EXTM3U\n#EXTINF:215,Artist - Song\nmusic/song.mp3\n#EXTINF:180,Other - Tune\nmusic/tune.mp3\n",
            "#EXTM3U\n#EXTINF:215,Artist - Song\nhttp://music.example.org/Artist/Song.mp3\n",
        ] {
            #expect(throws: PlaylistError(line: nil, .plainM3U)) { try PlaylistParser.parse(Array(text.utf8), url: PlaylistParserTests.base) }
        }
        let text = PlaylistError(line: nil, .plainM3U).description
        #expect(text.contains("not an HLS media playlist") && text.contains("--stream off keeps it as a file"), "\(text)")
        #expect(!text.contains("live"))
        // An HLS playlist without an end list is live: recorded, not refused.
        let live = try PlaylistParser.parse(Array("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts\n".utf8), url: PlaylistParserTests.base)
        guard case let .media(media) = live else { Issue.record("not a media playlist: \(live)"); return }
        #expect(media.isLive && media.segments.count == 1)
    }

    @Test func freshLinksAreTakenWhenThePlaylistIsTheSameStream() throws {
        let old = try Self.media("""
            #EXTM3U
            #EXT-X-MEDIA-SEQUENCE:4
            #EXT-X-KEY:METHOD=AES-128,URI="k.key?t=1"
            #EXT-X-MAP:URI="init.mp4?t=1"
            #EXTINF:2,
            r1/a.m4s
            #EXTINF:2,
            r1/b.m4s
            #EXT-X-ENDLIST
            """)
        let fresh = try Self.media("""
            #EXTM3U
            #EXT-X-MEDIA-SEQUENCE:4
            #EXT-X-KEY:METHOD=AES-128,URI="k.key?t=2"
            #EXT-X-MAP:URI="init.mp4?t=2"
            #EXTINF:2,
            r2/a.m4s
            #EXTINF:2,
            r2/b.m4s
            #EXT-X-ENDLIST
            """)
        let taken = try old.takingLinks(from: fresh, hasKey: { _ in true }).get()
        #expect(taken.segments.map(\.uri) == fresh.segments.map(\.uri))
        #expect(taken.segments.map(\.initSection) == old.segments.map(\.initSection), "the init section is never written twice")
        #expect(taken.segments.map(\.key) == old.segments.map(\.key), "a key fetched stays")
        let unfetched = try old.takingLinks(from: fresh, hasKey: { _ in false }).get()
        #expect(unfetched.segments.map(\.key) == fresh.segments.map(\.key), "a key not fetched yet takes its fresh link")
        var shorter = fresh
        shorter.segments.removeLast()
        #expect(throws: FreshLinksMismatch.self) { try old.takingLinks(from: shorter, hasKey: { _ in true }).get() }
    }

    @Test func aRefusedSegmentLinkAsksThePlaylistOnceThenFails() {
        #expect(SegmentLinkExpiry.decide(generation: 0, current: 0, refreshing: false, askedBefore: false) == .fetchPlaylist)
        #expect(SegmentLinkExpiry.decide(generation: 0, current: 0, refreshing: true, askedBefore: false) == .awaitFreshLinks)
        #expect(SegmentLinkExpiry.decide(generation: 0, current: 1, refreshing: false, askedBefore: true) == .askAgain)
        #expect(SegmentLinkExpiry.decide(generation: 1, current: 1, refreshing: false, askedBefore: false) == .fetchPlaylist)
        #expect(SegmentLinkExpiry.decide(generation: 1, current: 1, refreshing: false, askedBefore: true) == .fail)
    }
}
