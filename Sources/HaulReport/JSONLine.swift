import HaulCore

/// Builds one JSON object as a single line, keys in the order given (for `--json` events).
public struct JSONLine {
    private var fields: [String] = []

    public init() {}

    public mutating func add(_ key: String, _ value: String?) {
        guard let value else { return }
        fields.append("\(Self.quote(key)):\(Self.quote(value))")
    }

    public mutating func add(_ key: String, _ value: Int64?) {
        guard let value else { return }
        fields.append("\(Self.quote(key)):\(value)")
    }

    public mutating func add(_ key: String, _ value: Double?) {
        guard let value, value.isFinite else { return }
        fields.append("\(Self.quote(key)):\((value * 10).rounded() / 10)")
    }

    public var text: String { "{" + fields.joined(separator: ",") + "}" }

    static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.isControlCharacter:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
