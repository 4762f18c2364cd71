/// An attribute list (RFC 8216 §4.2): `NAME=VALUE` pairs separated by commas, values quoted or not.
struct PlaylistAttributes {
    private(set) var values: [String: String] = [:]

    /// The attributes of `text`, nil when it is not an attribute list.
    init?(_ text: Substring) {
        var rest = text[...]
        while !rest.isEmpty {
            guard let equals = rest.firstIndex(of: "=") else { return nil }
            let name = rest[..<equals].trimmingHTTPWhitespace()
            guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber || $0 == "-") }) else { return nil }
            rest = rest[rest.index(after: equals)...]
            let value: Substring
            if rest.first == "\"" {
                let body = rest.dropFirst()
                guard let close = body.firstIndex(of: "\"") else { return nil }
                value = body[..<close]
                rest = body[body.index(after: close)...]
            } else {
                let end = rest.firstIndex(of: ",") ?? rest.endIndex
                value = rest[..<end].trimmingHTTPWhitespace()
                rest = rest[end...]
            }
            values[String(name)] = String(value)
            rest = rest.drop(while: { $0 == " " || $0 == "\t" })
            guard rest.isEmpty || rest.first == "," else { return nil }
            rest = rest.dropFirst()
        }
    }

    subscript(_ name: String) -> String? { values[name] }

    func integer(_ name: String) -> Int64? { values[name].flatMap { Int64($0) } }

    /// `WIDTHxHEIGHT`.
    func resolution(_ name: String) -> Resolution? {
        guard let parts = values[name]?.split(separator: "x"), parts.count == 2,
              let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0 else { return nil }
        return Resolution(width: width, height: height)
    }

    /// `0x` and up to 32 hex digits, as 16 bytes (left-padded).
    func iv(_ name: String) -> [UInt8]?? {
        guard let text = values[name] else { return .some(nil) }
        guard text.hasPrefix("0x") || text.hasPrefix("0X") else { return nil }
        let digits = Array(text.dropFirst(2))
        // ASCII only: `isHexDigit` also holds for fullwidth digits, which `UInt8(_:radix:)` does not read.
        guard !digits.isEmpty, digits.count <= 32, digits.allSatisfy({ $0.isASCII && $0.isHexDigit }) else { return nil }
        let padded = [Character](repeating: "0", count: 32 - digits.count) + digits
        return .some(stride(from: 0, to: 32, by: 2).map { UInt8(String(padded[$0...$0 + 1]), radix: 16)! })
    }
}
