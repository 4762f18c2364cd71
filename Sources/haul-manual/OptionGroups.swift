/// How OPTIONS groups a run's options, in the README's order: each long option once. An option the argument parser
/// has that no group names lands in "Other options", and `ManualTests` fails on it, so a new option is placed here.
enum OptionGroups {
    static let table: [(title: String, options: [String])] = [
        ("Adding downloads", ["dir", "output", "input-file", "checksum", "mirror", "continue", "allow-overwrite"]),
        ("Requests", ["header", "user-agent", "referer", "all-proxy", "no-proxy", "load-cookies", "netrc-file", "ca-cert"]),
        ("Video streams", ["stream", "stream-quality", "stream-remux", "stream-audio", "stream-subs", "live-limit", "extractor"]),
        ("Transfers and limits", ["max-concurrent", "split", "min-split-size", "max-host-connections", "limit-rate",
                                  "max-overall-download-limit", "retries", "timeout", "disk-reserve"]),
        ("Screen and output", ["headless", "json", "keep-running", "theme", "no-color", "no-mouse", "notify"]),
        ("Remote control and hooks", ["rpc-listen", "rpc-secret-file", "rpc-allow-origin", "rpc-allowed-dir",
                                      "on-download-complete", "on-download-error", "on-link-expired"]),
        ("State and settings", ["state-dir", "config"]),
    ]

    static let otherTitle = "Other options"

    /// `options` in groups, each group's options in the table's order; the unplaced ones last.
    static func grouped(_ options: [ArgumentDump]) -> [(title: String, options: [ArgumentDump])] {
        var groups = table.map { group in
            (title: group.title, options: group.options.compactMap { name in options.first { $0.longName == name } })
        }
        let placed = Set(table.flatMap(\.options))
        let others = options.filter { !placed.contains($0.longName ?? "") }
        if !others.isEmpty { groups.append((otherTitle, others)) }
        return groups.filter { !$0.options.isEmpty }
    }
}
