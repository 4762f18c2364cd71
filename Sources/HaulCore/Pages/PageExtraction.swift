import Foundation

/// Whether haul asks yt-dlp about web pages (`--extractor`, DESIGN §11): with the yt-dlp found, or not, saying why
/// in the note of a page kept as a file.
public enum PageExtraction: Sendable {
    case extractor(PageExtractor)
    /// No yt-dlp to ask: a page is kept as a file, with this note.
    case unavailable(note: String)

    /// What `--extractor` (nil: not given) resolves to: `none` turns pages off, a path is that program, a name is
    /// looked up on `path` (`$PATH`), and nothing given looks for `yt-dlp` there.
    public static func resolve(_ option: String?, path: String?) -> PageExtraction {
        let kept = "a web page, kept as it is"
        let install = "install yt-dlp (pip install yt-dlp) and haul fetches the video in it"
        guard let option, !option.isEmpty else {
            guard let found = lookUp("yt-dlp", path: path) else { return .unavailable(note: "\(kept): \(install)") }
            return .extractor(PageExtractor(executable: found))
        }
        if option == "none" { return .unavailable(note: "\(kept) (--extractor none)") }
        let shown = option.escapingAllControlCharacters
        if option.contains("/") {
            guard FileManager.default.isExecutableFile(atPath: option) else {
                return .unavailable(note: "\(kept): --extractor \(shown) is not a program; \(install)")
            }
            return .extractor(PageExtractor(executable: option))
        }
        guard let found = lookUp(option, path: path) else {
            return .unavailable(note: "\(kept): --extractor \(shown) is not on PATH; \(install)")
        }
        return .extractor(PageExtractor(executable: found))
    }

    /// The extractor, when there is one.
    public var extractor: PageExtractor? {
        if case let .extractor(extractor) = self { return extractor }
        return nil
    }

    /// Why a page is kept as a file; nil when yt-dlp is asked.
    public var note: String? {
        if case let .unavailable(note) = self { return note }
        return nil
    }

    static func lookUp(_ name: String, path: String?) -> String? {
        for directory in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") {
            let candidate = String(directory) + "/" + name
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
