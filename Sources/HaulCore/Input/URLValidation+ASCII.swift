/// The fast path of `URLValidation.validate`: plain ASCII URLs checked by hand, without Foundation's parser.
///
/// `URLComponents` maps every host through ICU's IDNA tables, which costs about 1.2 MiB of resident
/// memory even for `127.0.0.1`. Text made only of RFC 3986 characters needs none of that: for it,
/// `URLComponents` gives back the text unchanged apart from the scheme's case.
extension URLValidation {
    /// What `validatedByFoundation` returns for `text` (the scheme lower-cased, the rest as given) when `text`
    /// is an http(s) URL in plain RFC 3986 syntax; nil for anything else, valid or not, which then takes the
    /// full parser.
    ///
    /// Left to the full parser: whitespace anywhere (it trims), characters outside RFC 3986 (it
    /// percent-encodes them), a `%` that is not `%HH` or sits in the host (it decodes host escapes), an `xn--` label, a second
    /// `@` or `#`, IPv6 zone ids and IPvFuture literals, an empty port or one with a leading zero (it rewrites
    /// those), and every invalid URL (its errors are the reference).
    static func validatedASCII(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard let schemeEnd = httpSchemeEnd(bytes),
              bytes.count >= schemeEnd + 3,
              bytes[schemeEnd] == UInt8(ascii: ":"), bytes[schemeEnd + 1] == slash, bytes[schemeEnd + 2] == slash
        else { return nil }
        let authorityStart = schemeEnd + 3
        let authorityEnd = bytes[authorityStart...].firstIndex { $0 == slash || $0 == question || $0 == hash } ?? bytes.count
        guard isPlainAuthority(bytes[authorityStart..<authorityEnd]),
              isPlainPathQueryFragment(bytes[authorityEnd...])
        else { return nil }
        let scheme = schemeEnd == 4 ? "http" : "https"
        return scheme + String(decoding: bytes[schemeEnd...], as: UTF8.self)
    }

    /// The index just past `http` or `https` (any case) at the start, else nil.
    private static func httpSchemeEnd(_ bytes: [UInt8]) -> Int? {
        let lowered = bytes.prefix(6).map { $0 | 0x20 }  // ASCII letters to lower case; others never match below
        if lowered.starts(with: Array("https:".utf8)) { return 5 }
        if lowered.starts(with: Array("http:".utf8)) { return 4 }
        return nil
    }

    /// `[userinfo@]host[:port]` with a non-empty host, an IPv6 literal of hex digits, `:` and `.` only, and a
    /// port of 1–65535 written without a leading zero.
    private static func isPlainAuthority(_ authority: ArraySlice<UInt8>) -> Bool {
        var hostAndPort = authority
        if let at = authority.firstIndex(of: UInt8(ascii: "@")) {
            let userinfo = authority[..<at]
            guard isPlain(userinfo, allowing: { isUnreserved($0) || isSubDelimiter($0) || $0 == colon }) else { return false }
            hostAndPort = authority[(at + 1)...]
        }
        let portStart: Int?
        if hostAndPort.first == UInt8(ascii: "[") {
            guard let close = hostAndPort.firstIndex(of: UInt8(ascii: "]")) else { return false }
            let literal = hostAndPort[(hostAndPort.startIndex + 1)..<close]
            guard literal.contains(colon), literal.allSatisfy({ isHexDigit($0) || $0 == colon || $0 == UInt8(ascii: ".") })
            else { return false }
            let rest = hostAndPort[(close + 1)...]
            guard rest.isEmpty || rest.first == colon else { return false }
            portStart = rest.isEmpty ? nil : rest.startIndex + 1
        } else {
            let colonIndex = hostAndPort.firstIndex(of: colon)
            let host = hostAndPort[..<(colonIndex ?? hostAndPort.endIndex)]
            guard !host.isEmpty, host.allSatisfy({ isUnreserved($0) || isSubDelimiter($0) }), !hasPunycode(host)
            else { return false }
            portStart = colonIndex.map { $0 + 1 }
        }
        guard let portStart else { return true }
        let port = hostAndPort[portStart...]
        guard (1...5).contains(port.count), port.first != UInt8(ascii: "0"), port.allSatisfy(isDigit) else { return false }
        return port.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) } <= 65_535
    }

    /// Whether the host has an `xn--` label (in any case): Foundation runs those through IDNA, which lower-cases them.
    private static func hasPunycode(_ host: ArraySlice<UInt8>) -> Bool {
        let prefix = Array("xn--".utf8)
        return host.indices.contains { start in
            (start == host.startIndex || host[start - 1] == UInt8(ascii: "."))
                && host[start...].prefix(4).map { $0 | 0x20 } == prefix  // `-` is 0x2D, unchanged by | 0x20
        }
    }

    /// Path, query and fragment: RFC 3986 `pchar`s, `/` and `?`, valid `%HH` escapes, and at most one `#`.
    private static func isPlainPathQueryFragment(_ rest: ArraySlice<UInt8>) -> Bool {
        guard let hashIndex = rest.firstIndex(of: hash) else { return isPlain(rest, allowing: isPathCharacter) }
        return isPlain(rest[..<hashIndex], allowing: isPathCharacter)
            && isPlain(rest[(hashIndex + 1)...], allowing: isPathCharacter)
    }

    /// `rest` (path, query and fragment) with what RFC 3986 does not allow there percent-encoded as UTF-8
    /// bytes, as curl and browsers send raw non-ASCII text, and nothing else touched: a `%HH` escape stays
    /// byte for byte (a signed link's query must reach the server as it was signed), a lone `%` becomes `%25`,
    /// and a `#` after the first becomes `%23`.
    static func escapingOutsideRFC3986(_ rest: Substring) -> String {
        let bytes = Array(rest.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var seenHash = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) {
                out += bytes[index...(index + 2)]
                index += 3
                continue
            }
            if isPathCharacter(byte) || (byte == hash && !seenHash) {
                seenHash = seenHash || byte == hash
                out.append(byte)
            } else {
                let digits = Array("0123456789ABCDEF".utf8)
                out += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
            }
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether every byte passes `allowed` or starts a `%HH` escape.
    private static func isPlain(_ part: ArraySlice<UInt8>, allowing allowed: (UInt8) -> Bool) -> Bool {
        var index = part.startIndex
        while index < part.endIndex {
            let byte = part[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < part.endIndex,
                      isHexDigit(part[index + 1]), isHexDigit(part[index + 2])
                else { return false }
                index += 3
            } else {
                guard allowed(byte) else { return false }
                index += 1
            }
        }
        return true
    }

    private static let slash = UInt8(ascii: "/")
    private static let question = UInt8(ascii: "?")
    private static let hash = UInt8(ascii: "#")
    private static let colon = UInt8(ascii: ":")

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
    }

    /// RFC 3986 `unreserved`: letters, digits, `-._~`.
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || "-._~".utf8.contains(byte)
    }

    /// RFC 3986 `sub-delims`.
    private static func isSubDelimiter(_ byte: UInt8) -> Bool { "!$&'()*+,;=".utf8.contains(byte) }

    /// `pchar`, `/` and `?`: what RFC 3986 allows unescaped in a path, a query and a fragment.
    private static func isPathCharacter(_ byte: UInt8) -> Bool {
        isUnreserved(byte) || isSubDelimiter(byte) || byte == colon || byte == UInt8(ascii: "@") || byte == slash
            || byte == question
    }
}
