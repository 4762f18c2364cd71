/// Reads the file name a server suggests in `Content-Disposition` (RFC 6266, with RFC 8187 extended values).
///
/// The parser is lenient the way browsers are: it accepts a missing disposition type, spaces around `=`,
/// unquoted names with spaces, a quoted `filename*` and an unterminated quoted string. It never trusts
/// the result: callers pass it through `SafeFileName.sanitize`.
public enum ContentDisposition {
    /// The file name from a `Content-Disposition` value, or nil when there is none.
    ///
    /// `filename*` (`UTF-8''%E9%9B%BB.mp4`, charsets UTF-8 and ISO-8859-1, percent-decoded) wins over
    /// `filename` (a quoted string with backslash escapes, or a token). A `filename*` that cannot be decoded
    /// (unknown charset, bad UTF-8) is skipped in favour of `filename`. Empty names count as none.
    /// The result is NOT sanitised.
    public static func fileName(from headerValue: String) -> String? {
        var plain: String?
        var extended: String?
        for (name, value) in parameters(of: headerValue) {
            switch name {
            case "filename*" where extended == nil:
                extended = decodeExtendedValue(value)
            case "filename" where plain == nil:
                plain = value
            default:
                break
            }
        }
        if let extended, !extended.isEmpty { return extended }
        if let plain, !plain.isEmpty { return plain }
        return nil
    }

    /// The `name=value` parameters in order, names lower-cased, quoted values unescaped.
    ///
    /// Items are separated by `;` outside quoted strings; an item without `=` (the disposition type,
    /// or garbage) is skipped.
    static func parameters(of headerValue: String) -> [(name: String, value: String)] {
        var result: [(name: String, value: String)] = []
        var scalars = Substring(headerValue).unicodeScalars[...]
        while !scalars.isEmpty {
            // Name: everything up to `=` or `;`.
            let name = scalars.prefix(while: { $0 != "=" && $0 != ";" })
            scalars = scalars.dropFirst(name.count)
            guard scalars.first == "=" else {
                scalars = scalars.dropFirst()                  // the `;`, or nothing at the end
                continue
            }
            scalars = scalars.dropFirst()
            scalars = scalars.drop(while: { $0 == " " || $0 == "\t" })
            let value: String
            if scalars.first == "\"" {
                (value, scalars) = quotedString(scalars.dropFirst())
                scalars = scalars.drop(while: { $0 != ";" })   // ignore anything between the quote and `;`
            } else {
                let raw = scalars.prefix(while: { $0 != ";" })
                scalars = scalars.dropFirst(raw.count)
                value = String(trimmed(raw))
            }
            scalars = scalars.dropFirst()                      // the `;`
            let key = trimmed(name).lowercased()
            if !key.isEmpty { result.append((key, value)) }
        }
        return result
    }

    /// The scalars as text without surrounding spaces and tabs.
    static func trimmed(_ scalars: Substring.UnicodeScalarView.SubSequence) -> Substring {
        Substring(scalars).trimmingHTTPWhitespace()
    }

    /// Reads a quoted string whose opening quote is already consumed; returns its content and what follows
    /// the closing quote. `\x` stands for `x`. An unterminated string runs to the end.
    static func quotedString(
        _ input: Substring.UnicodeScalarView.SubSequence
    ) -> (String, Substring.UnicodeScalarView.SubSequence) {
        var content = String.UnicodeScalarView()
        var rest = input
        while let scalar = rest.first {
            rest = rest.dropFirst()
            switch scalar {
            case "\"":
                return (String(content), rest)
            case "\\":
                if let escaped = rest.first {
                    content.append(escaped)
                    rest = rest.dropFirst()
                }
            default:
                content.append(scalar)
            }
        }
        return (String(content), rest)
    }

    /// Decodes an RFC 8187 ext-value, `charset'language'percent-encoded`; nil when it is malformed,
    /// the charset is neither UTF-8 nor ISO-8859-1, or the bytes are not valid in that charset.
    static func decodeExtendedValue(_ value: String) -> String? {
        let parts = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        guard let bytes = percentDecoded(parts[2]) else { return nil }
        switch parts[0].lowercased() {
        case "utf-8", "utf8":
            return String(validating: bytes, as: UTF8.self)
        case "iso-8859-1", "latin1", "iso_8859-1":
            return HeaderText.latin1(bytes)
        default:
            return nil
        }
    }

    /// The bytes of `text` with `%XX` escapes decoded; nil on a broken escape.
    static func percentDecoded(_ text: Substring) -> [UInt8]? {
        var bytes: [UInt8] = []
        var utf8 = text.utf8[...]
        while let byte = utf8.first {
            utf8 = utf8.dropFirst()
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard utf8.count >= 2,
                  let high = hexValue(utf8[utf8.startIndex]),
                  let low = hexValue(utf8[utf8.index(after: utf8.startIndex)])
            else { return nil }
            bytes.append(high << 4 | low)
            utf8 = utf8.dropFirst(2)
        }
        return bytes
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
