import Foundation

/// One download in the queue, as a value: what to fetch, where it goes, and how far it got.
public struct DownloadTask: Sendable, Equatable, Identifiable, Codable {
    public var id: TaskID
    /// The URL as the user gave it.
    public var url: String
    /// Absolute path of the download directory.
    public var directory: String
    /// The name the user asked for with `-o`/`out=`, if any.
    public var requestedName: String?
    /// The final file name once it is decided (at the first response); the part file is `fileName + ".part"`.
    public var fileName: String?
    public var state: TaskState
    /// Queue order: lower runs first.
    public var position: Int64
    /// Bytes known to be durable in the part file (never more than are on disk).
    public var bytesDone: Int64
    /// Size of the whole file, when the server told us.
    public var totalBytes: Int64?
    public var validators: RemoteValidators
    /// Transfer attempts so far (reset when the user resumes or retries).
    public var attempts: Int
    /// The last error, as text a user can act on.
    public var lastError: String?
    public var checksum: Checksum?
    /// Extra request headers (`K: V`).
    public var headers: [String]
    public var createdAt: Date
    public var finishedAt: Date?
    /// How a file fetched over several connections stands on disk: ranges and their durable bytes
    /// (empty for a single stream, whose durable bytes are the prefix `bytesDone`).
    public var segments: [SegmentRecord] = []
    /// Set when the link was replaced while the task held bytes, until the new link's first answer agreed.
    public var linkChange: LinkChange?
    /// Earlier links of this task, oldest first, credentials removed (shown in the details pane).
    public var linkHistory: [String] = []
    /// Proxy, cookies file and netrc file, fixed when the task was added.
    public var requestOptions = RequestOptions()
    /// Cookies servers set for this task (Netscape lines), kept for its later requests and resumes.
    public var cookies: [String] = []
    /// Other links serving the same file (`--mirror`), fetched from together with `url` (DESIGN §8).
    public var mirrors: [String] = []
    /// Links the last transfers dropped, with their reasons (shown in details and RPC answers).
    public var droppedLinks: [DroppedLink] = []
    /// What the task's body is, once its first answer was read; nil before.
    public var kind: TaskKind?
    /// A stream's variant, segments and durable count (DESIGN §9), once its playlist resolved.
    public var stream: StreamInfo?
    /// The web page the task's link came from (DESIGN §11), or why a page was kept as a file.
    public var page: WebPage?
    /// The group it was added in: a playlist page's videos share one (DESIGN §12).
    public var group: String?

    public init(
        id: TaskID, url: String, directory: String, requestedName: String? = nil, fileName: String? = nil,
        state: TaskState = .waiting, position: Int64, bytesDone: Int64 = 0, totalBytes: Int64? = nil,
        validators: RemoteValidators = RemoteValidators(), attempts: Int = 0, lastError: String? = nil,
        checksum: Checksum? = nil, headers: [String] = [], createdAt: Date = Date(), finishedAt: Date? = nil
    ) {
        self.id = id
        self.url = url
        self.directory = directory
        self.requestedName = requestedName
        self.fileName = fileName
        self.state = state
        self.position = position
        self.bytesDone = bytesDone
        self.totalBytes = totalBytes
        self.validators = validators
        self.attempts = attempts
        self.lastError = lastError
        self.checksum = checksum
        self.headers = headers
        self.createdAt = createdAt
        self.finishedAt = finishedAt
    }

    /// The name to show: the decided file name, else the requested one, else the URL's last segment.
    public var displayName: String { Self.displayName(fileName: fileName, requestedName: requestedName, url: url) }

    /// The name of a task with these names and link (see `displayName`).
    public static func displayName(fileName: String?, requestedName: String?, url: String) -> String {
        if let fileName { return fileName }
        if let requestedName { return requestedName }
        return SafeFileName.fromURL(url) ?? SafeFileName.fallback(for: url)
    }
}

/// What a user asks to add; the store turns it into a `DownloadTask` with an id and a position.
public struct NewTask: Sendable, Equatable, Codable {
    public var url: String
    public var directory: String
    public var requestedName: String?
    public var checksum: Checksum?
    public var headers: [String]
    /// Queued paused, waiting for a resume (aria2's `pause` option): it never starts before that.
    public var startsPaused: Bool?
    /// Proxy, cookies file and netrc file; the intake always records the proxies (none: direct).
    public var requestOptions = RequestOptions(proxies: ProxySettings())
    /// A partial file left at the final name, moved to the part file (`-c`): the task starts with its bytes.
    public var adoptedPart: AdoptedPart?
    /// Other links serving the same file (`--mirror`); checked by the intake like `url`.
    public var mirrors: [String] = []
    /// The unfinished task this link was found to serve the file of (`RerunMatch`, checked by asking the link): the
    /// add gives that task the link, by `set-url`'s rules, instead of starting the file over.
    public var continues: TaskID?
    /// Where in the waiting line it goes (0: first among the waiting and paused); nil: at the end.
    public var position: Int?
    /// The web page its link came from (a playlist page's other videos).
    public var page: WebPage?
    /// The group it is added in.
    public var group: String?

    public init(url: String, directory: String, requestedName: String? = nil, checksum: Checksum? = nil, headers: [String] = []) {
        self.url = url
        self.directory = directory
        self.requestedName = requestedName
        self.checksum = checksum
        self.headers = headers
    }
}

/// A partial file another program left at a download's final name, taken over as the part file (`-c`).
public struct AdoptedPart: Sendable, Equatable, Codable {
    /// The final name (the part file is `fileName + ".part"`).
    public var fileName: String
    /// Bytes it holds: the first request asks for the rest.
    public var bytes: Int64

    public init(fileName: String, bytes: Int64) {
        self.fileName = fileName
        self.bytes = bytes
    }
}

extension DownloadTask {
    /// The part file is the one `-c` moved from the final name, and no 206 has continued it: it goes back
    /// there when the download starts over, fails for good or is removed (`PartialAdoption`).
    public var holdsLentPart: Bool { requestOptions.continuesPartialFile == true }
}
