import HaulCore

/// A running download on the engine thread, of any kind (`TaskKind`): the engine loop drives every kind through
/// these calls and never asks which kind it drives; `TransferFactory` makes the one a task's kind calls for.
///
/// libcurl's callbacks for its handles come to it (`CurlReceiver`) and only take what happened; the loop adds
/// and removes the handles, and asks it (`advance`) to act on what the callbacks noted. Confined to the transfer
/// thread; the engine keeps it in its table until its handles have left the multi handle.
protocol EngineTransfer: AnyObject, CurlReceiver {
    var request: TransferRequest { get }
    /// Distinguishes attempts of the same task, so late disk results of an old attempt are ignored.
    var attempt: Int { get }
    /// What the engine last did for it (progress reported, checkpoints, disk checks).
    var bookkeeping: TransferBookkeeping { get set }
    /// The cookies its requests share.
    var cookies: CookieJar { get }
    /// The engine's receive limits, which its requests draw from.
    var budget: BandwidthBudget { get }
    /// The host of its link.
    var host: String { get }
    /// Its requests on the network now.
    var openRequests: Int { get }
    /// How many connections it has or may soon open, for its share of the overall limit.
    var expectedConnections: Int { get }
    /// The final file is in place from a run that died before recording it: nothing to fetch.
    var isPublishedEarlier: Bool { get }
    /// Its main part file (full path), held until its closing is done.
    var partPath: String? { get }

    /// Makes its first requests.
    func start() -> TransferNext
    /// Acts on what its callbacks noted during `curl_multi_perform` (a first answer that allows splitting, a
    /// mirror that agreed): the plans that open connections are made here, on the loop, never in a callback.
    func advance() -> TransferNext
    /// The file size to allocate on the disk worker, once (after a split).
    func takeAllocation() -> (writer: FileWriter, length: Int64)?
    /// The part file is allocated at full size.
    func allocated()
    /// The handles of the requests it decided on since the loop last asked, set up for their requests; or how it
    /// ends when one that could not be set up ended it.
    func takeNewHandles() -> (handles: [CurlEasy], next: TransferNext)
    /// A handle could not be added to the multi handle: its request ends as failed.
    func couldNotStart(_ easy: CurlEasy, _ error: CurlError) -> TransferNext
    /// libcurl let go of `easy`, which is off the multi handle now.
    func finished(_ easy: CurlEasy, result: CurlResult) -> HandleEnd
    /// A user stopped it: a live recording ends with what it appended (published as finished); anything else pauses.
    func stopRecording() -> TransferNext
    /// A new connection count from now on, and the handles to take off the network at once.
    func setTargetConnections(_ count: Int) -> (next: TransferNext, shed: [CurlEasy])
    /// Gives up one extra connection so another task can have its host; nil when it has none to give.
    func shedConnection() -> CurlEasy?
    /// The engine took `easy` off the network (shed); what comes next.
    func stopped(_ easy: CurlEasy) -> TransferNext
    /// Whether it would take room that opens on `host`, and takes it.
    func uses(_ host: String) -> Bool
    func grow() -> TransferNext
    /// Periodic work: back-offs that ended, slow connections, waits at a cut (`progressDue`: every 250 ms).
    func tick(now: ContinuousClock.Instant, progressDue: Bool) -> TransferNext
    /// Fails when free space ran low or a part file lost its last link.
    func checkDisk() throws(DownloadError)
    /// The checkpoint sync to start now, when one is due (marked begun).
    func checkpointDue(now: ContinuousClock.Instant) -> CheckpointSync?
    /// A sync finished: record what it covered.
    func synced(_ coverage: SyncCoverage)
    /// Its position and segment map when they changed since the last report; connection speeds fold over `seconds`.
    func progress(seconds: Double?) -> (position: Int64?, map: SegmentMap?)
    /// Stops every request; returns their handles for the engine to remove.
    func closeAll() -> [CurlEasy]
    /// The disk work that ends it as `ending`: its part files on descriptors of their own.
    func closingWork(_ ending: TransferEnding) -> ClosingWork
}

/// One request of a transfer on the network: a file's connection or a stream's fetch.
protocol EngineRequest: PacedConnection {
    /// Follows redirects itself (`RedirectHop`): the next hop after libcurl let go of it as `result`; nil when its
    /// answer stands.
    func nextHop(after result: CurlResult) -> String?
    /// Forgets the last answer and clears the handle for the next hop `url`.
    func hop(to url: String)
    /// Ends it for `error` (its next hop could not be set up).
    func fail(_ error: DownloadError)
}

extension EngineTransfer {
    /// Sets `request`'s handle up for `setup` with what every request of the task shares: its callbacks come here,
    /// it gets its share of the receive limits (of `taskConnections`) and the task's cookies.
    func apply(_ setup: CurlRequest, to request: some EngineRequest, taskConnections: Int) throws(CurlError) {
        var setup = setup
        request.easy.receiver = self
        // Under a limit a new socket starts with a small buffer: the server never sees a wide window.
        setup.receiveBuffer = budget.receiveBuffer(for: request, taskConnections: taskConnections)
        request.receiveBuffer = setup.receiveBuffer
        setup.cookies = cookies.share
        setup.cookieSeed = cookies.takeSeed()
        try request.easy.apply(setup)
    }

    /// Whether `request`, which libcurl let go of as `result`, asks the next hop of a redirect now, set up again by
    /// `configure`; a hop that cannot be set up ends it.
    func follows<Request: EngineRequest>(
        _ request: Request, after result: CurlResult, configure: (Request) throws(CurlError) -> Void
    ) -> Bool {
        guard let next = request.nextHop(after: result) else { return false }
        request.hop(to: next)
        do throws(CurlError) {
            try configure(request)
            return true
        } catch {
            request.fail(DownloadError(setup: error, host: URLValidation.host(of: next)))
            return false
        }
    }
}

/// How a request's handle left libcurl.
enum HandleEnd {
    /// It asks the next hop of a redirect, set up again: the engine adds it back.
    case follows
    /// The request is over; what comes next for its transfer, and the host where a connection is free now.
    case ended(TransferNext, host: String)
}

/// A checkpoint's sync: the part files to sync and what it makes durable.
struct CheckpointSync: Sendable {
    let writers: [FileWriter]
    let coverage: SyncCoverage
}

/// What a checkpoint's sync covered, as the transfer that asked for it records it.
enum SyncCoverage: Sendable {
    /// A file's bytes up to `bytes` (one connection) or each range's up to its mark, in that truncation `epoch`.
    case file(epoch: Int, bytes: Int64, marks: [SegmentLease.ID: Int64])
    /// A stream's part files up to these lengths.
    case stream(positions: [Int64])
}
