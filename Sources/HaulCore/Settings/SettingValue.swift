/// A setting's value as the settings file or the command line gave it: a flag, a whole number, a text, or a list
/// of texts. Sizes and rates are texts (`"4M"`); the file may write them as whole numbers of bytes.
public enum SettingValue: Sendable, Equatable, Codable, CustomStringConvertible {
    case bool(Bool)
    case int(Int)
    case string(String)
    case strings([String])

    /// The value as it would be written in the settings file (TOML).
    public var description: String {
        switch self {
        case let .bool(value): String(value)
        case let .int(value): String(value)
        case let .string(value): value.jsonStringLiteral
        case let .strings(values): "[" + values.map(\.jsonStringLiteral).joined(separator: ", ") + "]"
        }
    }

    public var boolValue: Bool? {
        if case let .bool(value) = self { return value }
        return nil
    }

    public var intValue: Int? {
        if case let .int(value) = self { return value }
        return nil
    }

    /// A text; a whole number reads as its digits (a size or rate written as bytes).
    public var stringValue: String? {
        switch self {
        case let .string(value): value
        case let .int(value): String(value)
        default: nil
        }
    }

    public var stringsValue: [String]? {
        if case let .strings(values) = self { return values }
        return nil
    }
}

/// The type a setting takes, for the file's "wrong type" message.
public enum SettingKind: String, Sendable, Equatable {
    case bool = "true or false"
    case int = "a whole number"
    case string = "a text in quotes"
    /// A size or a rate: a text like "4M", or a whole number of bytes.
    case size = "a size like \"4M\" (or a number of bytes)"
    case strings = "a list of texts, like [\"a\", \"b\"]"

    /// Whether `value` has this kind (a whole number counts as a size).
    public func accepts(_ value: SettingValue) -> Bool {
        switch (self, value) {
        case (.bool, .bool), (.int, .int), (.string, .string), (.size, .string), (.size, .int), (.strings, .strings): true
        default: false
        }
    }
}
