/// A glob on a host name (`*.example.org`, `mirror?.example.net`): `*` stands for any run of characters, dots
/// included, `?` for one; letters compare without case. `localhost` and `127.0.0.1` are different hosts.
public struct HostGlob: Sendable, Equatable, CustomStringConvertible {
    public let pattern: String

    public init(_ pattern: String) {
        self.pattern = pattern.lowercased()
    }

    public var description: String { pattern }

    /// Whether `host` (a URL's host, without port; an IPv6 address in brackets) matches.
    public func matches(_ host: String) -> Bool {
        Self.match(Array(pattern), Array(host.lowercased()))
    }

    /// Iterative glob match with one back-tracking point for the last `*`.
    private static func match(_ pattern: [Character], _ text: [Character]) -> Bool {
        var p = 0, t = 0
        var star: Int?
        var resume = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == "?" || pattern[p] == text[t] {
                p += 1
                t += 1
            } else if p < pattern.count, pattern[p] == "*" {
                star = p
                resume = t
                p += 1
            } else if let star {
                p = star + 1
                resume += 1
                t = resume
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}
