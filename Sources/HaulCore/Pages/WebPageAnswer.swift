/// Whether an answer is a web page (DESIGN §11): decided by haul's own answer, its `Content-Type`, never by asking
/// yt-dlp (which "succeeds" on any link, a `.bin` as well).
public enum WebPageAnswer {
    /// The media types of a web page.
    static let types: Set<String> = ["text/html", "application/xhtml+xml"]

    /// Whether `contentType` (a header value, parameters allowed) names a web page.
    public static func isPage(contentType: String?) -> Bool {
        MediaType.essence(of: contentType).map(types.contains) ?? false
    }
}
