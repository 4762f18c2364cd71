/// What file a stream becomes (DESIGN §9, §11 "HLS output plays right"), decided once its media playlists are known
/// and before a byte is written. Pure: tested without a network or ffmpeg.
///
/// - The name given with `-o` decides the container: a known video extension other than the segments' own is
///   remuxed into by ffmpeg, and without ffmpeg the stream is refused at once, naming the extension that is right.
/// - Discontinuities restart the timestamps: with ffmpeg an MPEG-TS stream is remuxed as it is (a copy, as yt-dlp's
///   fixup does), so its duration and seeking are right; otherwise a note says that the timestamps restart.
/// - An init section (`EXT-X-MAP`) that changes mid-stream is refused naming the segment: appended into one file
///   it gives a file that does not play.
public struct StreamOutput: Sendable, Equatable {
    /// The container the segments come in: "ts", or "mp4" for fragmented MP4.
    public var container: String
    /// The container of the finished file, as its extension ("mp4", "mkv", "ts"): the segments' own when nothing
    /// is remuxed.
    public var format: String
    /// ffmpeg copies the stream into a new file even where `format` is the segments' own, to mend its timestamps.
    public var mendsTimestamps: Bool
    /// Said in details and at the end when the file is not what a player expects (no ffmpeg to mend it).
    public var note: String?

    public init(container: String, format: String, mendsTimestamps: Bool, note: String?) {
        self.container = container
        self.format = format
        self.mendsTimestamps = mendsTimestamps
        self.note = note
    }

    /// Extensions haul can remux a stream into, with ffmpeg's name for each muxer.
    public static let muxers: [String: String] = ["ts": "mpegts", "mp4": "mp4", "m4v": "mp4", "mov": "mov", "mkv": "matroska"]

    /// The codec subtitles take in a container ffmpeg makes (mov_text in MP4 and MOV, WebVTT in Matroska); nil for one
    /// that takes none (MPEG-TS): its subtitles stay beside it only.
    public static func subtitleCodec(for format: String) -> String? {
        switch format {
        case "mp4", "m4v", "mov": "mov_text"
        case "mkv": "webvtt"
        default: nil
        }
    }

    /// Why a stream is not downloaded.
    public enum Refusal: Error, Sendable, Equatable {
        /// The init section changes at this segment (its index and the line of its link).
        case initSectionChanges(segment: Int, line: Int)
        /// `-o NAME` asks for another container than the segments' and ffmpeg is not installed: the name that fits.
        case containerNeedsFFmpeg(requested: String, container: String, suggested: String)
    }

    /// The output for the media playlists of a stream (`audio`: a separate audio rendition), the name given with `-o`,
    /// `--stream-remux`, and whether ffmpeg is on PATH.
    public static func decide(
        video: MediaPlaylist, audio: MediaPlaylist?, requestedName: String?, remux: String?, ffmpeg: Bool
    ) -> Result<StreamOutput, Refusal> {
        for media in [video] + (audio.map { [$0] } ?? []) {
            if let segment = media.initSectionChange {
                return .failure(.initSectionChanges(segment: Int(segment.sequence - media.mediaSequence), line: segment.line))
            }
        }
        let container = video.isFragmentedMP4 ? "mp4" : "ts"
        let named = requestedName.flatMap(Self.knownExtension)
        if let named, named != container, !ffmpeg {
            let suggested = StreamFileName.remuxed(requestedName ?? "", container: container)
            return .failure(.containerNeedsFFmpeg(requested: requestedName ?? "", container: container, suggested: suggested))
        }
        let format = named ?? remux ?? container
        let breaks = video.discontinuityCount
        // ffmpeg joins up timestamps that jump in MPEG-TS; fragments of fMP4 keep theirs through a copy.
        let mends = breaks > 0 && ffmpeg && container == "ts"
        var output = StreamOutput(container: container, format: format, mendsTimestamps: mends, note: nil)
        if breaks > 0, !mends {
            let why = ffmpeg ? "haul joins them up in MPEG-TS streams only, and this one is fragmented MP4"
                : "ffmpeg is not installed to remux it"
            output.note = "the stream has \(breaks) discontinuit\(breaks == 1 ? "y" : "ies") and \(why): "
                + "the file's timestamps restart at each, so players may show a wrong duration and seek badly"
        }
        return .success(output)
    }

    /// The container `--stream-remux` or a name asks for: the file's name when it was given with a known extension.
    public static func format(requestedName: String?, remux: String?, container: String) -> String {
        requestedName.flatMap(knownExtension) ?? remux ?? container
    }

    /// The lowercased extension of `name` when haul can remux into it ("mp4", "mkv", "ts"…); nil otherwise.
    static func knownExtension(_ name: String) -> String? {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let ext = name[name.index(after: dot)...].lowercased()
        return muxers[ext] == nil ? nil : ext
    }

    /// Whether the parts go through ffmpeg before they are published.
    public var remuxes: Bool { format != container || mendsTimestamps }
}

extension StreamOutput.Refusal: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .initSectionChanges(segment, line):
            return PlaylistError(line: line, .initSectionChanges(segment: segment)).description
        case let .containerNeedsFFmpeg(requested, container, suggested):
            let kind = container == "mp4" ? "fragmented MP4" : "MPEG-TS"
            return "-o \(requested.escapingAllControlCharacters) names another container than the stream's (\(kind)), and ffmpeg "
                + "is not installed to remux it: name it \(suggested.escapingAllControlCharacters), or install ffmpeg"
        }
    }
}
