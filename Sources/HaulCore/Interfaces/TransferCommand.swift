import Foundation

/// What the controller asks the engine to do.
public enum TransferCommand: Sendable, Equatable {
    /// Start (or resume) a download; the engine answers with `responded`, `progress`, `checkpoint` and one `finished`.
    case start(TransferRequest)
    /// Stop a running transfer, keep the part file, make its bytes durable and answer `finished(.paused)`.
    case pause(TaskID)
    /// A user stopped a live recording: what it appended is published as the finished file, and the engine answers
    /// `finished(.completed)`. Anything else is paused as for `pause`.
    case stopRecording(TaskID)
    /// Delete the task's part file, which belongs to the engine: a transfer the engine holds for the task
    /// stops first (answering `finished`) and its own part file goes once its closing work is done;
    /// otherwise the part of `fileName` in `directory` goes at once. A published file is never deleted.
    case deletePart(TaskID, directory: String, fileName: String?)
    /// Cap the sum of every transfer at this many bytes per second (nil: no cap), from now on.
    case setOverallLimit(Int64?)
    /// Cap one task, over all its connections (nil: no cap), from now on.
    case setTaskLimit(TaskID, Int64?)
    /// Let one task use up to this many connections, from now on.
    case setTaskConnections(TaskID, Int)
    /// Stop every transfer as for `pause`, then end the engine thread; the event stream finishes.
    case shutdown
}

/// Everything the engine needs to run one task; a value copied from the task when it starts.
public struct TransferRequest: Sendable, Equatable {
    public var id: TaskID
    public var url: String
    public var directory: String
    /// The decided file name, when an earlier attempt already chose one (its part file may hold bytes).
    public var fileName: String?
    /// The name the user asked for, when the name is not decided yet.
    public var requestedName: String?
    /// Bytes recorded as durable; the engine resumes at `min(resumeFrom, part file size)`.
    public var resumeFrom: Int64
    /// The total recorded earlier, which a 206 must confirm.
    public var expectedTotal: Int64?
    public var validators: RemoteValidators
    public var checksum: Checksum?
    public var headers: [String]
    public var options: TransferOptions
    /// File names other unfinished tasks hold in the same directory; a new name never takes one of them.
    public var namesHeldElsewhere: Set<String> = []
    /// The stored layout of a download fetched over several connections (empty for a single stream).
    public var segments: [SegmentRecord] = []
    /// Set when the link changed since the kept bytes were fetched: the first answer must agree (`LinkChange`).
    /// Never `.restart`: a task that starts over keeps nothing to check.
    public var linkChange: LinkChange?
    /// Proxy, cookies file and netrc file of the task.
    public var requestOptions = RequestOptions()
    /// Cookies servers set for the task earlier (Netscape lines).
    public var cookies: [String] = []
    /// Other links serving the same file (DESIGN §8): ranges are fetched from every link at once.
    public var mirrors: [String] = []
    /// The link, then the mirrors: the origins the user gave (`HopLogin`).
    public var links: [String] { [url] + mirrors }
    /// What the task's body was found to be (nil: its first answer decides; the engine's factory reads it).
    public var kind: TaskKind?
    /// A stream task's stored progress: the engine fetches the playlist again and goes on after its segments.
    public var stream: StreamInfo?
    /// When the task was added (whole seconds since 1970): with its id, what tells its part file from any other.
    public var addedAt: Int64 = 0
    /// The web page the link came from, or a page kept as a file: its answer is not asked about again (DESIGN §11).
    public var page: WebPage?
    /// The name a stream from a page is saved under, without its container's extension (the page's title).
    public var nameStem: String? { requestedName == nil ? page?.stem : nil }

    public init(
        id: TaskID, url: String, directory: String, fileName: String?, requestedName: String?, resumeFrom: Int64,
        expectedTotal: Int64?, validators: RemoteValidators, checksum: Checksum?, headers: [String], options: TransferOptions
    ) {
        self.id = id
        self.url = url
        self.directory = directory
        self.fileName = fileName
        self.requestedName = requestedName
        self.resumeFrom = resumeFrom
        self.expectedTotal = expectedTotal
        self.validators = validators
        self.checksum = checksum
        self.headers = headers
        self.options = options
    }

