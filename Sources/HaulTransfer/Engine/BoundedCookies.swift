import HaulCore

/// The cookies servers set for one task, oldest first, at most `perHost` for one host and `total` in all, so
/// that a server setting new cookies on every answer cannot grow the task's jar (and the work libcurl does for
/// each of the task's requests and answers, which is proportional to it) without end. Past a bound the oldest
/// go, as in browsers. Pure.
struct BoundedCookies {
    /// Browsers keep about this many per domain.
    static let perHost = 180
    static let total = 1000

    let perHost: Int
    let total: Int
    /// Oldest first.
    private(set) var cookies: [CookieFile.Cookie]

    /// `cookies` (oldest first) within the bounds.
    init(_ cookies: [CookieFile.Cookie], perHost: Int = Self.perHost, total: Int = Self.total) {
        self.perHost = perHost
        self.total = total
        self.cookies = cookies
        evictOldest()
    }

    /// Takes in what the jar holds now, `jar` in libcurl's order (for one host, the order they were set in):
    /// a cookie no longer in it is gone, a new or changed one becomes the newest. Returns whether any cookie of
    /// `jar` was evicted, that is whether the jar must be cut down to `cookies`.
    mutating func update(from jar: [CookieFile.Cookie]) -> Bool {
        let current = Dictionary(jar.map { ($0.slot, $0.identity) }, uniquingKeysWith: { _, last in last })
        let kept = cookies.filter { current[$0.slot] == $0.identity }
        var known = Set(kept.map(\.identity))
        let newer = jar.filter { known.insert($0.identity).inserted }
        cookies = kept + newer
        return evictOldest()
    }

    /// Drops the oldest cookies past either bound; returns whether any went.
    @discardableResult
    private mutating func evictOldest() -> Bool {
        var perHostCount: [String: Int] = [:]
        var keptCount = 0
        var keep = [Bool](repeating: false, count: cookies.count)
        for index in cookies.indices.reversed() where keptCount < total {
            let host = cookies[index].host
            guard perHostCount[host, default: 0] < perHost else { continue }
            perHostCount[host, default: 0] += 1
            keptCount += 1
            keep[index] = true
        }
        guard keptCount < cookies.count else { return false }
        cookies = cookies.indices.filter { keep[$0] }.map { cookies[$0] }
        return true
    }
}
