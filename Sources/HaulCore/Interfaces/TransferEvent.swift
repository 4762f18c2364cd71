/// What the engine reports to the controller, in the order it happened.
public enum TransferEvent: Sendable, Equatable {
    /// The final response's head arrived and the part file is open at `offset`.
    case responded(TaskID, ResponseSummary)
    /// Live byte positions (bytes in the part file, durable or not), at most a few times a second.
    case progress([TaskID: Int64])
    /// These bytes are durable (written and synced); the store may record them.
    case checkpoint(TaskID, durableBytes: Int64)
    /// A download over several connections: its layout on disk (durable bytes per range, `durableBytes` in
    /// all) — or, with no ranges, it went back to a single stream whose durable prefix is `durableBytes`.
    case segmentCheckpoint(TaskID, [SegmentRecord], durableBytes: Int64)
    /// How many connections each running task has open now (sent when it changes).
    case connections([TaskID: Int])
    /// Where each running download over several connections stands byte by byte (done, in flight,
    /// waiting), with the progress ticks, when it changed.
    case segmentMaps([TaskID: SegmentMap])
    /// The cookies servers set for the task (Netscape lines), when they changed; kept for its later requests.
    case cookies(TaskID, [String])
    /// A link of a task with mirrors disagreed with the file or kept failing: the transfer goes on without it.
    case linkDropped(TaskID, DroppedLink)
    /// The link is an HLS stream (DESIGN §9): its playlist resolved to this, and writing starts after
    /// `info.segmentsDone` segments in the part file `fileName`.
    case streamResolved(TaskID, StreamInfo, fileName: String, bandwidth: Int64?)
    /// More segments of a stream are appended and synced (`info.segmentsDone`, `info.appendedBytes`).
    case streamCheckpoint(TaskID, StreamInfo)
    /// The transfer ended; no more events for this task until it is started again.
    case finished(TaskID, TransferOutcome)
}

/// The part of a response the controller keeps.
public struct ResponseSummary: Sendable, Equatable {
    /// What the answer showed the task's body to be: the kind is decided here, once.
    public var kind: TaskKind
    /// The file name now in use (decided on the first response, kept afterwards).
    public var fileName: String
    /// Size of the whole file, if the server told us.
    public var totalBytes: Int64?
    public var validators: RemoteValidators
    /// Where writing continues: the resume offset, or 0 when the download started over.
    public var offset: Int64
    /// Why the download started over from byte 0 although bytes were kept ("server ignores ranges", "remote file changed").
    public var restartReason: String?
    public var httpStatus: Int
    /// The directory a content-type category chose at this answer (the task's own otherwise).
    public var directory: String?
    /// That category's label.
    public var category: String?
    /// The answer is a web page kept as the file it is (no yt-dlp asked, DESIGN §11).
    public var webPage: Bool

    public init(
        fileName: String, totalBytes: Int64?, validators: RemoteValidators, offset: Int64, restartReason: String?, httpStatus: Int,
        directory: String? = nil, category: String? = nil, kind: TaskKind = .file, webPage: Bool = false
    ) {
        self.kind = kind
        self.webPage = webPage
        self.directory = directory
        self.category = category
        self.fileName = fileName
        self.totalBytes = totalBytes
        self.validators = validators
        self.offset = offset
        self.restartReason = restartReason
        self.httpStatus = httpStatus
    }
}

/// How a transfer ended.
public enum TransferOutcome: Sendable, Equatable {
    /// Verified and renamed to `fileName` (which may differ from the planned name when that was taken).
    case completed(fileName: String, bytes: Int64)
    /// Stopped on request; `durableBytes` are synced in the part file.
    case paused(durableBytes: Int64)
    /// Ended with an error; `durableBytes` are synced in the part file.
    case failed(DownloadError, durableBytes: Int64)
}

extension TransferOutcome {
    /// Whether the file was verified and published.
    public var isCompleted: Bool {
        if case .completed = self { return true }
        return false
    }
}

extension TransferOutcome {
    /// The durable bytes it leaves (the whole file when completed).
    public var durableBytes: Int64 {
        switch self {
        case let .completed(_, bytes): bytes
        case let .paused(bytes): bytes
        case let .failed(_, bytes): bytes
        }
    }
}
