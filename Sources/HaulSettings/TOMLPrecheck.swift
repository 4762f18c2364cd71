/// Refuses, as syntax errors, the invalid TOML on which toml++ (inside TOMLKit) asserts and ends the process
/// instead of reporting an error (both found by fuzz-theme; toml++ 3.4.0):
/// - a table header whose name does not start with a bare-key character or a quote on its line (`[ü]`, `[=]`, `[`);
/// - a `}` where an array expects a value (`a = [ }`, `a = [1, }`): any `}` whose innermost open bracket is `[`.
/// Strings and comments are skipped, so no valid TOML is refused. Scalar by scalar: `[` followed by a combining
/// mark is one Character.
///
/// It also refuses a NUL, as a byte or as the escape `\u0000` in a string: toml++ stops reading at a NUL byte, so
/// the rest of the file would be silently ignored, and a string with one is cut short where TOMLKit hands it over.
///
/// Every reader of a user's TOML (themes, the settings file) runs this before TOMLKit sees the text.
public enum TOMLPrecheck {
    public struct Failure: Error, Equatable {
        public var line: Int
        public var message: String
    }

    public static func check(_ text: String) throws(Failure) {
        try checkNULBytes(text)
        try checkTableHeaders(text)
        try checkBraces(text)
    }

    private static func checkNULBytes(_ text: String) throws(Failure) {
        var line = 1
        for scalar in text.unicodeScalars {
            if scalar == "\n" { line += 1 }
            if scalar == "\0" {
                throw Failure(line: line, message: "a NUL byte is not allowed (the rest of the file would be ignored); remove it")
            }
        }
    }

    private static func checkTableHeaders(_ text: String) throws(Failure) {
        for (index, line) in text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var rest = line.drop { $0 == " " || $0 == "\t" || $0 == "\u{FEFF}" }
            guard rest.first == "[" else { continue }
            rest = rest.dropFirst()
            if rest.first == "[" { rest = rest.dropFirst() }  // an array of tables, `[[name]]`
            rest = rest.drop { $0 == " " || $0 == "\t" }
            if !(rest.first.map(startsKey) ?? false) {
                throw Failure(line: index + 1, message: "a table name must start with a letter, a digit, _, - or a quote")
            }
        }
    }

    /// Whether a TOML key may start with `scalar`: a bare-key character or a quote.
    static func startsKey(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
            || ("0"..."9").contains(scalar) || "_-\"'".unicodeScalars.contains(scalar)
    }

    private static func checkBraces(_ text: String) throws(Failure) {
        let scalars = Array(text.unicodeScalars)
        var open: [Unicode.Scalar] = []
        var line = 1
        var index = 0
        func starts(_ token: String, at position: Int) -> Bool {
            let token = Array(token.unicodeScalars)
            return position + token.count <= scalars.count && Array(scalars[position..<(position + token.count)]) == token
        }
        /// Skips a string that starts at `index` with `quote` (one or three quotes); escapes only in `"` strings.
        func skipString(_ quote: String) throws(Failure) {
            let escapes = quote.hasPrefix("\"")
            let multiline = quote.count == 3
            index += quote.count
            while index < scalars.count {
                let scalar = scalars[index]
                if scalar == "\n" {
                    line += 1
                    // A single-line string ends at its line (unterminated: toml++ reports it).
                    if !multiline { index += 1; return }
                }
                if escapes, scalar == "\\" {
                    if starts("\\u0000", at: index) || starts("\\U00000000", at: index) {
                        throw Failure(line: line, message: "a NUL character (\\u0000) is not allowed in a string; remove it")
                    }
                    index += 2
                    continue
                }
                if starts(quote, at: index) { index += quote.count; return }
                index += 1
            }
        }
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case "\n":
                line += 1
                index += 1
            case "#":
                while index < scalars.count, scalars[index] != "\n" { index += 1 }
            case "\"":
                try skipString(starts("\"\"\"", at: index) ? "\"\"\"" : "\"")
            case "'":
                try skipString(starts("'''", at: index) ? "'''" : "'")
            case "[", "{":
                open.append(scalar)
                index += 1
            case "]":
                if open.last == "[" { open.removeLast() }
                index += 1
            case "}":
                if open.last == "[" { throw Failure(line: line, message: "'}' inside an array: an array ends with ']'") }
                if open.last == "{" { open.removeLast() }
                index += 1
            default:
                index += 1
            }
        }
    }
}
