/// What an option's value is, as a shell completes it and the man page names it: any text, a file, a directory,
/// one of a few words, or a theme. Declared once in `OptionRegistry` (DESIGN §11); a value type, shared freely.
public enum OptionValues: Sendable, Equatable {
    /// Any text: a URL, a rate, a header; nothing to offer.
    case text
    /// A path to a file haul reads.
    case file
    /// A path to a directory.
    case directory
    /// One of these words (the first is the default when the option has one).
    case choices([String])
    /// A theme name (those found in the theme folders and built in) or a path to a `.toml` file.
    case theme
}

extension OptionDefinition {
    /// The value's name in usage lines and the man page: the help's own, else one said by what the value is
    /// (`file`, `dir`, `n`, `rate`, `size`), never the option's name again (`--limit-rate limit-rate`).
    public var valueName: String {
        if let named = help.valueName { return named }
        switch values {
        case .file: return "file"
        case .directory: return "dir"
        case let .choices(words): return words.joined(separator: "|")
        case .theme: return "name|path"
        case .text: break
        }
        switch kind {
        case .int: return "n"
        case .size: return name.contains("limit") || name.contains("rate") ? "rate" : "size"
        case .bool, .string, .strings: return "text"
        }
    }
}
