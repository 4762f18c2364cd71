import Foundation

/// Checks URLs a user typed or listed in an input file, and shows them safely in messages and logs.
public enum URLValidation {
    /// The schemes haul fetches; anything else needs the user to widen it on purpose.
    public static let allowedSchemes: Set<String> = ["http", "https"]

    /// The URL text to fetch for what a user typed; throws when it is not an http(s) URL with a host.
    ///
    /// Surrounding whitespace is trimmed. A space inside the path, query or fragment is sent as `%20`, as wget
    /// and aria2c send it; other whitespace and control characters inside are refused (two URLs pasted on two
    /// lines look like that), and so is a space in the host. The scheme must be http or https in any case (it
    /// comes back in lower case); the host must not be empty; a port must be 1–65535. Non-ASCII text and other
    /// characters RFC 3986 does not allow in the path, query and fragment are percent-encoded; escapes already
    /// there stay as they are; an international host name becomes its ASCII (punycode) form.
    ///
    /// - Throws: `DownloadError.unsupportedScheme` for `ftp:`, `file:`, `javascript:` and the like;
    ///   `DownloadError.invalidURL` for everything else that is wrong.
    public static func validate(_ text: String) throws(DownloadError) -> String {
        // Nearly every URL is plain RFC 3986 ASCII; only the rest needs Foundation's parser (and ICU behind it).
        if let plain = validatedASCII(text) { return plain }
        return try validatedByFoundation(text)
    }

    /// `validate` through `URLComponents`, for any text: trims, encodes non-ASCII, converts IDNs to punycode.
    static func validatedByFoundation(_ text: String) throws(DownloadError) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty,
              !trimmed.unicodeScalars.contains(where: {
                  $0 != " " && (CharacterSet.whitespacesAndNewlines.contains($0) || $0.isControlCharacter)
              })
        else { throw .invalidURL(redacted(trimmed)) }

        guard let scheme = scheme(of: trimmed) else { throw .invalidURL(redacted(trimmed)) }
        guard allowedSchemes.contains(scheme.lowercased()) else {
            // `localhost:8080/x` looks like a scheme but is a host and port without one.
            let afterColon = trimmed.dropFirst(scheme.count + 1)
            if afterColon.first?.isASCII == true, afterColon.first?.isNumber == true {
                throw .invalidURL(redacted(trimmed))
            }
            throw .unsupportedScheme(scheme.lowercased())
        }
        guard trimmed.dropFirst(scheme.count + 1).hasPrefix("//"), let authority = authorityRange(in: trimmed) else {
            throw .invalidURL(redacted(trimmed))
        }
        // A `%` escape in the host is decoded by the IDNA step (`a%26b` became `a&b`), which changes what the host
        // says: no real host name needs one.
        let hostPart = trimmed[authority].split(separator: "@").last ?? ""
        if hostPart.contains("%") { throw .invalidURL(redacted(trimmed)) }
        // Only what RFC 3986 does not allow is encoded, before the parser sees it: given text it must repair,
        // URLComponents encodes every `%` again (`%20` became `%2520`, another file and a broken signature).
        let escaped = String(trimmed[..<authority.upperBound]) + escapingOutsideRFC3986(trimmed[authority.upperBound...])
        if let plain = validatedASCII(escaped) { return plain }
        guard var components = URLComponents(string: escaped),
              let host = components.host, !host.isEmpty, host != "[]"
        else { throw .invalidURL(redacted(trimmed)) }
        if let port = components.port, !(1...65_535).contains(port) { throw .invalidURL(redacted(trimmed)) }
        components.scheme = scheme.lowercased()
        guard let result = components.string else { throw .invalidURL(redacted(trimmed)) }
        return result
    }

    /// The URL with any `user:password@` removed, for display and logs; other text comes back unchanged.
    ///
    /// A password holding `/`, `?` or `#` ends the authority early (`http://user:pa#ss@host/`: such text is no
    /// valid URL, and is quoted in the error): when the authority has no `@` and what follows its `:` is no
    /// port, the user part runs to the `@` after it (the last one before the next `/`).
    public static func redacted(_ text: String) -> String {
        // No `@`, no credentials: the link as it is, without parsing it (the filter reads every task's).
        guard text.utf8.contains(UInt8(ascii: "@")), let authority = authorityRange(in: text) else { return text }
        guard let at = text[authority].lastIndex(of: "@") ?? cutPasswordEnd(in: text, authority: authority) else { return text }
        return String(text[..<authority.lowerBound]) + String(text[text.index(after: at)...])
    }

    /// The `@` ending a password that holds `/`, `?` or `#` (`user:pa#ss@host`), when `authority` is cut short
    /// by one.
    private static func cutPasswordEnd(in text: String, authority: Range<String.Index>) -> String.Index? {
        let cut = text[authority]
        guard cut.first != "[", let colon = cut.firstIndex(of: ":") else { return nil }
        let afterColon = cut[cut.index(after: colon)...]
        if afterColon.allSatisfy({ $0.isASCII && $0.isNumber }) { return nil }  // a port, maybe empty
        guard let firstAt = text[authority.upperBound...].firstIndex(of: "@") else { return nil }
        let hostEnd = text[firstAt...].firstIndex(of: "/") ?? text.endIndex
        return text[firstAt..<hostEnd].lastIndex(of: "@")
    }

    /// The host for messages (`example.org`, `[::1]`), without user, password or port; when the text has
    /// no host, the text itself, redacted.
    public static func host(of text: String) -> String {
        guard let authority = authorityRange(in: text) else { return redacted(text) }
        var hostAndPort = text[authority]
        if let at = hostAndPort.lastIndex(of: "@") { hostAndPort = hostAndPort[hostAndPort.index(after: at)...] }
        let host: Substring
        if hostAndPort.first == "[", let close = hostAndPort.firstIndex(of: "]") {
            host = hostAndPort[...close]
        } else {
            host = hostAndPort.prefix(while: { $0 != ":" })
        }
        return host.isEmpty ? redacted(text) : host.lowercased()
    }

    /// The scheme (as written) when `text` starts with `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"`.
    static func scheme(of text: String) -> Substring? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let scheme = text[..<colon]
        guard let first = scheme.unicodeScalars.first, first.isASCIILetter,
              scheme.unicodeScalars.allSatisfy({ $0.isASCIILetter || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0) })
        else { return nil }
        return scheme
    }

    /// Where the authority (`user:pass@host:port`) lies in `scheme://authority/path`, if the text has one.
    static func authorityRange(in text: String) -> Range<String.Index>? {
        guard let scheme = scheme(of: text) else { return nil }
        let afterScheme = text[scheme.endIndex...].dropFirst()          // past the `:`
        guard afterScheme.hasPrefix("//") else { return nil }
        let start = afterScheme.index(afterScheme.startIndex, offsetBy: 2)
        let end = text[start...].firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? text.endIndex
        return start..<end
    }
}

extension Unicode.Scalar {
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
