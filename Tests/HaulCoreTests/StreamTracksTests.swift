import Foundation
import HaulCore
import Testing

/// Audio and subtitle renditions (issue 26 §5, DESIGN §11): which are taken, how they are listed and named, and how
/// WebVTT segments join into one file.
struct StreamTracksTests {
    /// The master ffmpeg writes with two audio renditions and a subtitle one (TECH_NOTES §I.5).
    static let master = """
        #EXTM3U
        #EXT-X-VERSION:3
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="group_aud",NAME="audio_1",DEFAULT=YES,LANGUAGE="eng",URI="out_English.m3u8"
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="group_aud",NAME="audio_2",DEFAULT=NO,LANGUAGE="deu",URI="out_Deutsch.m3u8"
        #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="sub",NAME="subtitle_0",DEFAULT=NO,LANGUAGE="eng",URI="out_video_vtt.m3u8"
        #EXT-X-STREAM-INF:BANDWIDTH=75900,RESOLUTION=160x120,CODECS="avc1.42c00b,mp4a.40.2",AUDIO="group_aud",SUBTITLES="sub"
        out_video.m3u8
        """

    static func parsed() throws -> (MasterPlaylist, Variant) {
        guard case let .master(master) = try PlaylistParserTests.parse(master), let variant = master.variants.first else {
            throw PlaylistError(line: nil, .empty)
        }
        return (master, variant)
    }

    @Test func theAudioIsTheFirstLanguageAskedForElseTheDefault() throws {
        let (master, variant) = try Self.parsed()
        #expect(variant.subtitleGroup == "sub")
        #expect(master.audio(for: variant)?.language == "eng")
        #expect(master.audio(for: variant, languages: ["deu"])?.language == "deu")
        #expect(master.audio(for: variant, languages: ["fra", "de"])?.language == "deu", "a two-letter code matches a three-letter one")
        #expect(master.audio(for: variant, languages: ["audio_2"])?.name == "audio_2", "or the rendition's name")
        #expect(master.audio(for: variant, languages: ["fra"])?.language == "eng", "none asked for: the default")
    }

    @Test func subtitlesAreNoneAllOrTheLanguagesAskedFor() throws {
        let (master, variant) = try Self.parsed()
        #expect(master.subtitles(for: variant, .none).isEmpty)
        #expect(master.subtitles(for: variant, .all).map(\.name) == ["subtitle_0"])
        #expect(master.subtitles(for: variant, .languages(["en"])).count == 1)
        #expect(master.subtitles(for: variant, .languages(["deu"])).isEmpty)
        #expect(SubtitleChoice(parsing: "ALL") == .all && SubtitleChoice(parsing: "eng, deu") == .languages(["eng", "deu"]))
        for bad in ["../x", "eng;rm", ",", String(repeating: "a", count: 36), Array(repeating: "en", count: 17).joined(separator: ",")] {
            #expect(SubtitleChoice(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test func theRenditionsAreListedWithThoseTaken() throws {
        let (master, variant) = try Self.parsed()
        let audio = master.audio(for: variant, languages: ["deu"])
        let list = try #require(StreamRenditionInfo.list(master, variant: variant, audio: audio, subtitles: .all))
        #expect(list.map(\.kind) == ["audio", "audio", "subtitles"])
        #expect(list.map(\.chosen) == [false, true, true])
        #expect(StreamRenditionInfo.text(list, kind: "audio") == "audio_1 (eng), audio_2 (deu, chosen)")
        #expect(StreamRenditionInfo.list(MasterPlaylist(variants: [variant]), variant: variant, audio: nil, subtitles: .none) == nil)
    }

    @Test func aSubtitleFileIsNamedBesideTheVideoAndNeverLeavesItsDirectory() {
        #expect(StreamFileName.subtitleName(of: "talk.mp4", language: "eng") == "talk.eng.vtt")
        #expect(StreamFileName.subtitleName(of: "talk.ts", language: "../../etc/passwd") == "talk.etcpasswd.vtt")
        #expect(StreamFileName.subtitleName(of: "talk.ts", language: "/") == "talk.sub.vtt")
        #expect(!StreamFileName.subtitleName(of: "talk.ts", language: String(repeating: "x", count: 5000)).contains("/"))
    }

    @Test func webVTTSegmentsJoinWithOneHeader() {
        var join = WebVTTJoin()
        let appended1 = join.append(Array("WEBVTT\n\n00:01.022 --> 00:02.522\nFirst line\n".utf8))
        #expect(appended1)
        let appended2 = join.append(Array("\u{FEFF}WEBVTT\nX-TIMESTAMP-MAP=LOCAL:00:00:00.000,MPEGTS:0\n\n00:05.022 --> 00:06.522\nSecond line\n".utf8))
        #expect(appended2)
        let appended3 = join.append(Array("WEBVTT\r\n\r\n00:09.022 --> 00:10.522\r\nThird line".utf8))
        #expect(appended3)
        let text = String(decoding: join.bytes, as: UTF8.self)
        #expect(text.components(separatedBy: "WEBVTT").count == 2, "\(text)")
        #expect(text.components(separatedBy: "-->").count == 4 && text.contains("Third line"), "\(text)")
        let appended4 = join.append(Array("<html>not subtitles</html>".utf8))
        #expect(!appended4)
        // A header with no cues adds nothing but a separator.
        let appended5 = join.append(Array("WEBVTT\n".utf8))
        #expect(appended5)
    }

    @Test func theLanguageOptionsAreCheckedByEveryWayIn() throws {
        var request = TaskRequest(url: "http://127.0.0.1/master.m3u8")
        try request.set(.streamAudio, .string("deu,eng"))
        try request.set(.streamSubs, .string("all"))
        var options = RequestOptions()
        try TaskIntake.applyStreamOptions(request.access, to: &options)
        #expect(options.streamAudio == ["deu", "eng"] && options.subtitleChoice == .all)
        #expect(throws: (any Error).self) { try request.set(.streamSubs, .string("../x")) }
        #expect(throws: (any Error).self) { try request.set(.streamAudio, .string("")) }
    }
}
