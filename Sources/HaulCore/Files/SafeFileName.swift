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
        // Keep only the last path component, whichever separator the server used.
        let lastComponent = raw.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        var scalars = String.UnicodeScalarView()
        for scalar in lastComponent.unicodeScalars where isAllowed(scalar) {
            scalars.append(scalar)
        }
        var name = String(scalars).trimmingCharacters(in: .whitespacesAndNewlines)
        while let first = name.first, first == "." || first == "-" || first == " " {
            name.removeFirst()
        }
        while let last = name.last, last == "." || last == " " {
            name.removeLast()
        }
        guard !name.isEmpty else { return nil }
        return capped(name)
    }

    /// The decoded last path segment of a URL, sanitised; nil when the URL has no usable segment.
    public static func fromURL(_ text: String) -> String? {
        // A plain scan instead of URLComponents: this runs for every task name shown or chosen.
        var rest = Substring(text)
        if let scheme = rest.range(of: "://") { rest = rest[scheme.upperBound...] }
        if let end = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        let path = rest[slash...]
        guard let segment = path.split(separator: "/").last else { return nil }
        let decoded = String(segment).removingPercentEncoding ?? String(segment)
        return sanitize(decoded)
    }

    /// The name to use when no better one is known.
    public static func fallback(for url: String) -> String {
        if let host = URLComponents(string: url)?.host, let name = sanitize(host) { return name + ".download" }
        return "download"
    }

    /// `name (n).ext`: the n-th alternative when `name` is taken.
    public static func numbered(_ name: String, _ n: Int) -> String {
        let (stem, ext) = split(name)
        return capped("\(stem) (\(n))") + ext
    }

    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return false            // C0, DEL, C1 (includes ESC and CSI)
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
