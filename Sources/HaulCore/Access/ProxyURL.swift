import Foundation

/// The proxy URL rule: `http://`, `https://`, `socks4://`, `socks4a://`, `socks5://` or `socks5h://`, a host, an
/// optional port and optional credentials. A bare `host:port` is an HTTP proxy, as curl reads it.
public enum ProxyURL {
    /// Schemes libcurl speaks to a proxy; `socks5h` and `socks4a` resolve names at the proxy.
    public static let schemes: Set<String> = ["http", "https", "socks4", "socks4a", "socks5", "socks5h"]

    /// `text` with its scheme spelled out and lower-cased, or the reason it is not a proxy URL.
    public static func normalized(_ text: String) throws(IntakeError) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 != "\u{7F}" && $0.asciiValue! >= 0x20 })
        else { throw .invalidProxy(redacted(text)) }
        var scheme = "http"
        var rest = Substring(trimmed)
        if let separator = trimmed.range(of: "://") {
            scheme = trimmed[..<separator.lowerBound].lowercased()
            rest = trimmed[separator.upperBound...]
            guard schemes.contains(scheme) else { throw .unsupportedProxyScheme(scheme, redacted(text)) }
        }
        // Only an authority (a trailing slash at most): a proxy has no path, query or fragment.
        if rest.last == "/" { rest = rest.dropLast() }
        let authority = rest.lastIndex(of: "@").map { rest[rest.index(after: $0)...] } ?? rest
        guard !authority.isEmpty, !authority.contains(where: { "/?#@".contains($0) }),
              let url = try? URLValidation.validate("http://" + authority + "/"), !URLValidation.host(of: url).isEmpty
        else { throw .invalidProxy(redacted(text)) }
        return scheme + "://" + rest
    }

    /// `text` without its `user:password@`, for display, also in the bare `user:password@host:port` form.
    public static func redacted(_ text: String) -> String {
        if text.contains("://") { return URLValidation.redacted(text) }
        let bare = "http://"
        return String(URLValidation.redacted(bare + text).dropFirst(bare.count))
    }

    /// A no-proxy list: comma-separated entries without spaces inside them or control characters.
    public static func checkedNoProxy(_ text: String) throws(IntakeError) -> String {
        let entries = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard !entries.isEmpty, entries.allSatisfy({ entry in
            !entry.isEmpty && entry.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || ".-_:*[]/".contains($0)) }
        }) else { throw .invalidNoProxy(text) }
        return entries.joined(separator: ",")
    }
}
