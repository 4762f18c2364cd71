import Foundation
import HaulCore
import Testing

/// DASH manifests resolved into the segments haul fetches (DESIGN §11), as ffmpeg writes them (TECH_NOTES §I.2) and
/// as a hostile server might, without I/O.
struct DASHStreamTests {
    static let url = "http://127.0.0.1:8080/show/manifest.mpd"

    static func resolve(
        _ text: String, pick: VariantChoice = .best, indexes: [DASHIndexRequest: [UInt8]] = [:]
    ) throws(PlaylistError) -> DASHStream {
        guard case let .stream(stream) = try DASHStream.resolve(Array(text.utf8), url: url, indexes: indexes, pick: { pick.pick(from: $0) })
        else { throw PlaylistError(line: nil, .manifest("needs a segment index")) }
        return stream
    }

    static func mpd(_ body: String, attributes: String = #"type="static" mediaPresentationDuration="PT12.0S""#) -> String {
        """
        <?xml version="1.0" encoding="utf-8"?>
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-live:2011" \(attributes)>
        \(body)
        </MPD>
        """
    }

    static let templated = mpd("""
        <Period id="0" start="PT0.0S">
          <AdaptationSet id="0" contentType="video" lang="und">
            <Representation id="0" mimeType="video/mp4" codecs="avc1.42c00d" bandwidth="143631" width="320" height="240">
              <SegmentTemplate timescale="1000000" duration="2000000" initialization="init-stream$RepresentationID$.m4s"
                media="chunk-stream$RepresentationID$-$Number%05d$.m4s" startNumber="1"/>
            </Representation>
            <Representation id="1" mimeType="video/mp4" codecs="avc1.64001f" bandwidth="900000" width="1280" height="720">
              <SegmentTemplate timescale="1000000" duration="2000000" initialization="init-stream$RepresentationID$.m4s"
                media="chunk-stream$RepresentationID$-$Number%05d$.m4s" startNumber="1"/>
            </Representation>
          </AdaptationSet>
          <AdaptationSet id="1" contentType="audio" lang="en">
            <Representation id="2" mimeType="audio/mp4" codecs="mp4a.40.2" bandwidth="48000">
              <SegmentTemplate timescale="48000" initialization="init-stream$RepresentationID$.m4s" media="chunk-stream$RepresentationID$-$Number%05d$.m4s">
                <SegmentTimeline><S t="0" d="95232"/><S d="96256" r="3"/><S d="95744"/></SegmentTimeline>
              </SegmentTemplate>
            </Representation>
          </AdaptationSet>
        </Period>
        """)

    @Test func aTemplateByNumberGivesOneSegmentPerDurationWithItsInitSection() throws {
        let stream = try Self.resolve(Self.templated)
        #expect(stream.variant.resolution == Resolution(width: 1280, height: 720), "best is the highest bandwidth")
        #expect(stream.video.segments.count == 6, "12 s in 2 s segments")
        #expect(stream.video.segments.first?.uri == "http://127.0.0.1:8080/show/chunk-stream1-00001.m4s")
        #expect(stream.video.segments.last?.uri == "http://127.0.0.1:8080/show/chunk-stream1-00006.m4s")
        #expect(stream.video.segments.allSatisfy { $0.initSection?.uri == "http://127.0.0.1:8080/show/init-stream1.m4s" })
        #expect(stream.video.isFragmentedMP4)
        #expect(try Self.resolve(Self.templated, pick: .worst).video.segments.first?.uri.hasSuffix("chunk-stream0-00001.m4s") == true)
    }

    @Test func aTimelineGivesItsEntriesAndRepeatsWithTheirDurations() throws {
        let audio = try #require(try Self.resolve(Self.templated).audio)
        #expect(audio.rendition.language == "en")
        #expect(audio.media.segments.count == 6, "1 + (3 + 1) + 1")
        #expect(abs(audio.media.duration - 12.0) < 0.001)
        #expect(audio.media.segments.map(\.uri).last == "http://127.0.0.1:8080/show/chunk-stream2-00006.m4s")
    }

