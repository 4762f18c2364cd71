import Foundation

/// The `sidx` box of a `SegmentBase` representation: the bytes of its file to fetch before its segments are known.
public struct DASHIndexRequest: Sendable, Hashable {
    public var url: String
    public var range: Range<Int64>

    public init(url: String, range: Range<Int64>) {
        self.url = url
        self.range = range
    }
}

/// A DASH manifest (MPD) resolved as haul downloads it (DESIGN §11): the video representation a choice picks and
/// the best audio beside it, each with its segments across the Periods in order, every link absolute and http(s).
/// Only the chosen representations' segments are expanded. `resolve` refuses what haul cannot download (DRM, a single
/// file without an index, a live manifest addressed by the clock) naming it.
public struct DASHStream: Sendable, Equatable {
    public var variant: Variant
    public var video: MediaPlaylist
    /// The audio representation beside the video, when the video carries none of its own.
    public var audio: Track?

    /// A representation beside the video (its audio, its subtitles) as a rendition with its segments.
    public struct Track: Sendable, Equatable {
        public var rendition: Rendition
        public var media: MediaPlaylist
    }

    /// The WebVTT subtitle representations asked for (`--stream-subs`), with their segments (often one whole file).
    public var subtitles: [Track] = []
    /// Every audio and subtitle representation of the first Period, those taken marked (for the task to list).
    public var renditions: [StreamRenditionInfo] = []

    /// Whether an answer is a DASH manifest: its content type says so, or its first bytes open an `MPD` element.
    public static func isManifest(prefix: some Collection<UInt8>, contentType: String?) -> Bool {
        if MediaType.essence(of: contentType) == "application/dash+xml" {
            return true
        }
        // Read as bytes: every file's first answer passes here, and decoding a binary file's head costs.
        let head = Array(prefix.prefix(1024))
        var start = head.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        skipping: while start < head.count {
            switch head[start] {
            case 0x20, 0x09, 0x0A, 0x0D: start += 1
            default: break skipping
            }
        }
        guard start < head.count, head[start] == UInt8(ascii: "<") else { return false }
        let name = Array("MPD".utf8)
        return (start + 1..<max(start + 1, head.count - 2)).contains { index in
            (head[index - 1] == UInt8(ascii: "<") || head[index - 1] == UInt8(ascii: ":")) && head[index..<index + 3].elementsEqual(name)
        }
    }

    /// What a manifest resolves to: the stream, or the `sidx` boxes its `SegmentBase` representations need first.
    public enum Resolution: Sendable, Equatable {
        case stream(DASHStream)
        case needs([DASHIndexRequest])
    }

    /// The stream the manifest `bytes` (fetched from `url`) holds for the video `pick` chooses among its variants,
    /// given the `sidx` boxes fetched so far. `liveNumbering`: segments numbered from their start number even when the
    /// manifest is static (a live one fetched again after it ended, whose numbers must match the earlier fetches').
    public static func resolve(
        _ bytes: [UInt8], url: String, indexes: [DASHIndexRequest: [UInt8]] = [:], audioLanguages: [String] = [],
        subtitles choice: SubtitleChoice = .none, liveNumbering: Bool = false, pick: ([Variant]) -> Variant?
    ) throws(PlaylistError) -> Resolution {
        guard bytes.count <= PlaylistParser.maxBytes else { throw PlaylistError(line: nil, .tooLarge(limit: PlaylistParser.maxBytes)) }
        let root: XMLNode
        switch XMLNode.parse(bytes) {
        case let .success(node): root = node
        case let .failure(error): throw PlaylistError(line: nil, .manifest(describe(error)))
        }
        guard root.name == "MPD" else { throw PlaylistError(line: nil, .notAPlaylist(html: root.name.lowercased() == "html")) }
        // A live manifest (`type="dynamic"`) is recorded as a live HLS playlist is (`LiveRecording`): its one Period's
        // timeline lists the window, numbered from its start number.
        let live = root["type"] == "dynamic"
        let periods = try DASHPeriod.all(in: root, url: url)
        guard let first = periods.first else { throw PlaylistError(line: nil, .empty) }
        if live, periods.count > 1 { throw PlaylistError(line: nil, .manifest("a live DASH manifest of several Periods is not recorded yet")) }
        let videos = first.representations(.video)
        guard let variant = pick(videos.map(\.variant)), let chosen = videos.first(where: { $0.variant == variant }) else {
            throw PlaylistError(line: nil, .empty)
        }
        var expansion = DASHExpansion(indexes: indexes, live: live, numberedByStart: live || liveNumbering)
        let video = try expansion.media(DASHPeriod.counterparts(of: chosen, in: periods))
        var audio: Track?
        let chosenSound = first.bestAudio(languages: audioLanguages)
        if let sound = chosenSound {
            let rendition = Rendition(
                type: .audio, groupID: "dash", name: sound.language.flatMap { $0 == "und" ? nil : $0 } ?? "audio \(sound.id)",
                language: sound.language, isDefault: true, uri: nil)
            audio = Track(rendition: rendition, media: try expansion.media(DASHPeriod.counterparts(of: sound, in: periods)))
        }
        let texts = first.representations(.text).map { text in
            (text, Rendition(type: .subtitles, groupID: "dash", name: text.language ?? "subtitles \(text.id)", language: text.language,
                             uri: text.base))
        }
        var subtitles: [Track] = []
        for (text, rendition) in texts where Self.asks(choice, for: rendition) {
            subtitles.append(Track(rendition: rendition, media: try expansion.media([text])))
        }
        if !expansion.missing.isEmpty { return .needs(expansion.missing) }
        let taken = Set(subtitles.map(\.rendition.uri))
        let listed = first.representations(.audio).map { sound in
            StreamRenditionInfo(kind: "audio", name: "audio \(sound.id)", language: sound.language, isDefault: false,
                                chosen: sound.id == chosenSound?.id)
        } + texts.map { _, rendition in
            StreamRenditionInfo(kind: "subtitles", name: rendition.name, language: rendition.language, isDefault: false,
                                chosen: taken.contains(rendition.uri))
        }
        return .stream(DASHStream(
            variant: variant, video: video, audio: audio, subtitles: subtitles, renditions: Array(listed.prefix(64))))
    }

    /// Whether `choice` asks for the subtitles `rendition`.
    static func asks(_ choice: SubtitleChoice, for rendition: Rendition) -> Bool {
        switch choice {
        case .none: false
        case .all: true
        case let .languages(languages): languages.contains { rendition.speaks($0) }
        }
    }

    private static func describe(_ error: XMLTreeError) -> String {
        switch error {
        case let .malformed(reason): "not a readable DASH manifest (\(reason))"
        case let .tooLarge(elements): "a DASH manifest of more than \(elements) elements"
        case let .tooDeep(levels): "a DASH manifest nested more than \(levels) levels deep"
        }
    }
}
