/// An HLS playlist (RFC 8216) as haul uses it: a master playlist that lists variants, or a media playlist
/// that lists segments (DESIGN §9). Every URI is absolute and http(s); `PlaylistParser` makes them.
public enum Playlist: Sendable, Equatable {
    case master(MasterPlaylist)
    case media(MediaPlaylist)
}

/// The variants of a stream and their renditions.
public struct MasterPlaylist: Sendable, Equatable {
    public var variants: [Variant]
    /// `EXT-X-MEDIA` renditions (separate audio, say), by group.
    public var renditions: [Rendition]

    public init(variants: [Variant], renditions: [Rendition] = []) {
        self.variants = variants
        self.renditions = renditions
    }

    /// The audio rendition to fetch beside `variant`: the first of its `AUDIO` group in a language of `languages`
    /// (`--stream-audio`), else the group's default one (else its first), when it has its own URI; nil when the
    /// variant carries its audio.
    public func audio(for variant: Variant, languages: [String] = []) -> Rendition? {
        guard let group = variant.audioGroup else { return nil }
        let members = renditions.filter { $0.type == .audio && $0.groupID == group && $0.uri != nil }
        for language in languages {
            if let match = members.first(where: { $0.speaks(language) }) { return match }
        }
        return members.first(where: \.isDefault) ?? members.first
    }

    /// The subtitle renditions of `variant`'s `SUBTITLES` group that `choice` asks for (`--stream-subs`).
    public func subtitles(for variant: Variant, _ choice: SubtitleChoice) -> [Rendition] {
        guard let group = variant.subtitleGroup else { return [] }
        let members = renditions.filter { $0.type == .subtitles && $0.groupID == group && $0.uri != nil }
        switch choice {
        case .none: return []
        case .all: return members
        case let .languages(languages):
            return members.filter { member in languages.contains { member.speaks($0) } }
        }
    }
}

/// One `EXT-X-STREAM-INF` entry.
public struct Variant: Sendable, Equatable {
    public var uri: String
    /// Peak bits per second (`BANDWIDTH`).
    public var bandwidth: Int64
    public var averageBandwidth: Int64?
    public var resolution: Resolution?
    public var codecs: String?
    /// The `AUDIO` group its audio comes from, and the `SUBTITLES` group of its subtitles.
    public var audioGroup: String?
    public var subtitleGroup: String?
    /// Its line in the playlist.
    public var line: Int

    public init(uri: String, bandwidth: Int64, averageBandwidth: Int64? = nil, resolution: Resolution? = nil,
                codecs: String? = nil, audioGroup: String? = nil, subtitleGroup: String? = nil, line: Int = 0) {
        self.uri = uri
        self.bandwidth = bandwidth
        self.averageBandwidth = averageBandwidth
        self.resolution = resolution
        self.codecs = codecs
        self.audioGroup = audioGroup
        self.subtitleGroup = subtitleGroup
        self.line = line
    }
}

public struct Resolution: Sendable, Equatable, Comparable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Larger sides are no video: a playlist that states one is refused (`PlaylistParser`).
    public static let maxSide = 65_535

    public var isPlausible: Bool { (1...Self.maxSide).contains(width) && (1...Self.maxSide).contains(height) }

    /// By area; the full-width product never overflows, whatever the sides.
    public static func < (a: Resolution, b: Resolution) -> Bool {
        let (left, right) = (a.width.multipliedFullWidth(by: a.height), b.width.multipliedFullWidth(by: b.height))
        return (left.high, left.low) < (right.high, right.low)
    }
    public var description: String { "\(width)x\(height)" }
}

/// One `EXT-X-MEDIA` entry.
public struct Rendition: Sendable, Equatable {
    public enum Kind: String, Sendable { case audio = "AUDIO", video = "VIDEO", subtitles = "SUBTITLES", closedCaptions = "CLOSED-CAPTIONS" }
    public var type: Kind
    public var groupID: String
    public var name: String
    public var language: String?
    public var isDefault: Bool
    /// Its own media playlist; nil when its media is in the variant's.
    public var uri: String?

    /// Whether it is in `language` as a person asks for it: its `LANGUAGE` or `NAME`, case aside, or a language code
    /// of the same language (`en` for `en-US` or `eng`, `deu` for `de`).
    public func speaks(_ language: String) -> Bool {
        let wanted = language.lowercased()
        guard !wanted.isEmpty else { return false }
        if name.lowercased() == wanted { return true }
        guard let own = self.language?.lowercased(), wanted.count >= 2 else { return false }
        // A two-letter code and a three-letter one of the same language share their first letters (de, deu).
        let primary = own.split(separator: "-").first.map(String.init) ?? own
        return own == wanted || own.hasPrefix(wanted) || primary == wanted || (primary.count == 2 && wanted.hasPrefix(primary))
    }

