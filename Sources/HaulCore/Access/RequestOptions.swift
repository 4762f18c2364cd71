/// How a task reaches its server besides its link and headers: a proxy, a cookies file, a netrc file.
/// Checked by the intake and stored with the task (DESIGN §8).
public struct RequestOptions: Sendable, Equatable, Codable {
    /// The proxies recorded when the task was added; nil for a task from before they were recorded, which
    /// follows the environment of the haul that runs it.
    public var proxies: ProxySettings?
    /// A Netscape `cookies.txt` read each time the task starts (absolute path).
    public var cookiesFile: String?
    /// A `.netrc` whose entry for the link's host gives the login (absolute path; curl's rules).
    public var netrcFile: String?
    /// How the finished file is published: over a file already at its name (`--allow-overwrite`), instead of
    /// under a numbered name.
    public var allowOverwrite: Bool?
    /// The part file is a partial file `-c` moved from the final name, and no 206 has continued it yet: when
    /// the download starts over, fails for good or is removed, it goes back to that name (`PartialAdoption`).
    public var continuesPartialFile: Bool?
    /// `--stream off`: a playlist is saved as a file instead of becoming a stream task (DESIGN §9).
    public var streamOff: Bool?
    /// `--stream-quality`: which variant of a master playlist (`VariantChoice`); nil for the best.
    public var streamQuality: String?
    /// `--stream-remux mp4`: a finished MPEG-TS stream is remuxed into MP4 with `ffmpeg -c copy`.
    public var streamRemux: String?
    /// `--live-limit`: seconds of media after which a live recording stops; nil: until the stream ends.
    public var liveLimit: Double?
    /// `--stream-audio`: the audio rendition by language, in order of preference; nil: the stream's default.
    public var streamAudio: [String]?
    /// `--stream-subs`: the subtitle renditions to fetch ("all", or languages separated by commas); nil: none.
    public var streamSubs: String?

    /// The subtitle renditions asked for.
    public var subtitleChoice: SubtitleChoice { streamSubs.flatMap(SubtitleChoice.init(parsing:)) ?? .none }

    /// Connections per download a settings rule set when the task was added (nil: the run's `--split`).
    public var split: Int?
    /// A cap a settings rule set when the task was added, bytes per second (nil: the run's `--limit-rate`).
    public var rateLimit: Int64?
    /// The settings file's `[[rule]]` that applied when the task was added (`host = "…" (FILE:LINE)`).
    public var rule: String?
    /// The settings file's `[[category]]` that chose the task's directory (`category mp4,mkv (FILE:LINE)`).
    public var category: String?
    /// Directories by response `Content-Type` (the settings file's `[[category]]` with `content-types`), for a
    /// task whose directory nothing else chose: the first response picks one, before the name is decided.
    public var contentTypeDirectories: [ContentTypeDirectory]?

    public init(proxies: ProxySettings? = nil, cookiesFile: String? = nil, netrcFile: String? = nil) {
        self.proxies = proxies
        self.cookiesFile = cookiesFile
        self.netrcFile = netrcFile
    }

    /// The variant choice for a master playlist.
    public var variantChoice: VariantChoice { streamQuality.flatMap(VariantChoice.init(parsing:)) ?? .best }

    /// Nothing set.
    public var isEmpty: Bool { self == RequestOptions() }
}

/// One content type's directory, as stored with a task (`RequestOptions.contentTypeDirectories`).
public struct ContentTypeDirectory: Sendable, Equatable, Codable {
    /// A media type (`video/mp4`) or a type with any subtype (`video/*`).
    public var contentType: String
    public var directory: String
    /// The category's label, recorded with the task when it applies.
    public var category: String

    public init(contentType: String, directory: String, category: String) {
        self.contentType = contentType
        self.directory = directory
        self.category = category
    }
}
