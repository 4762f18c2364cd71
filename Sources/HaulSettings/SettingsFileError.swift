import HaulCore

/// Why the settings file cannot be used; every message names the file and, where there is one, the line and the key.
public enum SettingsFileError: Error, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    /// Larger than `SettingsFile.maxBytes` (`bytes` is its size, or as much as was read past the limit).
    case tooLarge(path: String, bytes: Int64, limit: Int)
    /// Not TOML.
    case syntax(path: String, line: Int, message: String)
    /// A key no setting has; `suggestion` is the nearest one.
    case unknownKey(path: String, line: Int, key: String, section: String?, suggestion: String?)
    case wrongType(path: String, line: Int, key: String, section: String?, expected: SettingKind, found: String)
    case badValue(path: String, line: Int, key: String, section: String?, message: String)
    /// A key that may not be in the file (the RPC secret, a task's own options), and where it goes instead.
    case refusedKey(path: String, line: Int, key: String, message: String)
    /// A `[[rule]]` or `[[category]]` without what it needs.
    case incompleteSection(path: String, line: Int, section: String, message: String)
    /// A section written otherwise than as an array of tables: `written` is how (`[rule]`, `rule = …`).
    case notArrayOfTables(path: String, line: Int, section: String, written: String)
    /// More than one of the above, in the file's order: each is reported, one a line.
    case several([SettingsFileError])

    /// `problems` as one error: nil for none, the one itself, else `several`.
    static func all(_ problems: [SettingsFileError]) -> SettingsFileError? {
        problems.count > 1 ? .several(problems) : problems.first
    }

    public var description: String {
        switch self {
        case let .unreadable(path, reason):
            "cannot read the settings file \(path): \(reason)"
        case let .tooLarge(path, bytes, limit):
            "the settings file \(path) is \(ByteCountFormat.size(bytes)) (\(bytes) bytes), more than the \(ByteCountFormat.size(Int64(limit))) haul reads — "
                + "check that it is your settings file, or move its rules into a smaller one"
        case let .syntax(path, line, message):
            "\(path):\(line): not valid TOML: \(message)"
        case let .unknownKey(path, line, key, section, suggestion):
            "\(path):\(line): unknown key '\(key)'\(Self.in(section))" + (suggestion.map { " (did you mean '\($0)'?)" } ?? "")
        case let .wrongType(path, line, key, section, expected, found):
            "\(path):\(line): key '\(key)'\(Self.in(section)) must be \(expected.rawValue), not \(found)"
        case let .badValue(path, line, key, section, message):
            "\(path):\(line): key '\(key)'\(Self.in(section)): \(message)"
        case let .refusedKey(path, line, key, message):
            "\(path):\(line): key '\(key)' is not allowed here: \(message)"
        case let .incompleteSection(path, line, section, message):
            "\(path):\(line): [[\(section)]] \(message)"
        case let .notArrayOfTables(path, line, section, written):
            "\(path):\(line): \(written) must be written [[\(section)]] (an array of tables: one [[\(section)]] header for each)"
        case let .several(problems):
            problems.map(\.description).joined(separator: "\n")
        }
    }

    private static func `in`(_ section: String?) -> String {
        section.map { " in [[\($0)]]" } ?? ""
    }
}
