/// Connections open (or queued in libcurl) per host across every transfer, against `--max-host-connections`.
///
/// Every task gets its first connection; extra ranges of a segmented download open only while the host
/// has room, so a task that starts later is never kept waiting behind another's extra connections.
/// Owned by the transfer thread.
final class HostConnections {
    private var open: [String: Int] = [:]
    var limit = 8

    func opened(_ host: String) { open[host, default: 0] += 1 }

    func closed(_ host: String) {
        let left = (open[host] ?? 1) - 1
        open[host] = left > 0 ? left : nil
    }

    /// Whether more connections are open (some queued in libcurl) than the host may have.
    func isOver(_ host: String) -> Bool { (open[host] ?? 0) > limit }

    /// How many more extra connections the host may take now.
    func room(for host: String) -> Int { max(0, limit - (open[host] ?? 0)) }
}
