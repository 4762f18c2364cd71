import HaulCore

/// Builds one JSON object as a single line, keys in the order given (for `--json` events).
public struct JSONLine {
    private var fields: [String] = []

    public init() {}

    public mutating func add(_ key: String, _ value: String?) {
        guard let value else { return }
        fields.append("\(key.jsonStringLiteral):\(value.jsonStringLiteral)")
    }

    public mutating func add(_ key: String, _ value: Int64?) {
        guard let value else { return }
        fields.append("\(key.jsonStringLiteral):\(value)")
    }

    public mutating func add(_ key: String, _ value: Double?) {
        guard let value, value.isFinite else { return }
        fields.append("\(key.jsonStringLiteral):\((value * 10).rounded() / 10)")
    }

    /// A value already encoded as JSON text (`null`, `true`, a list …).
    public mutating func add(_ key: String, json: String) {
        fields.append("\(key.jsonStringLiteral):\(json)")
    }

    /// An array of objects; nothing for an empty array.
    public mutating func add(_ key: String, _ objects: [JSONLine]) {
        guard !objects.isEmpty else { return }
        fields.append("\(key.jsonStringLiteral):[" + objects.map(\.text).joined(separator: ",") + "]")
    }

    public var text: String { "{" + fields.joined(separator: ",") + "}" }
}
