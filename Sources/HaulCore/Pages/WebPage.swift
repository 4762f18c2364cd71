/// The web page a task's link came from (DESIGN §11), stored with the task: yt-dlp is asked again for the same format
/// when its link expires. A page kept as a file carries the note that says why.
public struct WebPage: Sendable, Equatable, Codable {
    /// The page's link, as the user gave it.
    public var url: String
    /// The format chosen (`PageMedia.formatID`); nil for a page kept as a file.
    public var formatID: String?
    /// The title as a file name's stem: a stream from the page is saved as `stem.ts` or `stem.mp4`.
    public var stem: String?
    /// Said in details and `haul list --json`: why a page was kept as a file.
    public var note: String?

    public init(url: String, formatID: String? = nil, stem: String? = nil, note: String? = nil) {
        self.url = url
        self.formatID = formatID
        self.stem = stem
        self.note = note
    }

    /// Whether the task's link is a video found on the page (not the page itself).
    public var isVideo: Bool { formatID != nil || stem != nil }
}
