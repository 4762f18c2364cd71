import Foundation

/// Reads an HLS playlist (RFC 8216) from hostile bytes: bounded in size, line length and segment count; every
/// URI resolved against the playlist's own link and held to http(s); anything haul cannot download refused with
/// the line it is on (DESIGN §9). Pure: tested, and fuzzed, without a network.
public enum PlaylistParser {
    public static let maxBytes = 16 << 20
    public static let maxLineBytes = 64 << 10
    public static let maxSegments = 100_000
    /// Bytes every link of a playlist may take once resolved against the playlist's address.
    public static let maxResolvedBytes = 32 << 20
    public static let maxVariants = 1_000
    /// An `EXTINF` of this many seconds or more (11 days) is no segment.
    public static let maxSegmentSeconds: Double = 1_000_000

    /// Whether a response is a playlist: its body starts with `#EXTM3U` (after a byte order mark and blanks),
    /// or its content type is HLS's.
    public static func isPlaylist(prefix: some Collection<UInt8>, contentType: String?) -> Bool {
        if let type = MediaType.essence(of: contentType),
           ["application/vnd.apple.mpegurl", "application/x-mpegurl", "audio/mpegurl", "audio/x-mpegurl"].contains(type) {
            return true
        }
        var bytes = Array(prefix.prefix(64))[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        return bytes.drop(while: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }).starts(with: Array("#EXTM3U".utf8))
    }

    /// The playlist `bytes` hold, fetched from `url` (relative URIs resolve against it).
    public static func parse(_ bytes: [UInt8], url: String) throws(PlaylistError) -> Playlist {
        guard bytes.count <= maxBytes else { throw PlaylistError(line: nil, .tooLarge(limit: maxBytes)) }
        var state = ParseState(base: URL(string: url))
        var sawHeader = false
        for (index, raw) in InputFile.lines(of: bytes).enumerated() {
            let number = index + 1
            guard raw.count <= maxLineBytes else { throw PlaylistError(line: number, .lineTooLong(limit: maxLineBytes)) }
            guard let text = String(validating: raw, as: UTF8.self) else { throw PlaylistError(line: number, .invalidUTF8) }
            let line = Substring(text).trimmingHTTPWhitespace()
            if line.isEmpty { continue }
            guard sawHeader else {
                guard line == "#EXTM3U" else {
                    throw PlaylistError(line: number, .notAPlaylist(html: line.first == "<"))
                }
                sawHeader = true
                continue
            }
            if line.hasPrefix("#") {
                try state.tag(line, line: number)
            } else {
                try state.uri(String(line), line: number)
            }
        }
        guard sawHeader else { throw PlaylistError(line: nil, .notAPlaylist(html: false)) }
        return try state.finish()
    }
}

/// What the parser has read so far.
private struct ParseState {
    let base: URL?
    var variants: [Variant] = []
    var renditions: [Rendition] = []
    var pendingVariant: Variant?
    var segments: [MediaSegment] = []
    var targetDuration: Int?
    var mediaSequence: Int64 = 0
    var ended = false
    /// For the next segment.
    var duration: Double?
    var durationLine = 0
    var byteRange: (length: Int64, offset: Int64?)?
    var byteRangeLine = 0
    var discontinuity = false
    /// In force for the segments that follow.
    var key: (uri: String, iv: [UInt8]?)?
    var initSection: InitSection?
    /// Where the last byte range of each URI ended, for a range without an offset.
    var rangeEnds: [String: Int64] = [:]
    /// Bytes of the links resolved so far.
    var resolvedBytes = 0
    /// Whether any `#EXT-X-` tag was read: a list without one is a plain M3U (a music playlist), not HLS.
    var sawHLSTag = false

    init(base: URL?) { self.base = base }

