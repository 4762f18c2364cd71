/// A video chosen from a page (`PageChoice`): the link haul fetches for it, with the headers its requests carry and
/// the name it is saved under.
public struct PageMedia: Sendable, Equatable {
    /// An http(s) link: a master playlist, a DASH manifest or the file itself.
    public var url: String
    /// The format yt-dlp calls it (`hls-70`, `0`): asked for again when its link expires.
    public var formatID: String?
    /// `K: V` lines, checked as `-H` lines are.
    public var headers: [String]
    /// The title as a safe file name without extension (`SafeFileName`); streams add their container's.
    public var stem: String
    /// The whole name for a file (stem and extension); nil for a stream, whose container decides its extension.
    public var fileName: String?

    public init(url: String, formatID: String?, headers: [String], stem: String, fileName: String?) {
        self.url = url
        self.formatID = formatID
        self.headers = headers
        self.stem = stem
        self.fileName = fileName
    }
}

/// What a page gives: its videos, and for a playlist page the group they are added as.
public struct PageSelection: Sendable, Equatable {
    public var media: [PageMedia]
    /// The playlist's title (or id) when the page holds several videos.
    public var group: String?

    public init(media: [PageMedia], group: String?) {
        self.media = media
        self.group = group
    }
}
