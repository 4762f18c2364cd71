/// How the first ranges of a segmented download are shared among its links (DESIGN §8): up to `-s`
/// connections on each link, within each host's room, and the planned ranges handed to the links in turn so
/// that every link starts with ranges spread over the file. Pure: tested without a network.
enum LinkShares {
    /// One link, as the sharing sees it.
    struct Link: Equatable {
        var host: String
        var isMain: Bool
        var isLive = true
        /// Connections it may use (`-s`).
        var target: Int
        /// Whether one of its connections is open already (the first request, which counts).
        var hasOpen = false
    }

    /// How many connections each link gets (in the order given), open ones included. Links on one host share
    /// its room (`room(host)`, extra connections it may take now); the main link gets one even on a full host
    /// when no connection is open yet (libcurl queues it).
    static func counts(_ links: [Link], room: (String) -> Int) -> [Int] {
        var left: [String: Int] = [:]
        let anyOpen = links.contains(where: \.hasOpen)
        return links.map { link in
            let open = link.hasOpen ? 1 : 0
            let free = left[link.host] ?? room(link.host)
            var count = link.isLive ? max(0, min(link.target - open, free)) : 0
            if link.isMain, !anyOpen { count = max(1, count) }
            left[link.host] = free - count
            return count + open
        }
    }

    /// The link (index into `counts`) of each of `leases` ranges in file order: the links in turn from `start`,
    /// each until its count is used up.
    static func owners(leases: Int, counts: [Int], start: Int) -> [Int] {
        guard !counts.isEmpty else { return [] }
        var left = counts
        var owners: [Int] = []
        var turn = start
        for _ in 0..<min(leases, counts.reduce(0, +)) {
            while left[turn % counts.count] == 0 { turn += 1 }
            left[turn % counts.count] -= 1
            owners.append(turn % counts.count)
            turn += 1
        }
        return owners
    }

    /// In which order the links still in use (`live`) are offered work: `thief` first (its connection just
    /// finished a range and likely stays open), then by measured speed per connection (`speeds`, 0: not known
    /// yet), fastest first, then in the task's order. Indices into the arrays.
    static func order(speeds: [Double], live: [Bool], thief: Int?) -> [Int] {
        speeds.indices.filter { live[$0] }.sorted { a, b in
            if (a == thief) != (b == thief) { return a == thief }
            if speeds[a] != speeds[b] { return speeds[a] > speeds[b] }
            return a < b
        }
    }
}