    public init(type: Kind, groupID: String, name: String, language: String? = nil, isDefault: Bool = false, uri: String? = nil) {
        self.type = type
        self.groupID = groupID
        self.name = name
        self.language = language
        self.isDefault = isDefault
        self.uri = uri
    }
}

/// The segments of one rendition: of a video on demand, or the window a live stream lists now.
public struct MediaPlaylist: Sendable, Equatable {
    /// `EXT-X-TARGETDURATION`, seconds.
    public var targetDuration: Int
    /// The first segment's media sequence number (`EXT-X-MEDIA-SEQUENCE`).
    public var mediaSequence: Int64
    public var segments: [MediaSegment]
    /// No `EXT-X-ENDLIST`: a live (or event) stream whose playlist grows while it plays (`LiveRecording`).
    public var isLive: Bool

    public init(targetDuration: Int, mediaSequence: Int64 = 0, segments: [MediaSegment], isLive: Bool = false) {
        self.targetDuration = targetDuration
        self.mediaSequence = mediaSequence
        self.segments = segments
        self.isLive = isLive
    }

    /// Seconds of media in all.
    public var duration: Double { segments.reduce(0) { $0 + $1.duration } }

    /// Whether the segments are fragmented MP4 (an `EXT-X-MAP` init section), which decides the extension.
    public var isFragmentedMP4: Bool { segments.contains { $0.initSection != nil } }

    /// Whether any segment is encrypted.
    public var isEncrypted: Bool { segments.contains { $0.key != nil } }

    /// Discontinuities between segments (`EXT-X-DISCONTINUITY` after the first segment): where timestamps may restart.
    public var discontinuityCount: Int { segments.dropFirst().count(where: \.discontinuity) }

    /// The first segment after the first whose init section (`EXT-X-MAP`, its link and range) is not the one
    /// before it; nil when every segment shares one (or none has any).
    public var initSectionChange: MediaSegment? {
        zip(segments, segments.dropFirst()).first { previous, segment in
            previous.initSection?.uri != segment.initSection?.uri || previous.initSection?.byteRange != segment.initSection?.byteRange
        }?.1
    }
}

/// One media segment.
public struct MediaSegment: Sendable, Equatable {
    /// Its media sequence number.
    public var sequence: Int64
    /// `EXTINF` seconds.
    public var duration: Double
    public var uri: String
    /// The bytes of `uri` it is, for `EXT-X-BYTERANGE`; nil for the whole resource.
    public var byteRange: Range<Int64>?
    /// How it is encrypted; nil for clear.
    public var key: SegmentKey?
    /// The init section (`EXT-X-MAP`) it needs before it.
    public var initSection: InitSection?
    /// `EXT-X-DISCONTINUITY` before it.
    public var discontinuity: Bool
    /// Its URI's line in the playlist.
    public var line: Int

    public init(sequence: Int64, duration: Double, uri: String, byteRange: Range<Int64>? = nil, key: SegmentKey? = nil,
                initSection: InitSection? = nil, discontinuity: Bool = false, line: Int = 0) {
        self.sequence = sequence
        self.duration = duration
        self.uri = uri
        self.byteRange = byteRange
        self.key = key
        self.initSection = initSection
        self.discontinuity = discontinuity
        self.line = line
    }
}

/// `METHOD=AES-128`: the key's URI and the 16-byte IV (from the tag, else the sequence number).
public struct SegmentKey: Sendable, Equatable, Hashable {
    public var uri: String
    public var iv: [UInt8]

    public init(uri: String, iv: [UInt8]) {
        self.uri = uri
        self.iv = iv
    }

    /// RFC 8216 §5.2: without an `IV` attribute, the media sequence number as a 128-bit big-endian integer.
    public static func implicitIV(sequence: Int64) -> [UInt8] {
        let value = UInt64(bitPattern: sequence)
        return [UInt8](repeating: 0, count: 8) + (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * (7 - $0))) }
    }
}

/// `EXT-X-MAP`: the init section of fragmented MP4 segments.
public struct InitSection: Sendable, Equatable, Hashable {
    public var uri: String
    public var byteRange: Range<Int64>?
    /// How it is encrypted: an `EXT-X-KEY` before the `EXT-X-MAP` applies to it too (RFC 8216 §4.3.2.4); nil for clear.
    public var key: SegmentKey?

    public init(uri: String, byteRange: Range<Int64>? = nil, key: SegmentKey? = nil) {
        self.uri = uri
        self.byteRange = byteRange
        self.key = key
    }
}
