extension String {
    /// The string as a JSON string literal, quotes included: `"`, `\` and control characters (C0, DEL and C1, see
    /// `Unicode.Scalar.isControlCharacter`) escaped, everything else as it is.
    ///
    /// For the few places that write JSON by hand (`--json` event lines, the fault server's stats page).
    public var jsonStringLiteral: String {
        var out = "\""
        for scalar in unicodeScalars {
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
