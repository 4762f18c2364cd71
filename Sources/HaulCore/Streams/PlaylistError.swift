/// Why a playlist cannot be downloaded, with the line it concerns; the description names it.
public struct PlaylistError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// The answer is not a playlist (no `#EXTM3U` first); `html` when it is a web page.
        case notAPlaylist(html: Bool)
        case tooLarge(limit: Int)
        case invalidUTF8
        case lineTooLong(limit: Int)
        case tooManySegments(limit: Int)
        /// Its links, resolved against the playlist's address, take more than `limit` bytes.
        case linksTooLarge(limit: Int)
        /// A tag whose value cannot be read (the tag's name).
        case malformedTag(String)
        /// A tag that must come before the first segment and comes after one (the tag's name).
        case tagAfterSegments(String)
        case invalidDuration(String)
        /// A number past what haul can use (the attribute or tag, its value, the bound it must keep).
        case outOfRange(String, String, limit: String)
        /// A URI that is not http(s) after resolving (what it is for, the URI without credentials).
        case unsupportedURI(what: String, String)
        /// A live stream that ended (the reason) before any segment of it could be recorded.
        case liveNothingRecorded(String)
        /// An M3U list without any HLS tag (a music playlist): no HLS media playlist; `--stream off` keeps it as a file.
        case plainM3U
        /// The init section (`EXT-X-MAP`) changes at a segment after the first (`segment`: its index): one file
        /// cannot hold segments that need two init sections.
        case initSectionChanges(segment: Int)
        /// `SAMPLE-AES` and other methods than AES-128 (the method).
        case unsupportedEncryption(String)
        /// A key format other than `identity` (DRM).
        case unsupportedKeyFormat(String)
        /// The last segment tag has no URI after it.
        case truncated
        /// Master and media tags in one playlist.
        case mixed
        /// A master playlist without variants, or a media playlist without segments.
        case empty
        /// A variant that is itself a master playlist (haul follows master → media only).
        case nestedMaster
        /// A DASH manifest haul cannot use, and why.
        case manifest(String)
        /// Media protected by a DRM scheme (its name).
        case drm(String)
    }

    /// The 1-based line, nil for the whole playlist.
    public var line: Int?
    public var reason: Reason

    public init(line: Int?, _ reason: Reason) {
        self.line = line
        self.reason = reason
    }

    public var description: String {
        let place = line.map { "playlist line \($0): " } ?? "playlist: "
        return place + text
    }

    private var text: String {
        switch reason {
        case let .notAPlaylist(html):
            return html ? "the answer is a web page (HTML), not an HLS playlist" : "not an HLS playlist (it does not start with #EXTM3U)"
        case let .tooLarge(limit): return "larger than \(ByteCountFormat.size(Int64(limit)))"
        case .invalidUTF8: return "not UTF-8 text"
        case let .lineTooLong(limit): return "longer than \(ByteCountFormat.size(Int64(limit)))"
        case let .tooManySegments(limit): return "more than \(limit) segments"
        case let .linksTooLarge(limit):
            return "its links, resolved against the playlist's address, take more than \(ByteCountFormat.size(Int64(limit)))"
        case let .malformedTag(tag): return "\(tag) cannot be read"
        case let .tagAfterSegments(tag): return "\(tag) must come before the first segment"
        case let .invalidDuration(text):
            return "segment duration '\(text.escapingAllControlCharacters)' is not a number of seconds from 0 to under "
                + "\(Int(PlaylistParser.maxSegmentSeconds))"
        case let .outOfRange(name, value, limit):
            return "\(name) '\(value.escapingAllControlCharacters)' is out of range (\(limit))"
        case let .unsupportedURI(what, uri): return "\(what) URI '\(uri.escapingAllControlCharacters)' is not an http(s) link"
        case let .liveNothingRecorded(reason): return "a live stream that ended before any segment was recorded: \(reason)"
        case .plainM3U:
            return "not an HLS media playlist (a plain M3U list without #EXT-X- tags, such as a music playlist): "
                + "--stream off keeps it as a file"
        case let .initSectionChanges(segment):
            return "the init section (EXT-X-MAP) changes at segment \(segment): one file cannot hold segments of two init "
                + "sections (appended, they give a file that does not play), so nothing is downloaded"
        case let .unsupportedEncryption(method): return "encryption \(method.escapingAllControlCharacters) is not supported (AES-128 is)"
        case let .unsupportedKeyFormat(format): return "key format '\(format.escapingAllControlCharacters)' is DRM, which haul does not decrypt"
        case .truncated: return "truncated: the last segment has no URI"
        case .mixed: return "mixes variant and segment tags"
        case .empty: return "lists nothing to download"
        case .nestedMaster: return "a variant is itself a list of variants (haul follows one level)"
        case let .manifest(text): return text.escapingAllControlCharacters
        case let .drm(scheme): return "the video is protected by DRM (\(scheme.escapingAllControlCharacters)), which haul does not decrypt"
        }
    }
}
