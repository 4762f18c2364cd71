import HaulCore

/// The `/stats?path=/gen/NAME` page: one path's counters as a line of JSON, for scripts such as the benchmarks.
///
/// Example: `{"path":"/gen/a.bin","requests":9,"connections":8,"bodyBytesSent":104857600,"statuses":{"206":9}}`.
/// With `&times=1` the line also carries `firstHeadTimes`: for each connection, the monotonic seconds at which
/// its first response head for the path was sent (see `MonotonicSeconds`).
/// Asking for the stats is not counted in them.
enum StatsPage {
    static let path = "/stats"

    /// The JSON line for `stats` of `path`.
    static func text(path: String, stats: RouteStats, withTimes: Bool = false) -> String {
        var statuses: [Int: Int] = [:]
        for status in stats.statuses { statuses[status, default: 0] += 1 }
        let statusText = statuses.keys.sorted().map { "\"\($0)\":\(statuses[$0]!)" }.joined(separator: ",")
        let times = withTimes
            ? ",\"firstHeadTimes\":[" + stats.firstHeadTimes.map(MonotonicSeconds.text).joined(separator: ",") + "]" : ""
        return "{\"path\":\(path.jsonStringLiteral),\"requests\":\(stats.requests),\"connections\":\(stats.connections),"
            + "\"bodyBytesSent\":\(stats.bodyBytesSent),\"statuses\":{\(statusText)}\(times)}\n"
    }
}
