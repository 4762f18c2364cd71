#if canImport(Glibc)
import Glibc
#endif
import HaulCore

/// The shared state of one server: listener, routes, counters, stats and open connections.
///
/// Owned jointly by the public `FaultServer` and by every server thread, so it lives until the
/// last thread has finished. Everything mutable sits behind one mutex.
final class ServerCore: Sendable {
    /// Per-path counters behind the plan's "first K" faults and per-connection rates; reset when a plan is installed.
    struct Counters {
        var requests = 0
        var drops = 0
        var stalls = 0
        /// Each connection's place (0-based) among the connections that asked for the path, by serial.
        var connectionOrder: [Int: Int] = [:]

        /// The place of connection `serial`, given one at its first request.
        mutating func order(of serial: Int) -> Int {
            if let order = connectionOrder[serial] { return order }
            connectionOrder[serial] = connectionOrder.count
            return connectionOrder.count - 1
        }
        /// Requests whose Range starts after byte 0 (the extra connections of a segmented download).
        var extra = 0
    }

    /// What the connection thread should serve for one request.
    enum Lookup {
        /// `connectionOrder`: the connection's place (0-based) among those that asked for the path;
        /// `extraNumber` counts requests whose Range starts after byte 0 (nil for any other request).
        case plan(FaultPlan, requestNumber: Int, connectionOrder: Int, extraNumber: Int?)
        /// A counters page (`/stats?path=…`, `/sent`): its text.
        case stats(String)
        /// A malformed query: the usage text of the parameters that path takes.
        case badQuery(usage: String)
        case notFound
    }

    struct State {
        var plans: [String: FaultPlan] = [:]
        var counters: [String: Counters] = [:]
        var stats: [String: RouteStats] = [:]
        /// Serials of the connections that asked for each path since its stats were last reset.
        var statsConnections: [String: Set<Int>] = [:]
        /// Serials of the connections that have been sent a response head for each path since its stats were last reset.
        var headConnections: [String: Set<Int>] = [:]
        /// Body bytes sent for every path but the server's own pages, since start (the `/sent` page).
        var bodyBytesSent: Int64 = 0
        /// Playlist fetches of each generated HLS track (`HLSRoute.trackKey`): the latest one's number is the
        /// token rotated links must carry.
        var playlistFetches: [String: Int] = [:]
        /// Segment requests made with each rotated token (`trackKey` and token), for links that expire (`expire=N`).
        var tokenUses: [String: Int] = [:]
        var connections: Set<Int32> = []
        /// Bytes written to connections that closed before their peer took them (the `/sent` page's `untaken`).
        var untakenAtClose: Int64 = 0
        var threads = 0
        var accepted = 0
        var stopping = false
    }

    let port: UInt16
    private let listenFD: Int32
    /// Read end of the stop pipe: becomes (and stays) readable once the server stops; every wait polls it.
    let stopFD: Int32
    private let stopWriteFD: Int32
    private let deadline: ContinuousClock.Instant
    private let state = PthreadMutex(State())

    init(port: UInt16, lifetime: Duration) throws {
        var pipeFDs: [Int32] = [0, 0]
        guard pipe(&pipeFDs) == 0 else { throw Socket.Failure(call: "pipe", code: errno) }
        Socket.setCloseOnExec(pipeFDs[0])
        Socket.setCloseOnExec(pipeFDs[1])
        do {
            (listenFD, self.port) = try Socket.listenLoopback(port: port)
        } catch {
            close(pipeFDs[0])
            close(pipeFDs[1])
            throw error
        }
        stopFD = pipeFDs[0]
        stopWriteFD = pipeFDs[1]
        deadline = .now + lifetime
    }

    deinit {
        close(stopFD)
        close(stopWriteFD)
    }

    // MARK: Threads

    /// Starts the accept loop; it ends at stop or when the lifetime is over.
    func start() throws {
        state.withLock { $0.threads += 1 }
        do {
            try ServerThread.spawn { [self] in acceptLoop() }
        } catch {
            state.withLock { $0.threads -= 1 }
            close(listenFD)
            throw error
        }
    }

