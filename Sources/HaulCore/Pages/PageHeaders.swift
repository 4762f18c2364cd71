/// The headers yt-dlp says a format's requests carry, as `K: V` lines checked as `-H` lines are (`HeaderRule`): a
/// line that would not pass there (a line break, a bad name) is left out. Its cookies go as one `Cookie` line.
public enum PageHeaders {
    /// The most header lines taken from one format.
    static let maxLines = 32

    /// `format`'s headers and cookies as lines, sorted by name so the same answer gives the same lines.
    public static func lines(of format: PageFormat) -> [String] {
        var lines = format.httpHeaders.sorted { $0.key < $1.key }.compactMap { name, value in
            checked("\(name): \(value)")
        }
        if let cookie = cookieLine(format.cookies) { lines.append(cookie) }
        return Array(lines.prefix(maxLines))
    }

    /// The `name=value` pairs of yt-dlp's `cookies` text (`a=1; Domain=x; Path=/; b=2; …`) as a `Cookie` line.
    static func cookieLine(_ text: String?) -> String? {
        guard let text else { return nil }
        let attributes: Set<String> = ["domain", "path", "expires", "max-age", "secure", "httponly", "samesite", "version", "comment"]
        let pairs = text.split(separator: ";").compactMap { part -> String? in
            let pair = part.trimmingHTTPWhitespace()
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else { return nil }
            let name = pair[..<equals].trimmingHTTPWhitespace()
            return attributes.contains(name.lowercased()) ? nil : String(pair)
        }
        guard !pairs.isEmpty else { return nil }
        return checked("Cookie: " + pairs.joined(separator: "; "))
    }

    /// `line` when `HeaderRule` accepts it.
    static func checked(_ line: String) -> String? {
        guard line.utf8.count <= 8192 else { return nil }
        do { try HeaderRule.check(line) } catch { return nil }
        return line
    }

    /// `own` with the lines of `page` whose names `own` does not set: the user's headers win.
    /// Page lines that would take the task past `HeaderRule.maxTotalBytes` are left out.
    public static func merged(_ own: [String], page: [String]) -> [String] {
        let names = Set(own.map(HeaderRule.name))
        var total = own.reduce(0) { $0 + $1.utf8.count }
        var lines = own
        for line in page where !names.contains(HeaderRule.name(line)) && total + line.utf8.count <= HeaderRule.maxTotalBytes {
            lines.append(line)
            total += line.utf8.count
        }
        return lines
    }
}
