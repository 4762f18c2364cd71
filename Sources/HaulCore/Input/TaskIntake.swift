import Foundation

/// The one intake for every way in: turns a `TaskRequest` into a validated `NewTask`, or an `IntakeError`.
///
/// One URL rule (`URLValidation`), one header rule (`HeaderRule`), one name rule (`SafeFileName`: an
/// output name must already be a plain file name) and one directory rule: a directory is resolved
/// against `defaultDirectory`, must not name a file, and, when `allowedDirectories` is set, must lie
/// inside the default directory or one of those. The command line, input files, the live list's
/// prompt and the RPC server all call it, so the same bad value gets the same answer everywhere.
public struct TaskIntake: Sendable {
    /// Absolute directory for requests that name none; relative directories are resolved against it.
    public let defaultDirectory: String
    /// When set, the only directories (besides `defaultDirectory`) a task may download into, with
    /// everything below them; nil lets a request name any directory (the user's own command line).
    public let allowedDirectories: [String]?
    /// The proxies of a task that names none: the adding process's environment, or its `--all-proxy`.
    public let proxyDefaults: ProxySettings
    /// The settings file's rules and categories (DESIGN §10), applied to every new task.
    public var rules = IntakeRules()
    /// The run's `header`, `user-agent` and `referer` lines: a task gets those whose names its own lines lack.
    public var defaultHeaders: [String] = []

    /// An intake for `defaultDirectory` (absolute, `~/…`, or relative to the current directory).
    ///
    /// With `allowedDirectories` set (RPC), a local file a request names (cookies, netrc) must also lie inside one of them.
    public init(defaultDirectory: String, allowedDirectories: [String]? = nil, proxyDefaults: ProxySettings = ProxySettings()) {
        self.defaultDirectory = Self.absolutePath(defaultDirectory, relativeTo: FileManager.default.currentDirectoryPath)
        self.allowedDirectories = allowedDirectories.map { $0.map { Self.absolutePath($0, relativeTo: FileManager.default.currentDirectoryPath) } }
        self.proxyDefaults = proxyDefaults
    }

    /// The task `request` describes, checked in a fixed order: URL, output name, directory, headers, checksum,
    /// proxy, cookies file, netrc file.
    public func newTask(_ request: TaskRequest) throws(IntakeError) -> NewTask {
        let url = try Self.url(request.url)
        let (request, ruled, ruleDirectory) = rules.apply(to: request, url: url)
        let mirrors = try Self.mirrors(request.mirrors, of: url)
        if let output = request.output { try Self.checkOutput(output) }
        // A directory from the user's own settings file is not a client's choice: no allowed-directory check.
        let directory: String
        if let ruleDirectory {
            directory = try checked(Self.absolutePath(ruleDirectory, relativeTo: defaultDirectory), trusted: true)
        } else {
            directory = try resolvedDirectory(request.directory)
        }
        let own = Set(request.headers.map(HeaderRule.name))
        let headers = HeaderRule.resolvingReferer(defaultHeaders.filter { !own.contains(HeaderRule.name($0)) } + request.headers, url: url)
        try HeaderRule.check(all: headers)
        let checksum = try request.checksum.map { text throws(IntakeError) in try Self.checksum(text) }
        var task = NewTask(url: url, directory: directory, requestedName: request.output, checksum: checksum, headers: headers)
        task.mirrors = mirrors
        task.requestOptions = try requestOptions(request.access)
        task.requestOptions.split = request.transfer.split.map(SplitLimit.clamped) ?? ruled.split
        task.requestOptions.rateLimit = request.transfer.rateLimit.map { max(0, $0) } ?? ruled.rateLimit
        if request.transfer.allowOverwrite { task.requestOptions.allowOverwrite = true }
        if request.transfer.startsPaused { task.startsPaused = true }
        task.position = request.position.map { max(0, $0) }
        task.requestOptions.rule = ruled.rule
        task.requestOptions.category = ruled.category
        if ruleDirectory == nil, request.directory == nil, !rules.pinned.contains(.dir) {
            let byType = rules.contentTypeDirectories(relativeTo: defaultDirectory)
            task.requestOptions.contentTypeDirectories = byType.isEmpty ? nil : byType
        }
        return task
    }

    /// The proxy, cookies file and netrc file of `request`, checked.
    public func requestOptions(_ request: AccessRequest) throws(IntakeError) -> RequestOptions {
        let proxies = try ProxySettings.resolve(allProxy: request.allProxy, noProxy: request.noProxy, defaults: proxyDefaults)
        var options = RequestOptions(proxies: proxies)
        if let cookies = request.loadCookies {
            let path = try localFile(cookies, kind: "cookies file")
            _ = try CookieFile.read(path)
            options.cookiesFile = path
        }
        if let netrc = request.netrcFile {
            let path = try localFile(netrc, kind: "netrc file")
            _ = try NetrcFile.read(path)
            options.netrcFile = path
        }
        try Self.applyStreamOptions(request, to: &options)
        return options
    }

