import Foundation

/// A Netscape `cookies.txt`, as browsers' exporters, curl and wget write it: one cookie per line, seven
/// TAB-separated fields (domain, include subdomains, path, secure, expiry, name, value); `#` comments and
/// blank lines; a `#HttpOnly_` prefix on the domain of an HTTP-only cookie.
public enum CookieFile {
    /// The largest file read (a browser's whole export is well under this).
    public static let maxBytes = 4 << 20

    /// One cookie line, its fields as written.
    public struct Cookie: Sendable, Hashable {
        public var domain: String
        public var includeSubdomains: Bool
        public var path: String
        public var secure: Bool
        public var expires: Int64
        public var name: String
        public var value: String

        /// The host it belongs to, however its domain was spelled (no `#HttpOnly_` prefix, no leading dot, lowercase).
        public var host: String {
            var bare = Substring(domain)
            if bare.hasPrefix("#HttpOnly_") { bare = bare.dropFirst("#HttpOnly_".count) }
            if bare.hasPrefix(".") { bare = bare.dropFirst() }
            return bare.lowercased()
        }

        /// What a newer cookie of the same host, path and name replaces (as a jar does).
        public var slot: String { [host, path, name].joined(separator: "\t") }

        /// The cookie and its value, however its domain was spelled.
        public var identity: String { [host, path, name, value].joined(separator: "\t") }

        /// The line in the file's format (what libcurl's `CURLOPT_COOKIELIST` takes).
        public var line: String {
            [domain, includeSubdomains ? "TRUE" : "FALSE", path, secure ? "TRUE" : "FALSE", String(expires), name, value]
                .joined(separator: "\t")
        }

        /// The cookie on one line of a file, nil for a line that is not a cookie (libcurl's own output
        /// has the same shape).
        public init?(line: Substring) {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            // Some exporters leave out the tab before an empty value.
            guard fields.count == 7 || fields.count == 6, !fields[0].isEmpty, !fields[2].isEmpty, !fields[5].isEmpty,
                  let subdomains = Self.flag(fields[1]), let secure = Self.flag(fields[3]),
                  let expires = Self.expiry(fields[4])
            else { return nil }
            domain = String(fields[0])
            includeSubdomains = subdomains
            path = String(fields[2])
            self.secure = secure
            self.expires = expires
            name = String(fields[5])
            value = fields.count == 7 ? String(fields[6]) : ""
        }

        /// Seconds since 1970; a fractional expiry (`1735000000.5`, as some exporters write it) is truncated,
        /// as curl reads it.
        private static func expiry(_ text: Substring) -> Int64? {
            let parts = text.trimmingCharacters(in: .whitespaces)
                .split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            guard let whole = Int64(parts[0]) else { return nil }
            if parts.count == 2, !parts[1].allSatisfy({ $0.isASCII && $0.isNumber }) { return nil }
            return whole
        }

        private static func flag(_ text: Substring) -> Bool? {
            switch text.uppercased() {
            case "TRUE": true
            case "FALSE": false
            default: nil
            }
        }
    }

    /// The cookies of a file, and the lines skipped as neither comments nor cookies.
    public struct Contents: Sendable, Equatable {
        public var cookies: [Cookie]
        /// The numbers (from 1) of the lines skipped.
        public var skippedLines: [Int]
        /// The file, named in the warnings.
        public var path: String

        /// One warning per line skipped, naming it (curl skips such lines too, silently).
        public var warnings: [String] {
            skippedLines.map { IntakeError.malformedCookiesFile(path, line: $0).description + "; the line was skipped" }
        }
    }

    /// The cookies of the file at `path`, or why it cannot be read: missing, not a file, too large, not
    /// UTF-8, or no cookie line at all while some line is neither a comment nor a cookie (the first is named:
    /// such a file is in another format). Otherwise a bad line is skipped and named in the warnings, as curl
    /// skips it.
    public static func read(_ path: String) throws(IntakeError) -> Contents {
        let data: Data
        do {
            data = try BoundedFileRead.contents(of: path, limit: maxBytes)
        } catch .tooLarge(_) {
            throw .malformedCookiesFile(path, line: nil)
        } catch {
            throw .unreadableFile(kind: "cookies file", path)
        }
        guard let text = String(data: data, encoding: .utf8) else { throw .malformedCookiesFile(path, line: nil) }
        return try parse(text, path: path)
    }

    /// The cookies of `text` (the contents of the file at `path`, named in errors and warnings).
    public static func parse(_ text: String, path: String) throws(IntakeError) -> Contents {
        var contents = Contents(cookies: [], skippedLines: [], path: path)
        // `\r\n` is one Character, a newline like `\n`.
        for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            if line.hasPrefix("#"), !line.hasPrefix("#HttpOnly_") { continue }
            if let cookie = Cookie(line: line) { contents.cookies.append(cookie) } else { contents.skippedLines.append(index + 1) }
        }
        if contents.cookies.isEmpty, let first = contents.skippedLines.first { throw .malformedCookiesFile(path, line: first) }
        return contents
    }

    /// The cookies of `jar` that are not among `seed`: what servers set or changed since it was seeded.
    /// libcurl writes a domain that covers its subdomains with a leading dot; that is the same cookie.
    public static func changes(in jar: [Cookie], since seed: [Cookie]) -> [Cookie] {
        let known = Set(seed.map(\.identity))
        return jar.filter { !known.contains($0.identity) }
    }
}