    mutating func tag(_ line: Substring, line number: Int) throws(PlaylistError) {
        let colon = line.firstIndex(of: ":") ?? line.endIndex
        let name = String(line[..<colon])
        let value = colon == line.endIndex ? "" : line[line.index(after: colon)...]
        if name.hasPrefix("#EXT-X-") { sawHLSTag = true }
        func attributes() throws(PlaylistError) -> PlaylistAttributes {
            guard let attributes = PlaylistAttributes(value) else { throw PlaylistError(line: number, .malformedTag(name)) }
            return attributes
        }
        switch name {
        case "#EXT-X-STREAM-INF":
            guard segments.isEmpty, duration == nil else { throw PlaylistError(line: number, .mixed) }
            let list = try attributes()
            guard let bandwidth = list.integer("BANDWIDTH"), bandwidth >= 0 else { throw PlaylistError(line: number, .malformedTag(name)) }
            let resolution = list.resolution("RESOLUTION")
            if let resolution, !resolution.isPlausible {
                throw PlaylistError(line: number, .outOfRange(
                    "RESOLUTION", resolution.description, limit: "at most \(Resolution.maxSide) pixels a side"))
            }
            pendingVariant = Variant(
                uri: "", bandwidth: bandwidth, averageBandwidth: list.integer("AVERAGE-BANDWIDTH"),
                resolution: resolution, codecs: list["CODECS"], audioGroup: list["AUDIO"],
                subtitleGroup: list["SUBTITLES"], line: number)
        case "#EXT-X-MEDIA":
            let list = try attributes()
            guard let type = list["TYPE"].flatMap(Rendition.Kind.init(rawValue:)), let group = list["GROUP-ID"] else {
                throw PlaylistError(line: number, .malformedTag(name))
            }
            let uri = try list["URI"].map { text throws(PlaylistError) in try resolve(text, what: "rendition", line: number) }
            renditions.append(Rendition(
                type: type, groupID: group, name: list["NAME"] ?? group, language: list["LANGUAGE"],
                isDefault: list["DEFAULT"] == "YES", uri: uri))
        case "#EXTINF":
            guard variants.isEmpty, pendingVariant == nil else { throw PlaylistError(line: number, .mixed) }
            let text = value.prefix { $0 != "," }.trimmingHTTPWhitespace()
            guard let seconds = Double(text), seconds.isFinite, seconds >= 0, seconds < PlaylistParser.maxSegmentSeconds else {
                throw PlaylistError(line: number, .invalidDuration(String(text)))
            }
            duration = seconds
            durationLine = number
        case "#EXT-X-TARGETDURATION":
            guard let seconds = Int(value), seconds >= 0 else { throw PlaylistError(line: number, .malformedTag(name)) }
            targetDuration = seconds
        case "#EXT-X-MEDIA-SEQUENCE":
            // Every segment's number counts from it: it cannot change once one was numbered.
            guard segments.isEmpty, duration == nil else { throw PlaylistError(line: number, .tagAfterSegments(name)) }
            guard let sequence = Int64(value), sequence >= 0 else { throw PlaylistError(line: number, .malformedTag(name)) }
            // Every segment's number must fit: the sequence plus the most segments a playlist may have.
            let largest = Int64.max - Int64(PlaylistParser.maxSegments)
            guard sequence <= largest else { throw PlaylistError(line: number, .outOfRange(name, String(value), limit: "at most \(largest)")) }
            mediaSequence = sequence
        case "#EXT-X-BYTERANGE":
            guard let range = Self.byteRange(value) else { throw PlaylistError(line: number, .malformedTag(name)) }
            byteRange = range
            byteRangeLine = number
        case "#EXT-X-DISCONTINUITY":
            discontinuity = true
        case "#EXT-X-ENDLIST":
            ended = true
        case "#EXT-X-KEY":
            let list = try attributes()
            switch list["METHOD"] {
            case "NONE":
                key = nil
            case "AES-128":
                if let format = list["KEYFORMAT"], format != "identity" {
                    throw PlaylistError(line: number, .unsupportedKeyFormat(format))
                }
                guard let uri = list["URI"], case let .some(iv) = list.iv("IV") else {
                    throw PlaylistError(line: number, .malformedTag(name))
                }
                key = (try resolve(uri, what: "key", line: number), iv)
            case let method?:
                throw PlaylistError(line: number, .unsupportedEncryption(method))
            case nil:
                throw PlaylistError(line: number, .malformedTag(name))
            }
        case "#EXT-X-MAP":
            let list = try attributes()
            guard let uri = list["URI"] else { throw PlaylistError(line: number, .malformedTag(name)) }
            let resolved = try resolve(uri, what: "init section", line: number)
            var range: Range<Int64>?
            if let text = list["BYTERANGE"] {
                guard let parsed = Self.byteRange(Substring(text)) else { throw PlaylistError(line: number, .malformedTag(name)) }
                range = try Self.range(from: parsed.offset ?? 0, length: parsed.length, text: text, line: number)
            }
            // The key in force applies to the init section too; without an IV, the next segment's number is its IV.
            let sequence = mediaSequence + Int64(segments.count)
            initSection = InitSection(
                uri: resolved, byteRange: range,
                key: key.map { SegmentKey(uri: $0.uri, iv: $0.iv ?? SegmentKey.implicitIV(sequence: sequence)) })
        case "#EXT-X-PLAYLIST-TYPE":
            // VOD or EVENT: either without an end list is recorded live as it grows (`LiveRecording`).
            break
        default:
            // Comments and tags that change nothing haul fetches (EXT-X-VERSION, EXT-X-INDEPENDENT-SEGMENTS, …).
            break
        }
    }