    /// The stream options of a request, checked (DESIGN §9).
    public static func applyStreamOptions(_ request: AccessRequest, to options: inout RequestOptions) throws(IntakeError) {
        if let stream = request.stream {
            switch stream.lowercased() {
            case "auto", "on": options.streamOff = nil
            case "off": options.streamOff = true
            default: throw .invalidStreamOption("stream", stream)
            }
        }
        if let quality = request.streamQuality {
            guard let choice = VariantChoice(parsing: quality) else { throw .invalidStreamOption("stream-quality", quality) }
            options.streamQuality = choice == .best ? nil : quality
        }
        if let remux = request.streamRemux {
            guard remux.lowercased() == "mp4" else { throw .invalidStreamOption("stream-remux", remux) }
            options.streamRemux = "mp4"
        }
        if let limit = request.liveLimit {
            guard let seconds = MediaDuration.seconds(limit) else { throw .invalidStreamOption("live-limit", limit) }
            options.liveLimit = seconds
        }
        if let audio = request.streamAudio {
            guard let languages = SubtitleChoice.languages(audio) else { throw .invalidStreamOption("stream-audio", audio) }
            options.streamAudio = languages
        }
        if let subs = request.streamSubs {
            guard let choice = SubtitleChoice(parsing: subs) else { throw .invalidStreamOption("stream-subs", subs) }
            options.streamSubs = switch choice {
            case .none: nil
            case .all: "all"
            case let .languages(languages): languages.joined(separator: ",")
            }
        }
    }

    /// The absolute path of a local file a request names; over RPC it must lie inside the allowed directories.
    private func localFile(_ raw: String, kind: String) throws(IntakeError) -> String {
        let path = Self.absolutePath(raw, relativeTo: FileManager.default.currentDirectoryPath)
        // Where first, then whether it is there: a client must not learn which files exist outside.
        if let allowedDirectories {
            guard !raw.isEmpty, Self.isInside(path, anyOf: allowedDirectories) else { throw .fileNotAllowed(kind: kind, raw) }
        }
        var isDirectory: ObjCBool = false
        guard !raw.isEmpty, FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue
        else { throw .unreadableFile(kind: kind, raw) }
        return path
    }

    /// Every task of `requests`, or the first error.
    public func newTasks(_ requests: [TaskRequest]) throws(IntakeError) -> [NewTask] {
        var tasks: [NewTask] = []
        for request in requests { tasks.append(try newTask(request)) }
        return tasks
    }

    /// The absolute directory `raw` names (nil: the default one), checked against the directory rule.
    ///
    /// A directory that does not exist yet is fine (it is created when the download starts); one that
    /// exists as a file or anything else but a directory is not.
    public func resolvedDirectory(_ raw: String?) throws(IntakeError) -> String {
        guard let raw else { return try checked(defaultDirectory) }
        guard !raw.trimmingCharacters(in: .whitespaces).isEmpty else { throw .emptyDirectory }
        return try checked(Self.absolutePath(raw, relativeTo: defaultDirectory))
    }

    /// The normalised URL, or the URL rule's verdict as an `IntakeError`.
    public static func url(_ text: String) throws(IntakeError) -> String {
        do {
            return try URLValidation.validate(text)
        } catch {
            switch error {
            case let .unsupportedScheme(scheme): throw .unsupportedScheme(scheme)
            case let .invalidURL(redacted): throw .invalidURL(redacted)
            default: throw .invalidURL(URLValidation.redacted(text))
            }
        }
    }

    /// The name rule for an output name: it must already be a plain file name, as `SafeFileName` makes them.
    public static func checkOutput(_ name: String) throws(IntakeError) {
        guard SafeFileName.sanitize(name) == name else { throw .invalidOutputName(name) }
    }

    /// The checksum `text` names (`sha-256=HEX`).
    public static func checksum(_ text: String) throws(IntakeError) -> Checksum {
        guard let parsed = Checksum(parsing: text) else { throw .invalidChecksum(text) }
        return parsed
    }

    private func checked(_ directory: String, trusted: Bool = false) throws(IntakeError) -> String {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw .notADirectory(directory)
        }
        if let allowedDirectories, !trusted {
            guard Self.isInside(directory, anyOf: [defaultDirectory] + allowedDirectories) else {
                throw .directoryNotAllowed(directory)
            }
        }
        return directory
    }

    /// `path` with `~` expanded, made absolute against `base`, and with `.` and `..` removed.
    static func absolutePath(_ path: String, relativeTo base: String) -> String {
        let expanded = HomePath.expanding(path)
        let joined = expanded.hasPrefix("/") ? expanded : (base as NSString).appendingPathComponent(expanded)
        return (joined as NSString).standardizingPath
    }

    /// Whether `path` is one of `roots` or lies below one, symbolic links resolved on both sides.
    private static func isInside(_ path: String, anyOf roots: [String]) -> Bool {
        let real = realPath(path)
        return roots.map(realPath).contains { real == $0 || real.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
    }

    /// `path` with symbolic links resolved, so a link cannot lead outside the allowed directories.
    private static func realPath(_ path: String) -> String {
        URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }
}
