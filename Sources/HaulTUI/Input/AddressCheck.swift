import Foundation

/// Checks text typed on the add prompt: only http and https URLs with a host are queued.
enum AddressCheck {
    /// The URLs in `text` (separated by whitespace), or the message for the first one that is not acceptable.
    static func urls(in text: String) -> Result<[String], AddressError> {
        let words = text.split(whereSeparator: { $0 == " " || $0.isNewline }).map(String.init)
        guard !words.isEmpty else { return .failure(.empty) }
        for word in words {
            if let problem = problem(with: word) { return .failure(problem) }
        }
        return .success(words)
    }

    static func problem(with word: String) -> AddressError? {
        guard let components = components(word) else { return .notURL(word) }
        guard let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return .scheme(word)
        }
        guard let host = components.host, !host.isEmpty else { return .noHost(word) }
        return nil
    }

    /// Parses `text` as URL components, percent-encoding non-ASCII graphemes first so that UTF-8 paths parse.
    static func components(_ text: String) -> URLComponents? {
        if let parsed = URLComponents(string: text) { return parsed }
        let encoded = text.addingPercentEncoding(withAllowedCharacters: .urlFragmentAllowed.union(["#", "%"])) ?? text
        return URLComponents(string: encoded)
    }

    /// The URL with any user name and password replaced by `***`, for showing on screen.
    static func redacted(_ text: String) -> String {
        guard let at = text.firstIndex(of: "@"), let schemeEnd = text.range(of: "://") else { return text }
        let authorityStart = schemeEnd.upperBound
        guard authorityStart <= at else { return text }
        let authorityEnd = text[authorityStart...].firstIndex(where: { "/?#".contains($0) }) ?? text.endIndex
        guard at < authorityEnd else { return text }
        let lastAt = text[authorityStart..<authorityEnd].lastIndex(of: "@") ?? at
        return String(text[..<authorityStart]) + "***" + String(text[lastAt...])
    }
}

/// Why the prompt refused its text; the description is the message line.
enum AddressError: Error, Equatable, CustomStringConvertible {
    case empty
    case notURL(String)
    case scheme(String)
    case noHost(String)

    var description: String {
        switch self {
        case .empty: return "type or paste a URL, or press Esc"
        case let .notURL(word): return "'\(word)' is not a URL — use http://… or https://…"
        case let .scheme(word): return "'\(word)': only http and https URLs can be downloaded"
        case let .noHost(word): return "'\(word)' has no host name"
        }
    }
}
