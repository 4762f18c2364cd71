/// Where each key of a TOML text is written: TOMLKit gives values but not their lines, and every message about
/// the settings file names its line. Scans line by line, skipping strings, comments and the inside of
/// arrays and inline tables, so only keys that start a line are found.
struct TOMLKeyLines {
    /// One table header: `[name]` or `[[name]]`.
    struct Header: Equatable {
        var name: String
        var isArray: Bool
        var line: Int
    }

    /// Top-level keys (their first dotted part) by name.
    private(set) var topLevel: [String: Int] = [:]
    /// Keys of each `[[name]]` entry, by name then entry number (from 0).
    private(set) var arrayEntries: [String: [[String: Int]]] = [:]
    private(set) var headers: [Header] = []
    /// The header line of each `[[name]]` entry, by name then entry number; built with `headers`, so finding one
    /// entry's header does not read every header (a file of 20,000 rules took 10 s).
    private var arrayHeaderLines: [String: [Int]] = [:]
    /// The first header line of each name, `[name]` or `[[name]]`.
    private var firstHeaderLines: [String: Int] = [:]

    init(_ text: String) {
        var state = ScanState()
        var section: (name: String, index: Int)?
        // "\r\n" is one `Character`: a file with Windows line ends is split on it too, or it is one line.
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        for (offset, line) in lines.enumerated() {
            let number = offset + 1
            if state.isAtTopLevel {
                let rest = line.drop { $0 == " " || $0 == "\t" || $0 == "\u{FEFF}" }
                if rest.hasPrefix("[") {
                    let isArray = rest.hasPrefix("[[")
                    let name = Self.firstKey(rest.dropFirst(isArray ? 2 : 1).drop { $0 == " " || $0 == "\t" })
                    headers.append(Header(name: name, isArray: isArray, line: number))
                    if firstHeaderLines[name] == nil { firstHeaderLines[name] = number }
                    if isArray {
                        arrayHeaderLines[name, default: []].append(number)
                        arrayEntries[name, default: []].append([:])
                        section = (name, arrayEntries[name, default: []].count - 1)
                    } else {
                        section = nil
                    }
                } else if !rest.isEmpty, rest.first != "#" {
                    let key = Self.firstKey(rest)
                    if let section {
                        if arrayEntries[section.name]?[section.index][key] == nil {
                            arrayEntries[section.name]?[section.index][key] = number
                        }
                    } else if headers.isEmpty, topLevel[key] == nil {
                        topLevel[key] = number
                    }
                }
            }
            state.scan(line)
        }
    }

    /// The line of key `key` in entry `index` of `[[name]]`.
    func line(of key: String, inArray name: String, entry index: Int) -> Int? {
        guard let entries = arrayEntries[name], entries.indices.contains(index) else { return nil }
        return entries[index][key]
    }

    /// The line of the header of entry `index` of `[[name]]`.
    func headerLine(ofArray name: String, entry index: Int) -> Int? {
        guard let lines = arrayHeaderLines[name], lines.indices.contains(index) else { return nil }
        return lines[index]
    }

    /// The first header line of `[name]` or `[[name]]`.
    func headerLine(of name: String) -> Int? {
        firstHeaderLines[name]
    }

    /// The first part of a key that starts `text`: bare (`max-concurrent`) or quoted (`"max-concurrent"`).
    private static func firstKey(_ text: Substring) -> String {
        if let quote = text.first, quote == "\"" || quote == "'" {
            return String(text.dropFirst().prefix { $0 != quote })
        }
        return String(text.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" })
    }

    /// Whether the scan is inside a string or a bracket that spans lines.
    private struct ScanState {
        var multilineQuote: String?
        var depth = 0

        var isAtTopLevel: Bool { multilineQuote == nil && depth == 0 }

        mutating func scan(_ line: Substring) {
            let scalars = Array(line.unicodeScalars)
            var index = 0
            func starts(_ token: String) -> Bool {
                let token = Array(token.unicodeScalars)
                return index + token.count <= scalars.count && Array(scalars[index..<(index + token.count)]) == token
            }
            while index < scalars.count {
                if let quote = multilineQuote {
                    if quote == "\"\"\"", scalars[index] == "\\" { index += 2; continue }
                    if starts(quote) { multilineQuote = nil; index += 3; continue }
                    index += 1
                    continue
                }
                switch scalars[index] {
                case "#":
                    return
                case "\"", "'":
                    let quote = String(scalars[index])
                    if starts(quote + quote + quote) {
                        multilineQuote = quote + quote + quote
                        index += 3
                        continue
                    }
                    index += 1
                    while index < scalars.count, String(scalars[index]) != quote {
                        index += quote == "\"" && scalars[index] == "\\" ? 2 : 1
                    }
                    index += 1
                case "[", "{":
                    depth += 1
                    index += 1
                case "]", "}":
                    depth = max(0, depth - 1)
                    index += 1
                default:
                    index += 1
                }
            }
        }
    }
}
