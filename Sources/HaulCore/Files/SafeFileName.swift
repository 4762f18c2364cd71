import Foundation

/// Turns names suggested by servers and URLs into names that are safe to create inside the download directory.
///
/// A safe name has no path separator, no `..`, no control or terminal escape characters, no bidirectional
/// overrides, does not start with a dot or a dash, and fits in `maxBytes` bytes of UTF-8 (extension kept).
public enum SafeFileName {
    /// Longest name in UTF-8 bytes; leaves room for ` (99)` and `.part` under the usual 255-byte limit.
    public static let maxBytes = 200

    /// The cleaned name, or nil when nothing usable is left.
    public static func sanitize(_ raw: String) -> String? {
        if isPlainASCIIName(raw) { return raw }
        // Keep only the last path component, whichever separator the server used.
        let lastComponent = raw.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        var scalars = String.UnicodeScalarView()
        for scalar in lastComponent.unicodeScalars where isAllowed(scalar) {
            scalars.append(scalar)
        }
        // Trimmed again after capping: a cut can leave a trailing dot or space, or only the extension.
        let name = trimmed(capped(trimmed(String(scalars))))
        return name.isEmpty ? nil : name
    }

    /// Without leading dots, dashes and white space, and without trailing dots and white space. Scalar by
    /// scalar: a space followed by a combining mark is one `Character`, which a comparison with " " misses.
    static func trimmed(_ text: String) -> String {
        var scalars = Substring(text).unicodeScalars
        let space = CharacterSet.whitespacesAndNewlines
        while let first = scalars.first, first == "." || first == "-" || space.contains(first) { scalars.removeFirst() }
        while let last = scalars.last, last == "." || space.contains(last) { scalars.removeLast() }
        return String(String.UnicodeScalarView(scalars))
    }

    /// The decoded last path segment of a URL, sanitised; nil when the URL has no usable segment.
    public static func fromURL(_ text: String) -> String? {
        // A plain byte scan instead of URLComponents: the front ends name every task with it, every frame.
        let bytes = text.utf8
        var start = bytes.startIndex
        if let colon = bytes.firstIndex(of: UInt8(ascii: ":")), bytes[colon...].starts(with: "://".utf8) {
            start = bytes.index(colon, offsetBy: 3)
        }
        let end = bytes[start...].firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.endIndex
        guard let pathStart = bytes[start..<end].firstIndex(of: UInt8(ascii: "/")) else { return nil }
        let raw: String
        let path = bytes[pathStart..<end]
        if path.allSatisfy({ $0 < 0x80 }) {
            // ASCII: the last segment found by bytes (a character is a byte), as `split` below finds it.
            var last = path.endIndex
            while last > path.startIndex, bytes[bytes.index(before: last)] == UInt8(ascii: "/") { last = bytes.index(before: last) }
            guard last > path.startIndex, let slash = path[..<last].lastIndex(of: UInt8(ascii: "/")) else { return nil }
            raw = String(text[bytes.index(after: slash)..<last])
        } else {
            guard let segment = Substring(text[pathStart..<end]).split(separator: "/").last else { return nil }
            raw = String(segment)
        }
        let decoded = raw.utf8.contains(UInt8(ascii: "%")) ? (raw.removingPercentEncoding ?? raw) : raw
        return sanitize(decoded)
    }

    /// The name to use when neither the server nor the URL gives one (`http://host/`): `index.html`,
    /// as wget and aria2 name it. The URL does not change the answer.
    public static func fallback(for url: String) -> String {
        "index.html"
    }

    /// `name (n).ext`: the n-th alternative when `name` is taken.
    public static func numbered(_ name: String, _ n: Int) -> String {
        let (stem, ext) = split(name)
        return capped("\(stem) (\(n))") + ext
    }

    /// The name after `name` in its numbered series: `talk (2).ts` after `talk.ts`, `talk (3).ts` after `talk (2).ts`
    /// (a live recording's next part).
    public static func next(after name: String) -> String {
        let (stem, ext) = split(name)
        if stem.hasSuffix(")"), let open = stem.lastIndex(of: "("), open > stem.startIndex,
           stem[stem.index(before: open)] == " ", let n = Int(stem[stem.index(after: open)..<stem.index(before: stem.endIndex)]),
           (1..<1_000_000).contains(n) {
            return capped(String(stem[..<stem.index(before: open)]) + " (\(n + 1))") + ext
        }
        return numbered(name, 2)
    }

    /// The common case, checked without allocating: printable ASCII, no separators, nothing to trim.
    static func isPlainASCIIName(_ name: String) -> Bool {
        let bytes = name.utf8
        guard let first = bytes.first, let last = bytes.last, bytes.count <= maxBytes,
              first != UInt8(ascii: "."), first != UInt8(ascii: "-"), first != UInt8(ascii: " "),
              last != UInt8(ascii: "."), last != UInt8(ascii: " ") else { return false }
        return bytes.allSatisfy { $0 < 0x80 && !Unicode.Scalar($0).isControlCharacter && $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "\\") }
    }

    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isControlCharacter { return false }  // C0, DEL, C1 (includes ESC and CSI)
        switch scalar.value {
        case 0x061C, 0x200B...0x200F, 0x2028...0x202E, 0x2066...0x2069: return false  // invisible, bidi marks and overrides
        case 0xFEFF, 0xFFFD: return false
        default: return scalar != "/" && scalar != "\\"
        }
    }

    /// Splits a final extension of up to 16 bytes (`.tar.gz` keeps `.gz`).
    static func split(_ name: String) -> (stem: String, ext: String) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (name, "") }
        let ext = String(name[dot...])
        guard ext.utf8.count <= 16, ext.utf8.count > 1 else { return (name, "") }
        return (String(name[..<dot]), ext)
    }

    /// Cuts the stem at a character boundary so the whole name fits in `maxBytes`.
    static func capped(_ name: String) -> String {
        guard name.utf8.count > maxBytes else { return name }
        let (stem, ext) = split(name)
        var result = ""
        for character in stem {
            if result.utf8.count + String(character).utf8.count + ext.utf8.count > maxBytes { break }
            result.append(character)
        }
        return result + ext
    }
}