    @Test func theAudioAskedForByLanguageElseTheFirstListed() throws {
        let german = Self.templated.replacingOccurrences(of: "</Period>", with: """
              <AdaptationSet id="2" contentType="audio" lang="de">
                <Representation id="3" mimeType="audio/mp4" codecs="mp4a.40.2" bandwidth="48000">
                  <SegmentTemplate timescale="1000000" duration="2000000" initialization="init-$RepresentationID$.m4s" media="c-$RepresentationID$-$Number$.m4s"/>
                </Representation>
              </AdaptationSet>
            </Period>
            """)
        let asked = try DASHStream.resolve(Array(german.utf8), url: "http://127.0.0.1:8080/show/m.mpd", audioLanguages: ["fra", "deu"]) {
            VariantChoice.best.pick(from: $0)
        }
        guard case let .stream(stream) = asked else { Issue.record("needs indexes"); return }
        #expect(stream.audio?.rendition.language == "de", "deu asks for de")
        #expect(try Self.resolve(german).audio?.rendition.language == "en", "without a wish: the first listed")
    }

    @Test func webVTTSubtitlesAreTakenAsAskedAndListed() throws {
        let withText = Self.templated.replacingOccurrences(of: "</Period>", with: """
              <AdaptationSet id="3" contentType="text" mimeType="text/vtt" lang="eng">
                <Representation id="s" bandwidth="100"><BaseURL>subs/eng.vtt</BaseURL></Representation>
              </AdaptationSet>
              <AdaptationSet id="4" contentType="text" mimeType="application/ttml+xml" lang="fra">
                <Representation id="t" bandwidth="100"><BaseURL>subs/fra.ttml</BaseURL></Representation>
              </AdaptationSet>
            </Period>
            """)
        func resolve(_ choice: SubtitleChoice) throws -> DASHStream {
            guard case let .stream(stream) = try DASHStream.resolve(Array(withText.utf8), url: Self.url, subtitles: choice, pick: {
                VariantChoice.best.pick(from: $0)
            }) else { throw PlaylistError(line: nil, .empty) }
            return stream
        }
        #expect(try resolve(.none).subtitles.isEmpty)
        let all = try resolve(.all)
        #expect(all.subtitles.map(\.rendition.language) == ["eng"], "WebVTT only, not TTML")
        #expect(all.subtitles.first?.media.segments.map(\.uri) == ["http://127.0.0.1:8080/show/subs/eng.vtt"])
        #expect(try resolve(.languages(["en"])).subtitles.count == 1 && resolve(.languages(["deu"])).subtitles.isEmpty)
        #expect(all.renditions.map(\.kind) == ["audio", "subtitles"] && all.renditions.allSatisfy(\.chosen))
    }

