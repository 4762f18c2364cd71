/// One download listed in an input file: a URL and the options indented under it.
public struct InputFileEntry: Sendable, Equatable {
    /// The URL to fetch, as `URLValidation.validate` returns it.
    public var url: String
    /// `out=`: the file name to use, as written (callers sanitise it).
    public var out: String?
    /// `dir=`: the download directory, as written.
    public var dir: String?
    /// `checksum=sha-256=HEX`.
    public var checksum: Checksum?
    /// `header=K: V` lines, in order.
    public var headers: [String]

    public init(url: String, out: String? = nil, dir: String? = nil, checksum: Checksum? = nil, headers: [String] = []) {
        self.url = url
        self.out = out
        self.dir = dir
        self.checksum = checksum
        self.headers = headers
    }
}

/// Reads aria2's input-file format (`-i FILE`).
///
/// ```
/// # comment
/// https://example.org/a.iso
///   out=ubuntu.iso
///   dir=/srv/isos
///   checksum=sha-256=0123…
///   header=Authorization: Bearer x
/// https://mirror-1/b.bin	https://mirror-2/b.bin
/// ```
public enum InputFile {
    /// Option keys haul understands.
    public static let knownOptions: Set<String> = ["out", "dir", "checksum", "header"]

    /// The entries of an input file, in order, plus warnings about lines that were ignored.
    ///
    /// A line that starts with neither a space nor a tab holds a URL. aria2 allows several tab-separated
    /// URLs (mirrors) of one file: the first is taken and the others are ignored with a warning. Lines
    /// indented with spaces or tabs hold `key=value` options for the URL above them. Lines whose first
    /// non-blank character is `#` and blank lines are skipped; a byte order mark and `\r\n` line ends are fine.
    /// An unknown option key gives a warning, not an error.
    ///
    /// - Throws: `InputFileError` with the line number for an option before any URL, an option line
    ///   without `=`, an empty `out=` or `dir=`, a header that is not `Name: value` or holds control
    ///   characters, a checksum that is not `sha-256=` and 64 hex digits, or a URL that is not a valid
    ///   http(s) URL (the message is `DownloadError`'s).
    public static func parse(_ text: String) throws(InputFileError) -> (entries: [InputFileEntry], warnings: [String]) {
        var entries: [InputFileEntry] = []
        var warnings: [String] = []
        var body = Substring(text)
        if body.unicodeScalars.first == "\u{FEFF}" { body = Substring(body.unicodeScalars.dropFirst()) }

        // `\r\n` is a single Character in Swift, so it is matched as a whole.
        let lines = body.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        for (index, line) in lines.enumerated() {
            let number = index + 1
            let content = line.trimmingHTTPWhitespace()
            if content.isEmpty || content.first == "#" { continue }

            if let first = line.first, first.isHTTPWhitespace {
                guard !entries.isEmpty else {
                    throw InputFileError(line: number, message: "option '\(content)' comes before any URL; put a URL on a line of its own above it")
                }
                if let warning = try apply(option: content, to: &entries[entries.count - 1], line: number) {
                    warnings.append(warning)
                }
            } else {
                let uris = content.split(separator: "\t").map { $0.trimmingHTTPWhitespace() }.filter { !$0.isEmpty }
                let url: String
                do {
                    url = try URLValidation.validate(String(uris[0]))
                } catch {
                    throw InputFileError(line: number, message: error.description)
                }
                if uris.count > 1 {
                    warnings.append("line \(number): only the first of \(uris.count) URLs is downloaded; the others are ignored")
                }
                entries.append(InputFileEntry(url: url))
            }
        }
        return (entries, warnings)
    }

    /// Applies one `key=value` option line to `entry`; returns a warning for an unknown key.
    static func apply(option: Substring, to entry: inout InputFileEntry, line: Int) throws(InputFileError) -> String? {
        guard let eq = option.firstIndex(of: "=") else {
            throw InputFileError(line: line, message: "'\(option)' is not an option; write key=value (out=, dir=, checksum=, header=)")
        }
        let key = option[..<eq].trimmingHTTPWhitespace().lowercased()
        let value = option[option.index(after: eq)...].trimmingHTTPWhitespace()
        switch key {
        case "out":
            guard !value.isEmpty else { throw InputFileError(line: line, message: "out= needs a file name") }
            entry.out = String(value)
        case "dir":
            guard !value.isEmpty else { throw InputFileError(line: line, message: "dir= needs a directory") }
            entry.dir = String(value)
        case "checksum":
            guard let checksum = Checksum(parsing: String(value)) else {
                throw InputFileError(line: line, message: "checksum '\(value)' is not usable; write checksum=sha-256=<64 hex digits>")
            }
            entry.checksum = checksum
        case "header":
            guard let colon = value.firstIndex(of: ":"),
                  !value[..<colon].trimmingHTTPWhitespace().isEmpty,
                  !value[..<colon].contains(where: \.isHTTPWhitespace),
                  !value.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F })
            else {
                throw InputFileError(line: line, message: "header '\(value)' is not of the form 'Name: value'")
            }
            entry.headers.append(String(value))
        default:
            return "line \(line): unknown option '\(key)' ignored (haul reads \(knownOptions.sorted().joined(separator: ", ")))"
        }
        return nil
    }
}
