/// A loopback HTTP/1.1 server with byte-level control over every response, for tests and demos.
///
/// It listens on 127.0.0.1 only (an ephemeral port unless one is given), serves each connection
/// on its own thread with keep-alive, and stops itself once `lifetime` has passed so a forgotten
/// server never outlives a test run for long. Paths get scripts with `route(_:_:)`; any path under
/// `/gen/NAME?size=N&...` gets an ad-hoc plan from its query (see `FaultPlan.queryParameters`), and any path under
/// `/hls/NAME/` a generated HLS stream with its faults (`/hls/NAME/index.m3u8?segments=N&segsize=S&…`, see
/// `HLSPlan.queryParameters`);
/// `/stats?path=/gen/NAME` answers a path's counters as JSON (for scripts), `/sent` the bytes sent so far
/// with a timestamp; everything else is 404.
///
/// Thread-safe: every method may be called from any thread or task.
public final class FaultServer: Sendable {
    private let core: ServerCore

    /// Binds 127.0.0.1:`port` (0 = ephemeral) and starts serving.
    public init(port: UInt16 = 0, lifetime: Duration = .seconds(600)) throws {
        core = try ServerCore(port: port, lifetime: lifetime)
        try core.start()
    }

    /// The bound port.
    public var port: UInt16 { core.port }

    /// `http://127.0.0.1:PORT` followed by `path`, which starts with "/". The path is used as given (not encoded).
    public func url(_ path: String) -> String {
        "http://127.0.0.1:\(core.port)\(path)"
    }

    /// Sets or replaces the script for `path` (without query), resetting the plan's request, drop and stall counters.
    /// Stats keep accumulating; see `resetStats(_:)`.
    ///
    /// Paths match after percent-decoding, so a route for `/電影.mp4` also answers `/%E9%9B%BB%E5%BD%B1.mp4`;
    /// `stats(_:)` accepts either spelling too.
    public func route(_ path: String, _ plan: FaultPlan) {
        core.install(plan, at: path)
    }

    /// What happened on `path` so far.
    public func stats(_ path: String) -> RouteStats {
        core.stats(path)
    }

    /// Forgets the stats of `path`.
    public func resetStats(_ path: String) {
        core.resetStats(path)
    }

    /// Connections accepted since start (tells keep-alive reuse from new connections).
    public var connectionsAccepted: Int { core.connectionsAccepted }

    /// Whether the server has stopped (by `stop()` or at the end of its lifetime).
    public var isStopped: Bool { core.isStopping }

    /// Closes the listener and every connection, then waits up to two seconds for the server threads to end.
    /// Idempotent.
    public func stop() {
        core.stop()
    }
}
