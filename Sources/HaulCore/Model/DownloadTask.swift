import Foundation

/// One download in the queue, as a value: what to fetch, where it goes, and how far it got.
public struct DownloadTask: Sendable, Equatable, Identifiable, Codable {
    /// The fields, behind one reference copied on write: the controller's table, a snapshot's rows, events and
    /// answers share one copy of each task until one of them changes it (`DownloadTask+Storage`).
    var storage: CopyOnWrite<Fields>

    public var id: TaskID {
        get { storage.value.id }
        set { storage.value.id = newValue }
    }
    /// The URL as the user gave it.
    public var url: String {
        get { storage.value.url }
        set { storage.value.url = newValue }
    }
    /// Absolute path of the download directory.
    public var directory: String {
        get { storage.value.directory }
        set { storage.value.directory = newValue }
    }
    /// The name the user asked for with `-o`/`out=`, if any.
    public var requestedName: String? {
        get { storage.value.requestedName }
        set { storage.value.requestedName = newValue }
    }
    /// The final file name once it is decided (at the first response); the part file is `fileName + ".part"`.
    public var fileName: String? {
        get { storage.value.fileName }
        set { storage.value.fileName = newValue }
    }
    /// Kept beside the shared fields, not among them: a change of state (a pause or resume of every task) copies no
    /// task the last snapshot shares, and allocates nothing.
    public var state: TaskState
    /// Queue order: lower runs first.
    public var position: Int64 {
        get { storage.value.position }
        set { storage.value.position = newValue }
    }
    /// Bytes known to be durable in the part file (never more than are on disk).
    public var bytesDone: Int64 {
        get { storage.value.bytesDone }
        set { storage.value.bytesDone = newValue }
    }
    /// Size of the whole file, when the server told us.
    public var totalBytes: Int64? {
        get { storage.value.totalBytes }
        set { storage.value.totalBytes = newValue }
    }
    public var validators: RemoteValidators {
        get { storage.value.validators }
        set { storage.value.validators = newValue }
    }
    /// Transfer attempts so far (reset when the user resumes or retries).
    public var attempts: Int {
        get { Int(storage.value.attempts) }
        set { storage.value.attempts = Int32(clamping: newValue) }
    }
    /// The last error, as text a user can act on.
    public var lastError: String? {
        get { storage.value.lastError }
        set { storage.value.lastError = newValue }
    }
    public var checksum: Checksum? {
        get { storage.value.details.value.checksum }
        set { storage.value.details.value.checksum = newValue }
    }
    /// Extra request headers (`K: V`).
    public var headers: [String] {
        get { storage.value.details.value.headers }
        set { storage.value.details.value.headers = newValue }
    }
    public var createdAt: Date {
        get { storage.value.createdAt }
        set { storage.value.createdAt = newValue }
    }
    public var finishedAt: Date? {
        get { storage.value.finishedAt }
        set { storage.value.finishedAt = newValue }
    }
    /// How a file fetched over several connections stands on disk: ranges and their durable bytes
    /// (empty for a single stream, whose durable bytes are the prefix `bytesDone`).
    public var segments: [SegmentRecord] {
        get { storage.value.details.value.segments }
        set { storage.value.details.value.segments = newValue }
    }
    /// Set when the link was replaced while the task held bytes, until the new link's first answer agreed.
    public var linkChange: LinkChange? {
        get { storage.value.details.value.linkChange }
        set { storage.value.details.value.linkChange = newValue }
    }
    /// Earlier links of this task, oldest first, credentials removed (shown in the details pane).
    public var linkHistory: [String] {
        get { storage.value.details.value.linkHistory }
        set { storage.value.details.value.linkHistory = newValue }
    }
    /// Proxy, cookies file and netrc file, fixed when the task was added.
    /// Proxy, cookies file and netrc file, fixed when the task was added.
    public var requestOptions: RequestOptions {
        get { storage.value.details.value.requestOptions }
        set { storage.value.details.value.requestOptions = newValue }
    }
    /// Cookies servers set for this task (Netscape lines), kept for its later requests and resumes.
    public var cookies: [String] {
        get { storage.value.details.value.cookies }
        set { storage.value.details.value.cookies = newValue }
    }
    /// Other links serving the same file (`--mirror`), fetched from together with `url` (DESIGN §8).
    public var mirrors: [String] {
        get { storage.value.details.value.mirrors }
        set { storage.value.details.value.mirrors = newValue }
    }
    /// Links the last transfers dropped, with their reasons (shown in details and RPC answers).
    public var droppedLinks: [DroppedLink] {
        get { storage.value.details.value.droppedLinks }
        set { storage.value.details.value.droppedLinks = newValue }
    }
    /// What the task's body is, once its first answer was read; nil before.
    public var kind: TaskKind? {
        get { storage.value.kind }
        set { storage.value.kind = newValue }
    }
    /// A stream's variant, segments and durable count (DESIGN §9), once its playlist resolved.
    public var stream: StreamInfo? {
        get { storage.value.details.value.stream }
        set { storage.value.details.value.stream = newValue }
    }
    /// The web page the task's link came from (DESIGN §11), or why a page was kept as a file.
    public var page: WebPage? {
        get { storage.value.details.value.page }
        set { storage.value.details.value.page = newValue }
    }
    /// The group it was added in: a playlist page's videos share one (DESIGN §12).
    public var group: String? {
        get { storage.value.details.value.group }
        set { storage.value.details.value.group = newValue }
    }

    public init(
        id: TaskID, url: String, directory: String, requestedName: String? = nil, fileName: String? = nil,
        state: TaskState = .waiting, position: Int64, bytesDone: Int64 = 0, totalBytes: Int64? = nil,
        validators: RemoteValidators = RemoteValidators(), attempts: Int = 0, lastError: String? = nil,
        checksum: Checksum? = nil, headers: [String] = [], createdAt: Date = Date(), finishedAt: Date? = nil
    ) {
        storage = CopyOnWrite(Fields(
            id: id, url: url, directory: directory, requestedName: requestedName, fileName: fileName,
            position: position, bytesDone: bytesDone, validators: validators, lastError: lastError,
            createdAt: createdAt, details: CopyOnWrite(Details(checksum: checksum, headers: headers)),
            totalBytes: totalBytes, attempts: Int32(clamping: attempts), finishedAt: finishedAt))
        self.state = state
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
    public var requestOptions: RequestOptions {
        get { options.value }
        set { options.value = newValue }
    }
    /// `requestOptions` behind a reference copied on write: the tasks of one input file share one copy
    /// (`shareRequestOptions(with:)`).
    var options = CopyOnWrite(RequestOptions(proxies: ProxySettings()))
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

    /// Takes `other`'s copy of the request options when they are equal to this task's: the two then hold one copy.
    /// Changes nothing a reader of the task can see.
    public mutating func shareRequestOptions(with other: NewTask) {
        options.share(other.options)
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
