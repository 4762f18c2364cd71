import HaulCore

/// One HTTP connection of a download: its easy handle, the response head, and where its bytes go.
///
/// The first connection of a task asks for the file (or its rest, to resume) and decides its name and
/// validators; a segmented download adds connections that each fetch one bounded range. A connection knows
/// nothing of its transfer: libcurl's callbacks go to the transfer (`ActiveTransfer+Callbacks`), which finds the
/// connection by its handle, and the engine loop starts the connections the transfer decided on. Confined to the
/// transfer thread.
final class Connection: EngineRequest {
    enum Role: Equatable {
        /// The task's first request: its answer decides name, total and validators.
        case first
        /// A bounded range request of a segmented download.
        case range
    }

    enum State: Equatable {
        case awaitingResponse
        case receiving
        /// The connection fetched all it was meant to (its lease's end was reached).
        case reachedEnd
        /// It must end for this reason; for a `.range` connection the task may go on without it.
        case failed(DownloadError)
        /// Its answer says the file changed: the whole download starts over.
        case fileChanged(String)
        /// A full 200 to a range request: the server does not answer ranges.
        case rangesIgnored
    }

    let role: Role
    let easy = CurlEasy()
    /// The task whose budgets pace it.
    let pacedTask: TaskID
    /// The link it asks: the task's main link or a mirror.
    let link: TransferLink
    var head = ResponseHead()
    var state = State.awaitingResponse
    /// The range this connection asks for; a `.first` connection asks for everything from its start.
    let requested: Range<Int64>
    /// File offset of the next byte.
    var cursor: Int64
    /// Where it must stop (exclusive); nil for a single stream, which ends with the file.
    var end: Int64?
    /// The ledger lease it fetches, in a segmented download.
    var lease: SegmentLease.ID?
    /// Bytes written since the engine's last progress tick, and the smoothed rate from them.
    var bytesSinceTick: Int64 = 0
    var speed: Double = 0
    /// How long it has been receiving body bytes, by the engine's ticks.
    var receivingSeconds: Double = 0
    /// Asks for a new TCP connection instead of an idle one: it replaces a slow one (`SlowConnectionCheck`).
    var fresh = false
    /// The receive buffer a rate limit gave its socket (`BandwidthBudget`), nil while none did.
    var receiveBuffer: Int?
    /// Since when it waits at its cut for the answer to the range taken from it (`ActiveTransfer.holdsAtCut`).
    var heldSince: ContinuousClock.Instant?
    /// It waited at its cut as long as it may (`ActiveTransfer.endStaleHolds`): it stops there.
    var holdSpent = false
    /// The URL it was made to ask (where its link's first answer led, for an extra range of the main link).
    let url: String
    /// The redirect target it asks now (the engine follows redirects itself, `RedirectHop`); nil for `url`.
    private(set) var hop: String?
    /// Redirects followed so far.
    private(set) var hops = 0
    /// Why its next hop could not be set up: how it ends, whatever libcurl says.
    private(set) var setupFailure: DownloadError?

    init(role: Role, task: TaskID, link: TransferLink, url: String, requested: Range<Int64>, lease: SegmentLease.ID?) {
        self.role = role
        pacedTask = task
        self.link = link
        self.url = url
        self.requested = requested
        cursor = requested.lowerBound
        self.lease = lease
        end = lease == nil ? nil : requested.upperBound
    }

    /// The URL it asks now: its own, or the redirect target it follows.
    var currentURL: String { hop ?? url }

    /// The next hop of a redirect after libcurl let go of it as `result`; nil when its answer stands (a redirect
    /// that is not followed becomes its failure).
    func nextHop(after result: CurlResult) -> String? {
        guard result.isOK, state == .awaitingResponse else { return nil }
        switch RedirectHop.next(head: head, target: easy.redirectURL, hops: hops, host: link.host) {
        case .answered: return nil
        case let .follow(url): return url
        case let .refused(error):
            state = .failed(error)
            return nil
        }
    }

    /// Forgets the last answer and clears the handle for the next hop `url` (taken off the multi handle first); its
    /// transfer sets it up again and the engine adds it back.
    func hop(to url: String) {
        hop = url
        hops += 1
        head = ResponseHead()
        easy.reset()
    }

    /// Ends it for `error` (its next hop could not be set up).
    func fail(_ error: DownloadError) {
        if setupFailure == nil { setupFailure = error }
    }

    /// How libcurl let go of it, with libcurl's error turned into the user's (`stallTimeout` and `proxies` are its
    /// task's, for the message).
    func exit(_ result: CurlResult, stallTimeout: Int, proxies: ProxySettings?) -> ConnectionExit {
        if let setupFailure { return .failed(setupFailure) }
        guard !result.isOK else { return .completed }
        return .failed(DownloadError(
            curl: result, detail: easy.errorDetail, url: url, effectiveURL: easy.effectiveURL,
            host: link.host, responseSeen: head.status != 0, stallTimeout: stallTimeout,
            proxyStatus: easy.proxyConnectStatus, proxy: proxies?.redacted.proxy(for: currentURL)))
    }

    /// Folds the bytes of the last `seconds` into the smoothed speed.
    func tick(seconds: Double) {
        guard seconds > 0 else { return }
        let sample = Double(bytesSinceTick) / seconds
        speed = speed == 0 ? sample : 0.7 * speed + 0.3 * sample
        bytesSinceTick = 0
        if state == .receiving { receivingSeconds += seconds }
    }

    /// Whether it asks a mirror for its sample (`OverlapSample`): a range connection without a lease, whose bytes
    /// are compared, never written.
    var isSample: Bool { role == .range && lease == nil }

    /// Bytes of its range still to fetch (0 for a single stream, which has no end of its own).
    var remaining: Int64 { max(0, (end ?? cursor) - cursor) }

    /// Whether it still fetches (not ended by a decision of its own).
    var isOpen: Bool { state == .awaitingResponse || state == .receiving }
}