    private func acceptLoop() {
        defer {
            close(listenFD)
            state.withLock { $0.threads -= 1 }
        }
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            if remaining <= .zero {
                beginShutdown()
                return
            }
            let ready = Socket.waitReadable([listenFD, stopFD], timeoutMilliseconds: Socket.milliseconds(remaining))
            if ready.contains(stopFD) { return }
            guard ready.contains(listenFD) else { continue }
            guard let fd = Socket.accept(listenFD) else { return }
            let serial = state.withLock { state -> Int? in
                guard !state.stopping else { return nil }
                state.connections.insert(fd)
                state.threads += 1
                state.accepted += 1
                return state.accepted
            }
            guard let serial else {
                close(fd)
                return
            }
            do {
                try ServerThread.spawn { [self] in
                    Connection(fd: fd, serial: serial, core: self).run()
                    finishConnection(fd)
                }
            } catch {
                finishConnection(fd)
            }
        }
    }

    /// Forgets and closes a connection; under the lock, so `beginShutdown` never touches a reused descriptor.
    private func finishConnection(_ fd: Int32) {
        state.withLock { state in
            state.connections.remove(fd)
            state.untakenAtClose += Socket.unsentBytes(fd)
            close(fd)
            state.threads -= 1
        }
    }

    /// Marks the server stopped, wakes every wait and cuts every open connection. Idempotent.
    func beginShutdown() {
        let first = state.withLock { state -> Bool in
            guard !state.stopping else { return false }
            state.stopping = true
            for fd in state.connections { shutdown(fd, Int32(SHUT_RDWR)) }
            return true
        }
        guard first else { return }
        var byte: UInt8 = 1
        _ = write(stopWriteFD, &byte, 1)
    }

    /// Stops and waits (at most `timeout`) until every server thread has finished.
    func stop(timeout: Duration = .seconds(2)) {
        beginShutdown()
        let giveUp = ContinuousClock.now + timeout
        while state.withLock({ $0.threads }) > 0 && ContinuousClock.now < giveUp {
            _ = Socket.waitReadable([], timeoutMilliseconds: 2)
        }
    }

    var isStopping: Bool { state.withLock { $0.stopping } }
    var connectionsAccepted: Int { state.withLock { $0.accepted } }

    /// Sleeps for `duration` unless the server stops first; false when it stopped.
    func pause(for duration: Duration) -> Bool {
        pause(until: .now + duration)
    }

    /// Sleeps until `instant` unless the server stops first; false when it stopped.
    func pause(until instant: ContinuousClock.Instant) -> Bool {
        while true {
            let remaining = ContinuousClock.now.duration(to: instant)
            if remaining <= .zero { return !isStopping }
            if !Socket.waitReadable([stopFD], timeoutMilliseconds: Socket.milliseconds(remaining)).isEmpty { return false }
        }
    }

    // MARK: Routes and stats

    func install(_ plan: FaultPlan, at path: String) {
        let key = HTTPRequest.routeKey(path)
        state.withLock { state in
            state.plans[key] = plan
            state.counters[key] = Counters()
        }
    }

    func stats(_ path: String) -> RouteStats {
        let key = Self.statsKey(HTTPRequest.routeKey(path))
        return state.withLock { $0.stats[key] ?? RouteStats() }
    }

    func resetStats(_ path: String) {
        let key = Self.statsKey(HTTPRequest.routeKey(path))
        state.withLock { state in
            state.stats[key] = nil
            state.statsConnections[key] = nil
            state.headConnections[key] = nil
        }
    }

    /// Records a request of connection `serial` in the stats and finds what to serve for it
    /// (keys are `HTTPRequest.routeKey`). `/stats` answers from the stats unless a route is installed there.
    func lookUp(_ request: HTTPRequest, connection serial: Int) -> Lookup {
        if let route = HLSRoute(path: request.routeKey), state.withLock({ $0.plans[request.routeKey] == nil }) {
            return lookUpStream(request, route: route, connection: serial)
        }
        return state.withLock { state in
            let path = request.routeKey
            if path == StatsPage.path, state.plans[path] == nil {
                let asked = Self.statsKey(HTTPRequest.routeKey(request.query["path"] ?? ""))
                let withTimes = FaultPlan.isTrue(request.query["times"])
                return .stats(StatsPage.text(path: asked, stats: state.stats[asked] ?? RouteStats(), withTimes: withTimes))
            }
            if path == SentPage.path, state.plans[path] == nil {
                let queued = state.connections.reduce(Int64(0)) { $0 + Socket.unsentBytes($1) }
                return .stats(SentPage.text(bodyBytesSent: state.bodyBytesSent, untaken: queued + state.untakenAtClose))
            }
            Self.recordRequest(request, path: path, connection: serial, in: &state)
            let plan: FaultPlan
            if let installed = state.plans[path] {
                plan = installed
            } else {
                guard path.hasPrefix("/gen/"), path.count > "/gen/".count else { return .notFound }
                let name = String(path.dropFirst("/gen/".count))
                guard let fromQuery = FaultPlan.fromQuery(request.query, name: name) else {
                    return .badQuery(usage: FaultPlan.queryParameters)
                }
                plan = fromQuery
            }
            state.counters[path, default: Counters()].requests += 1
            let order = state.counters[path]!.order(of: serial)
            var extraNumber: Int?
            if Self.rangeStartsAfterZero(request) {
                state.counters[path]!.extra += 1
                extraNumber = state.counters[path]!.extra
            }
            return .plan(plan, requestNumber: state.counters[path]!.requests, connectionOrder: order, extraNumber: extraNumber)
        }
    }

    /// Records a request of connection `serial` for `path` in the stats.
    private static func recordRequest(_ request: HTTPRequest, path: String, connection serial: Int, in state: inout State) {
        state.stats[path, default: RouteStats()].requests += 1
        state.stats[path]!.rangeHeaders.append(request.header("Range"))
        state.stats[path]!.ifRangeHeaders.append(request.header("If-Range"))
        if state.statsConnections[path, default: []].insert(serial).inserted {
            state.stats[path]!.connections += 1
        }
    }

    /// A generated HLS stream's answer (`/hls/NAME/…`, see `HLSPlan.queryParameters`): counted under the lock,
    /// the bytes made outside it (a segment may be megabytes to encrypt).
    private func lookUpStream(_ request: HTTPRequest, route: HLSRoute, connection serial: Int) -> Lookup {
        let path = route.statsKey
        let rawQuery = request.target.split(separator: "?", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
        let plan = HLSPlan.fromQuery(request.query, rawQuery: rawQuery, name: route.name)
        let (requestNumber, order, fetch, tokenUses) = state.withLock { state in
            Self.recordRequest(request, path: path, connection: serial, in: &state)
            state.counters[path, default: Counters()].requests += 1
            let order = state.counters[path]!.order(of: serial)
            if plan != nil, case .playlist = route.resource {
                state.playlistFetches[route.trackKey, default: 0] += 1
            }
            var uses = 0
            if case let .segment(_, token?) = route.resource {
                uses = state.tokenUses[route.trackKey + "#\(token)", default: 0] + 1
                state.tokenUses[route.trackKey + "#\(token)"] = uses
            }
            return (state.counters[path]!.requests, order, state.playlistFetches[route.trackKey] ?? 0, uses)
        }
        guard let plan else { return .badQuery(usage: HLSPlan.queryParameters) }
        let answer = HLSResponder.plan(for: route, of: plan, requestNumber: requestNumber, fetch: fetch, tokenUses: tokenUses)
        return .plan(answer, requestNumber: requestNumber, connectionOrder: order, extraNumber: nil)
    }

    /// The stats and counters key of a decoded path: itself, but a rotated HLS link without its token.
    static func statsKey(_ path: String) -> String {
        HLSRoute(path: path)?.statsKey ?? path
    }

    /// Whether the request asks for a range that starts after byte 0, as the extra connections of a segmented
    /// download (and a resumed single stream) do.
    static func rangeStartsAfterZero(_ request: HTTPRequest) -> Bool {
        switch request.header("Range").flatMap(RangeRequest.parse) {
        case .from(let start)?, .closed(let start, _)?: return start > 0
        case .suffix?, nil: return false
        }
    }

    func recordStatus(_ status: Int, path: String) {
        state.withLock { $0.stats[path, default: RouteStats()].statuses.append(status) }
    }

    func addBodyBytes(_ count: Int, path: String) {
        guard count > 0 else { return }
        state.withLock { state in
            state.stats[path, default: RouteStats()].bodyBytesSent += Int64(count)
            if !SentPage.isOwnPage(path) { state.bodyBytesSent += Int64(count) }
        }
    }

    /// Keeps how a response on a capped connection met its bucket, once the response has ended.
    func recordCapped(_ response: CappedResponse, path: String) {
        state.withLock { $0.stats[path, default: RouteStats()].cappedResponses.append(response) }
    }

    /// Notes that connection `serial` was just sent a response head for `path`: the first one per connection is timed.
    func recordHeadSent(path: String, connection serial: Int) {
        let now = MonotonicSeconds.now()
        state.withLock { state in
            guard state.headConnections[path, default: []].insert(serial).inserted else { return }
            state.stats[path, default: RouteStats()].firstHeadTimes.append(now)
        }
    }

    /// Takes one of the plan's `dropTimes` drops for `path`; false when they are used up.
    func claimDrop(path: String, limit: Int) -> Bool {
        state.withLock { state in
            guard state.counters[path, default: Counters()].drops < limit else { return false }
            state.counters[path]!.drops += 1
            return true
        }
    }

    /// Takes one of the plan's `stallTimes` stalls for `path`; false when they are used up.
    func claimStall(path: String, limit: Int) -> Bool {
        state.withLock { state in
            guard state.counters[path, default: Counters()].stalls < limit else { return false }
            state.counters[path]!.stalls += 1
            return true
        }
    }
}