    /// What ffmpeg's live DASH output lists while it runs: a window numbered from `startNumber`.
    static func liveWindow(startNumber: Int, start: Int, count: Int, type: String = "dynamic") -> String {
        mpd("""
            <Period id="0" start="PT0.0S"><AdaptationSet id="0" contentType="video">
              <Representation id="0" mimeType="video/mp4" codecs="avc1.42c00b" bandwidth="117156" width="160" height="120">
                <SegmentTemplate timescale="12800" initialization="init-stream$RepresentationID$.m4s"
                  media="chunk-stream$RepresentationID$-$Number%05d$.m4s" startNumber="\(startNumber)">
                  <SegmentTimeline><S t="\(start * 12800)" d="12800" r="\(count - 1)"/></SegmentTimeline>
                </SegmentTemplate>
              </Representation>
            </AdaptationSet></Period>
            """, attributes: #"type="\#(type)" availabilityStartTime="2026-11-27T12:00:00Z""#)
    }

    @Test func aLiveManifestIsALiveWindowNumberedFromItsStartNumber() throws {
        let early = try Self.resolve(Self.liveWindow(startNumber: 6, start: 5, count: 4)).video
        #expect(early.isLive && early.mediaSequence == 6 && early.segments.map(\.sequence) == [6, 7, 8, 9])
        #expect(early.segments.first?.uri.hasSuffix("chunk-stream0-00006.m4s") == true)
        let later = try Self.resolve(Self.liveWindow(startNumber: 8, start: 7, count: 4)).video
        #expect(LiveRecording.added(later, after: 9).segments.map(\.sequence) == [10, 11], "the window slid by two")
        // Ended: static, numbered the same way when asked to.
        let ended = try DASHStream.resolve(
            Array(Self.liveWindow(startNumber: 8, start: 7, count: 5, type: "static").utf8), url: Self.url, liveNumbering: true
        ) { VariantChoice.best.pick(from: $0) }
        guard case let .stream(stream) = ended else { Issue.record("needs indexes"); return }
        #expect(!stream.video.isLive && stream.video.segments.map(\.sequence) == [8, 9, 10, 11, 12])
    }

    @Test func timeFillsTheTemplateAndARepeatToThePeriodsEndStopsThere() throws {
        let stream = try Self.resolve(Self.mpd("""
            <Period duration="PT10S"><AdaptationSet mimeType="video/mp4">
              <Representation id="v" bandwidth="1000">
                <SegmentTemplate timescale="10" presentationTimeOffset="100" media="t/$Time$.m4s"><SegmentTimeline><S t="100" d="20" r="-1"/></SegmentTimeline></SegmentTemplate>
              </Representation>
            </AdaptationSet></Period>
            """, attributes: #"type="static""#))
        #expect(stream.video.segments.map(\.uri) == [100, 120, 140, 160, 180].map { "http://127.0.0.1:8080/show/t/\($0).m4s" })
        #expect(stream.audio == nil, "no audio set: the video carries its own")
    }

    @Test func aSegmentListTakesByteRangesOfOneFileAfterItsInitialization() throws {
        let stream = try Self.resolve(Self.mpd("""
            <Period><AdaptationSet contentType="video"><Representation id="0" bandwidth="143631">
              <BaseURL>manifest-stream0.mp4</BaseURL>
              <SegmentList timescale="1000000" duration="2000000" startNumber="1">
                <Initialization range="0-825"/>
                <SegmentURL mediaRange="826-35700" indexRange="826-877"/><SegmentURL mediaRange="35701-72581"/>
              </SegmentList>
            </Representation></AdaptationSet></Period>
            """))
        #expect(stream.video.segments.map(\.byteRange) == [826..<35701, 35701..<72582])
        #expect(stream.video.segments.allSatisfy { $0.uri == "http://127.0.0.1:8080/show/manifest-stream0.mp4" })
        #expect(stream.video.segments.first?.initSection == InitSection(uri: "http://127.0.0.1:8080/show/manifest-stream0.mp4", byteRange: 0..<826))
    }

    @Test func baseURLsResolveLevelByLevelAndPeriodsFollowInOrderWithADiscontinuity() throws {
        let stream = try Self.resolve(Self.mpd("""
            <BaseURL>http://127.0.0.1:9000/cdn/</BaseURL>
            <Period duration="PT4S"><BaseURL>p1/</BaseURL><AdaptationSet contentType="video"><BaseURL>v/</BaseURL>
              <Representation id="a" bandwidth="100"><SegmentTemplate duration="2" media="$Number$.m4s"/></Representation>
            </AdaptationSet></Period>
            <Period duration="PT2S"><BaseURL>/abs/</BaseURL><AdaptationSet contentType="video">
              <Representation id="a" bandwidth="100"><SegmentTemplate duration="2" media="$Number$.m4s"/></Representation>
            </AdaptationSet></Period>
            """, attributes: #"type="static""#))
        #expect(stream.video.segments.map(\.uri) == [
            "http://127.0.0.1:9000/cdn/p1/v/1.m4s", "http://127.0.0.1:9000/cdn/p1/v/2.m4s", "http://127.0.0.1:9000/abs/1.m4s",
        ])
        #expect(stream.video.segments.map(\.discontinuity) == [false, false, true])
        #expect(stream.video.segments.map(\.sequence) == [0, 1, 2])
    }

    @Test func whatHaulCannotDownloadIsRefusedNamingIt() {
        func refusal(_ text: String) -> String {
            do {
                _ = try Self.resolve(text)
                return "accepted"
            } catch {
                return error.description
            }
        }
        // A live manifest addressed by the clock alone is not recorded (yet); one of several Periods neither.
        #expect(refusal(Self.mpd("""
            <Period><AdaptationSet contentType="video">
              <Representation id="a" bandwidth="1"><SegmentTemplate duration="2" media="$Number$.m4s"/></Representation>
            </AdaptationSet></Period>
            """, attributes: #"type="dynamic""#)).contains("live DASH manifest addressed by $Number$"))
        #expect(refusal(Self.mpd("""
            <Period duration="PT4S"><AdaptationSet contentType="video">
              <ContentProtection schemeIdUri="urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed"/>
              <Representation id="a" bandwidth="1"><SegmentTemplate duration="2" media="$Number$.m4s"/></Representation>
            </AdaptationSet></Period>
            """)).contains("DRM (Widevine)"))
        #expect(refusal(Self.mpd("""
            <Period><AdaptationSet contentType="video"><Representation id="a" bandwidth="1"><BaseURL>v.mp4</BaseURL>
              <SegmentBase><Initialization range="0-829"/></SegmentBase></Representation></AdaptationSet></Period>
            """)).contains("without an indexRange"))
        // An indexRange or Initialization range that is written but cannot be read is named, not taken for none.
        for base in [#"<SegmentBase indexRange="0-9223372036854775807"/>"#,
                     #"<SegmentBase indexRange="830-941"><Initialization range="829-0"/></SegmentBase>"#] {
            let text = refusal(Self.mpd("""
                <Period><AdaptationSet contentType="video"><Representation id="a" bandwidth="1"><BaseURL>v.mp4</BaseURL>
                  \(base)</Representation></AdaptationSet></Period>
                """))
            #expect(text.contains("cannot be read") && !text.contains("without an indexRange"), "\(text)")
        }
        #expect(refusal("<html><body>hello</body></html>").contains("web page"))
        #expect(refusal("<MPD><Period").contains("not a readable DASH manifest"))
    }

    @Test func hostileNumbersAndLinksAreRefusedNotExpanded() {
        func refused(_ body: String) -> Bool {
            (try? Self.resolve(Self.mpd(body, attributes: #"type="static" mediaPresentationDuration="PT100S""#))) == nil
        }
        let video = #"<Period><AdaptationSet contentType="video"><Representation id="a" bandwidth="1">"#
        let end = "</Representation></AdaptationSet></Period>"
        #expect(refused(video + #"<SegmentTemplate media="$Number$"><SegmentTimeline><S d="1" r="9223372036854775806"/></SegmentTimeline></SegmentTemplate>"# + end))
        #expect(refused(video + #"<SegmentTemplate media="$Number$"><SegmentTimeline><S d="0"/></SegmentTimeline></SegmentTemplate>"# + end))
        #expect(refused(video + #"<SegmentTemplate timescale="0" duration="1" media="$Number$"/>"# + end))
        #expect(refused(video + #"<SegmentTemplate timescale="1000000000000" duration="1" media="$Number$"/>"# + end), "10^14 segments")
        #expect(refused(video + #"<SegmentTemplate duration="1" media="$Number%0999d$"/>"# + end))
        #expect(refused(video + #"<SegmentTemplate duration="1" media="$Unknown$"/>"# + end))
        #expect(refused(video + #"<BaseURL>file:///etc/passwd</BaseURL>"# + end))
        #expect(refused(video + #"<SegmentList><SegmentURL media="a" mediaRange="9-3"/></SegmentList>"# + end))
        let deep = String(repeating: "<a>", count: 64) + String(repeating: "</a>", count: 64)
        #expect(refused("<Period>" + deep + "</Period>"))
    }

    @Test func manifestsAreFoundByTypeOrFirstElement() {
        #expect(DASHStream.isManifest(prefix: [UInt8](), contentType: "application/dash+xml; charset=utf-8"))
        #expect(DASHStream.isManifest(prefix: Array(Self.templated.utf8), contentType: "application/octet-stream"))
        #expect(!DASHStream.isManifest(prefix: Array("<?xml version=\"1.0\"?><rss></rss>".utf8), contentType: nil))
        #expect(!DASHStream.isManifest(prefix: Array("#EXTM3U\n".utf8), contentType: nil))
        #expect(DASHStream.isManifest(prefix: [0xEF, 0xBB, 0xBF] + Array(" \r\n<?xml version=\"1.0\"?><dash:MPD>".utf8), contentType: nil),
                "a byte-order mark, blank lines and a namespace prefix")
        #expect(DASHStream.isManifest(prefix: Array(("<" + String(repeating: "x", count: 1019) + "<MPD").utf8), contentType: nil),
                "the element's name ends at the 1,024th byte")
        #expect(!DASHStream.isManifest(prefix: Array(("<" + String(repeating: "x", count: 1020) + "<MPD").utf8), contentType: nil))
        #expect(!DASHStream.isManifest(prefix: (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }, contentType: nil))
        #expect(!DASHStream.isManifest(prefix: Array("<".utf8), contentType: nil) && !DASHStream.isManifest(prefix: Array("MPD".utf8), contentType: nil))
    }

    static let indexed = mpd("""
        <Period><AdaptationSet contentType="video"><Representation id="a" bandwidth="1"><BaseURL>v.mp4</BaseURL>
          <SegmentBase indexRange="830-941"><Initialization range="0-829"/></SegmentBase></Representation></AdaptationSet></Period>
        """)

    /// A version-1 `sidx` of 112 bytes: timescale 12800, first_offset 0, six references as ffmpeg writes them.
    static func sidx(sizes: [UInt32] = [34823, 36817, 35000, 35001, 35002, 35003], referenceType: UInt32 = 0) -> [UInt8] {
        func be(_ value: UInt64, _ width: Int) -> [UInt8] { (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        var body: [UInt8] = [1, 0, 0, 0] + be(1, 4) + be(12800, 4) + be(0, 8) + be(0, 8) + be(0, 2) + be(UInt64(sizes.count), 2)
        for size in sizes { body += be(UInt64(referenceType << 31 | size), 4) + be(25600, 4) + be(0x9000_0000, 4) }
        return be(UInt64(8 + body.count), 4) + Array("sidx".utf8) + body
    }

    @Test func aSegmentBaseAsksForItsIndexThenTakesTheRangesItLists() throws {
        let request = DASHIndexRequest(url: "http://127.0.0.1:8080/show/v.mp4", range: 830..<942)
        let first = try DASHStream.resolve(Array(Self.indexed.utf8), url: Self.url) { $0.first }
        #expect(first == .needs([request]))
        let index = Self.sidx()
        #expect(index.count == 112)
        let stream = try Self.resolve(Self.indexed, indexes: [request: index])
        #expect(stream.video.segments.count == 6)
        let ranges = stream.video.segments.compactMap(\.byteRange)
        let firstStart: Int64 = 942
        let firstSize: Int64 = 34823
        #expect(ranges.first == firstStart..<firstStart + firstSize, "the first subsegment starts after the sidx")
        #expect(ranges.dropFirst().first?.lowerBound == firstStart + firstSize)
        #expect(stream.video.segments.first?.initSection == InitSection(uri: request.url, byteRange: 0..<830))
        #expect(abs(stream.video.duration - 12.0) < 0.001)
        #expect((try? Self.resolve(Self.indexed, indexes: [request: Array(index.prefix(60))])) == nil, "a cut index is refused")
        #expect((try? Self.resolve(Self.indexed, indexes: [request: Self.sidx(referenceType: 1)])) == nil, "an index of indexes is refused")
    }
}
