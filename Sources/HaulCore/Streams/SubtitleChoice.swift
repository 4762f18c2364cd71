/// Which subtitle renditions a stream task fetches (`--stream-subs`): none (the default), every one, or those in
/// the languages given (`eng,deu`), each saved beside the video as `NAME.LANG.vtt`.
public enum SubtitleChoice: Sendable, Equatable {
    case none
    case all
    case languages([String])

    /// `all`, `none`, or languages separated by commas; nil for anything else.
    public init?(parsing text: String) {
        let lowered = text.lowercased()
        switch lowered {
        case "none", "": self = .none
        case "all": self = .all
        default:
            guard let languages = Self.languages(text) else { return nil }
            self = .languages(languages)
        }
    }

    /// Languages separated by commas (`--stream-audio`, `--stream-subs`): each a language code or a rendition's name
    /// of letters, digits, `-` and `_`, at most 16 of them of at most 35 characters; nil when any is not.
    public static func languages(_ text: String) -> [String]? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { String($0.trimmingHTTPWhitespace()) }
        guard (1...16).contains(parts.count), parts.allSatisfy({ part in
            (1...35).contains(part.count) && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
        }) else { return nil }
        return parts
    }
}
