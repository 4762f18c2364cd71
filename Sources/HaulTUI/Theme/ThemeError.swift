/// Why the theme named on the command line cannot be used at all; haul reports it and exits with a
/// usage error before it takes the screen. Problems inside a theme file are warnings, not errors.
public enum ThemeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A NAME with a path separator, `..`, a leading dot or characters outside `A-Z a-z 0-9 . _ -`.
    case refusedName(String)
    /// No theme of that name in any searched directory, nor built in; `tried` holds every file path looked at.
    case notFound(name: String, tried: [String])
    /// A PATH that does not exist or cannot be read.
    case unreadable(path: String, reason: String)
    /// The file is not valid TOML.
    case syntax(source: String, line: Int, column: Int, message: String)

    public var description: String {
        switch self {
        case let .refusedName(name):
            return "theme name '\(name)' is refused: a NAME may hold only letters, digits, '.', '_' and '-' "
                + "(no '/' or '..'); to use a file, pass a PATH ending in .toml"
        case let .notFound(name, tried):
            let files = tried.isEmpty ? "no theme directory" : tried.joined(separator: ", ")
            return "no theme named '\(name)': tried \(files), then the built-in themes "
                + "(\(BuiltinTheme.names.joined(separator: ", ")))"
        case let .unreadable(path, reason):
            return "cannot read theme file \(path): \(reason)"
        case let .syntax(source, line, column, message):
            return "\(source):\(line):\(column): not valid TOML: \(message)"
        }
    }
}