    public init(task: DownloadTask, options: TransferOptions) {
        self.init(
            id: task.id, url: task.url, directory: task.directory, fileName: task.fileName,
            requestedName: task.requestedName, resumeFrom: task.bytesDone, expectedTotal: task.totalBytes,
            validators: task.validators, checksum: task.checksum, headers: task.headers, options: options)
        segments = task.segments
        requestOptions = task.requestOptions
        cookies = task.cookies
        mirrors = task.mirrors
        kind = task.kind
        stream = task.stream
        page = task.page
        addedAt = Int64(task.createdAt.timeIntervalSince1970.rounded(.down))
        linkChange = task.bytesDone > 0 || !task.segments.isEmpty ? task.linkChange : nil
        if linkChange == .restart {
            // The user chose to start over: nothing kept is trusted, the part file is emptied.
            linkChange = nil
            resumeFrom = 0
            expectedTotal = nil
            validators = RemoteValidators()
            segments = []
            stream?.restart()
            // A file that starts over is whatever its link serves now; a stream stays one and matches its playlist anew.
            if kind == .file { kind = nil }
        }
    }
}

/// Per-transfer settings from the command line.
public struct TransferOptions: Sendable, Equatable {
    /// Receive limit in bytes per second for each transfer; nil for none.
    public var rateLimit: Int64?
    /// Seconds without progress before the transfer counts as stalled (and is retried).
    public var stallTimeout: Int
    /// Seconds allowed for connecting.
    public var connectTimeout: Int
    /// A CA bundle to verify servers with instead of the system one (verification always stays on).
    public var caCertificate: String?
    /// Free space to keep on the download filesystem; below it the task pauses.
    public var diskReserve: Int64
    /// Seconds between durable checkpoints of a running transfer.
    public var checkpointInterval: Double
    /// Connections per download (`-s`); files below 2 × `minSplitSize`, of unknown length or from
    /// servers that do not answer ranges use one.
    public var split: Int
    /// The smallest range a connection is given (`--min-split-size`).
    public var minSplitSize: Int64
    /// Connections open to one host across all tasks (`--max-host-connections`).
    public var maxHostConnections: Int
    /// Directories below which a download reaches its directory only through real directories, never a
    /// symbolic link (the download directory and `--rpc-allowed-dir`): a link made after a task was checked
    /// cannot lead its file elsewhere. The roots themselves may be links.
    public var confinementRoots: [String] = []
    /// Retries of one stream segment's transient failure before the task fails (`--retries`).
    public var segmentRetries = 5
    /// A web page's answer ends the attempt so yt-dlp is asked what it holds (`DownloadError.webPage`); without an
    /// extractor the page is kept as a file (DESIGN §11).
    public var extractsPages = false
    /// Bytes of a stream's fetched segments held in memory before no new fetch starts (tests use a smaller one).
    public var streamMemoryBound = 64 << 20

    public init(
        rateLimit: Int64? = nil, stallTimeout: Int = 30, connectTimeout: Int = 15, caCertificate: String? = nil,
        diskReserve: Int64 = 64 << 20, checkpointInterval: Double = 1, split: Int = 4, minSplitSize: Int64 = 4 << 20,
        maxHostConnections: Int = 8
    ) {
        self.rateLimit = rateLimit
        self.stallTimeout = stallTimeout
        self.connectTimeout = connectTimeout
        self.caCertificate = caCertificate
        self.diskReserve = diskReserve
        self.checkpointInterval = checkpointInterval
        self.split = split
        self.minSplitSize = minSplitSize
        self.maxHostConnections = maxHostConnections
    }

    /// `rateLimit` as a `RateLimit` (the engine reads the plain number).
    public var rate: RateLimit? {
        get { rateLimit.flatMap(RateLimit.init(bytesPerSecond:)) }
        set { rateLimit = newValue?.bytesPerSecond }
    }
}
