/// Raw input for one new task, as a front end received it: nothing checked yet.
///
/// It mirrors aria2's `addUri([url], {out, dir, header, checksum})`, so the command line, an input
/// file entry, the prompt and an RPC call all fill the same fields and `TaskIntake` checks them once.
public struct TaskRequest: Sendable, Equatable {
    /// The URL as typed.
    public var url: String
    /// `-o` / `out=`: a plain file name, or nil to take the name from the server or the URL.
    public var output: String?
    /// `-d` / `dir=`: absolute, `~/…`, or relative to the intake's default directory; nil for the default.
    public var directory: String?
    /// `-H` / `header=` lines, `Name: value` each, in order.
    public var headers: [String]
    /// `--checksum` / `checksum=`: `sha-256=HEX`.
    public var checksum: String?
    /// Proxy, cookies file and netrc file, as given.
    public var access = AccessRequest()
    /// `--mirror` / further TAB-separated links / further `uris`: other links serving the same file.
    public var mirrors: [String] = []
    /// Connections, cap, start and overwrite, as given.
    public var transfer = Transfer()
    /// Where in the waiting line it goes (aria2's `addUri` position: 0 is first); nil: at the end.
    public var position: Int?
    /// Settings this request gave for itself (an RPC call's options, an input-file entry's lines), by key: like
    /// the command line's, no rule of the settings file changes them.
    public var given: Set<OptionKey> = []

    public init(url: String, output: String? = nil, directory: String? = nil, headers: [String] = [], checksum: String? = nil) {
        self.url = url
        self.output = output
        self.directory = directory
        self.headers = headers
        self.checksum = checksum
    }
}

extension TaskRequest {
    /// How a request asks to be transferred, as given.
    public struct Transfer: Sendable, Equatable {
        /// `-s` / `split=`: connections for this download; nil: a rule's, else the run's.
        public var split: Int?
        /// `--limit-rate` / `max-download-limit=`: this download's cap in bytes per second, 0 for none whatever
        /// the run's; nil: a rule's, else the run's.
        public var rateLimit: Int64?
        /// Queued paused (aria2's `pause`): it never starts before a resume.
        public var startsPaused = false
        /// `--allow-overwrite` / `allow-overwrite=`: fetch a finished file again and replace it, or any file at
        /// the name.
        public var allowOverwrite = false

        public init(split: Int? = nil, rateLimit: Int64? = nil, startsPaused: Bool = false, allowOverwrite: Bool = false) {
            self.split = split
            self.rateLimit = rateLimit
            self.startsPaused = startsPaused
            self.allowOverwrite = allowOverwrite
        }
    }
}

/// How a request asks to reach its server, as given: nothing checked yet (`TaskIntake.requestOptions`).
public struct AccessRequest: Sendable, Equatable {
    /// `--all-proxy` / `all-proxy=`: the proxy for every link ("" for none); nil: the intake's default.
    public var allProxy: String?
    /// `--no-proxy` / `no-proxy=`: hosts that go direct ("" for none); nil: the intake's default.
    public var noProxy: String?
    /// `--load-cookies` / `load-cookies=`: a Netscape cookies file.
    public var loadCookies: String?
    /// `--netrc-file` / `netrc-file=` (aria2's `netrc-path` over RPC): a `.netrc` with the login.
    public var netrcFile: String?
    /// `--stream` / `stream=`: `auto` (a playlist becomes a stream) or `off` (it is saved as a file).
    public var stream: String?
    /// `--stream-quality` / `stream-quality=`: the variant of a master playlist (`VariantChoice`).
    public var streamQuality: String?
    /// `--stream-remux` / `stream-remux=`: `mp4` remuxes a finished MPEG-TS stream with ffmpeg.
    public var streamRemux: String?
    /// `--live-limit` / `live-limit=`: how much of a live stream to record (`MediaDuration`).
    public var liveLimit: String?
    /// `--stream-audio` / `stream-audio=`: audio languages in order of preference.
    public var streamAudio: String?
    /// `--stream-subs` / `stream-subs=`: subtitle languages, or `all`.
    public var streamSubs: String?

    public init(allProxy: String? = nil, noProxy: String? = nil, loadCookies: String? = nil, netrcFile: String? = nil) {
        self.allProxy = allProxy
        self.noProxy = noProxy
        self.loadCookies = loadCookies
        self.netrcFile = netrcFile
    }
}

extension AccessRequest {
    /// Sets the stream option `key` (`stream`, `stream-quality`, `stream-remux`, `live-limit`) to `value`, checked as the intake
    /// checks it.
    public mutating func setStreamOption(_ key: OptionKey, _ value: String) throws(IntakeError) {
        switch key {
        case .stream: stream = value
        case .streamQuality: streamQuality = value
        case .liveLimit: liveLimit = value
        case .streamAudio: streamAudio = value
        case .streamSubs: streamSubs = value
        default: streamRemux = value
        }
        var checked = RequestOptions()
        try TaskIntake.applyStreamOptions(self, to: &checked)
    }
}