    mutating func uri(_ text: String, line number: Int) throws(PlaylistError) {
        if var variant = pendingVariant {
            guard variants.count < PlaylistParser.maxVariants else { throw PlaylistError(line: number, .tooManySegments(limit: PlaylistParser.maxVariants)) }
            variant.uri = try resolve(text, what: "variant", line: number)
            variants.append(variant)
            pendingVariant = nil
            return
        }
        guard let seconds = duration else {
            // A URI line with no EXTINF before it: RFC 8216 requires one.
            throw PlaylistError(line: number, .malformedTag("#EXTINF"))
        }
        guard segments.count < PlaylistParser.maxSegments else {
            throw PlaylistError(line: number, .tooManySegments(limit: PlaylistParser.maxSegments))
        }
        let resolved = try resolve(text, what: "segment", line: number)
        var range: Range<Int64>?
        if let byteRange {
            guard let offset = byteRange.offset ?? rangeEnds[resolved] else { throw PlaylistError(line: number, .malformedTag("#EXT-X-BYTERANGE")) }
            let text = "\(byteRange.length)@\(offset)"
            let bytes = try Self.range(from: offset, length: byteRange.length, text: text, line: byteRangeLine)
            range = bytes
            rangeEnds[resolved] = bytes.upperBound
        }
        let sequence = mediaSequence + Int64(segments.count)
        segments.append(MediaSegment(
            sequence: sequence, duration: seconds, uri: resolved, byteRange: range,
            key: key.map { SegmentKey(uri: $0.uri, iv: $0.iv ?? SegmentKey.implicitIV(sequence: sequence)) },
            initSection: initSection, discontinuity: discontinuity, line: number))
        duration = nil
        byteRange = nil
        discontinuity = false
    }

    func finish() throws(PlaylistError) -> Playlist {
        if !variants.isEmpty || pendingVariant != nil {
            guard pendingVariant == nil else { throw PlaylistError(line: pendingVariant?.line, .truncated) }
            return .master(MasterPlaylist(variants: variants, renditions: renditions))
        }
        if duration != nil { throw PlaylistError(line: durationLine, .truncated) }
        guard !segments.isEmpty else { throw PlaylistError(line: nil, .empty) }
        // A list of entries without an end and without any `#EXT-X-` tag is a plain M3U (a music playlist, say). A live
        // HLS playlist always has tags (`EXT-X-TARGETDURATION` is required, RFC 8216 §4.3.3.1).
        guard ended || sawHLSTag else { throw PlaylistError(line: nil, .plainM3U) }
        return .media(MediaPlaylist(
            targetDuration: targetDuration ?? Int(segments.map(\.duration).max()?.rounded(.up) ?? 0),
            mediaSequence: mediaSequence, segments: segments, isLive: !ended))
    }

    /// `text` resolved against the playlist's link; only an http(s) link passes.
    private mutating func resolve(_ text: String, what: String, line: Int) throws(PlaylistError) -> String {
        guard let resolved = URL(string: text, relativeTo: base)?.absoluteString,
              let valid = try? URLValidation.validate(resolved)
        else { throw PlaylistError(line: line, .unsupportedURI(what: what, URLValidation.redacted(text))) }
        // Short relative links against a long base multiply: what they take resolved is bounded, not only the text.
        resolvedBytes += valid.utf8.count
        guard resolvedBytes <= PlaylistParser.maxResolvedBytes else {
            throw PlaylistError(line: line, .linksTooLarge(limit: PlaylistParser.maxResolvedBytes))
        }
        return valid
    }

    /// `length` bytes from `offset` (`text` as the playlist gives them): no byte range ends past `StatedSize.limit`,
    /// the largest file haul accepts, so its end never overflows.
    static func range(from offset: Int64, length: Int64, text: String, line: Int) throws(PlaylistError) -> Range<Int64> {
        guard offset <= StatedSize.limit, length <= StatedSize.limit - offset else {
            throw PlaylistError(line: line, .outOfRange(
                "BYTERANGE", text, limit: "it must end by byte \(StatedSize.limit), the largest file haul accepts"))
        }
        return offset..<(offset + length)
    }

    /// `LENGTH[@OFFSET]`.
    static func byteRange(_ text: Substring) -> (length: Int64, offset: Int64?)? {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count <= 2, let length = Int64(parts[0]), length > 0 else { return nil }
        guard parts.count == 2 else { return (length, nil) }
        guard let offset = Int64(parts[1]), offset >= 0 else { return nil }
        return (length, offset)
    }
}
