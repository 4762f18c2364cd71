import Foundation

/// Links in a DASH manifest: `BaseURL` at each level resolves against the one above it, and every segment link
/// against its representation's; only http(s) links are downloaded.
enum DASHLink {
    /// The base for what `node` holds: its first `BaseURL` resolved against `base`, else `base`.
    static func base(of node: XMLNode, over base: String) throws(PlaylistError) -> String {
        guard let text = node.first("BaseURL")?.text, !text.isEmpty else { return base }
        return try resolve(text, against: base, what: "BaseURL")
    }

    /// `link` resolved against `base`; refused unless it is http(s).
    static func resolve(_ link: String, against base: String, what: String) throws(PlaylistError) -> String {
        guard let url = URL(string: link, relativeTo: URL(string: base))?.absoluteURL,
              let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else { throw PlaylistError(line: nil, .unsupportedURI(what: what, URLValidation.redacted(link))) }
        return url.absoluteString
    }
}
