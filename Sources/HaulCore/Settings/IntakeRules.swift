/// The settings file's rules and categories as the intake applies them to each new task (DESIGN §10).
///
/// For a task, the first `[[rule]]` whose host glob matches its link's host applies, and the first
/// `[[category]]` whose extensions match its name (`-o`, else the link's last segment). What the adding
/// request or command line gave itself wins: a rule changes only what they left to the settings file.
public struct IntakeRules: Sendable, Equatable {
    public var rules: [HostRule]
    public var categories: [DownloadCategory]
    /// Settings the adding command line gave (`dir`, `split`, `limit-rate`, `all-proxy`, `user-agent`,
    /// `load-cookies`): no rule changes them.
    public var pinned: Set<OptionKey>

    public init(rules: [HostRule] = [], categories: [DownloadCategory] = [], pinned: Set<OptionKey> = []) {
        self.rules = rules
        self.categories = categories
        self.pinned = pinned
    }

    /// The first rule for `url`'s host.
    public func rule(for url: String) -> HostRule? {
        let host = URLValidation.host(of: url)
        return rules.first { $0.host.matches(host) }
    }

    /// The first category for a file named `name`.
    public func category(forName name: String) -> DownloadCategory? {
        categories.first { $0.matches(fileName: name) }
    }

    /// `request` (for the validated `url`) with what the matching rule sets filled in where the request and the
    /// command line left it open, plus what the task must keep: the rule's connections and cap, and which rule
    /// and category applied. `directory` is the directory a rule or category chose, if any.
    public func apply(to request: TaskRequest, url: String) -> (request: TaskRequest, options: RuleOptions, directory: String?) {
        var request = request
        var options = RuleOptions()
        var directory: String?
        let pinned = pinned.union(request.given)
        let directoryOpen = request.directory == nil && !pinned.contains(.dir)
        if let rule = rule(for: url) {
            options.rule = rule.label
            if !pinned.contains(.split) { options.split = rule.split }
            if !pinned.contains(.limitRate) { options.rateLimit = rule.rateLimit }
            if let proxy = rule.allProxy, !pinned.contains(.allProxy) { request.access.allProxy = proxy }
            if let cookies = rule.loadCookies, !pinned.contains(.loadCookies) { request.access.loadCookies = cookies }
            var ruleHeaders = rule.headers
            if let agent = rule.userAgent, !pinned.contains(.userAgent) { ruleHeaders.append("User-Agent: \(agent)") }
            request.headers = Self.merged(
                request.headers, under: ruleHeaders, pinnedAgent: pinned.contains(.userAgent), pinnedHeaders: pinned.contains(.header))
            if directoryOpen, let ruleDirectory = rule.directory { directory = ruleDirectory }
        }
        if directoryOpen, directory == nil, let name = request.output ?? SafeFileName.fromURL(url),
           let category = Self.categoryNames(for: name, streamOff: request.access.stream?.lowercased() == "off")
               .lazy.compactMap(category(forName:)).first {
            options.category = category.label
            directory = category.directory
        }
        return (request, options, directory)
    }

    /// The names a category may know a download by: a playlist link (`.m3u8`) becomes a video file (`.ts`, or
    /// `.mp4` for fMP4 or a remux) unless streams are off (DESIGN §9), so a video category takes it.
    public static func categoryNames(for name: String, streamOff: Bool) -> [String] {
        let lower = name.lowercased()
        guard !streamOff, lower.hasSuffix(".m3u8") || lower.hasSuffix(".m3u") else { return [name] }
        let stem = String(name[..<name.lastIndex(of: ".")!])
        return [name, stem + ".ts", stem + ".mp4"]
    }

    /// The categories chosen by content type, their directories made absolute against `base`, in order.
    func contentTypeDirectories(relativeTo base: String) -> [ContentTypeDirectory] {
        categories.flatMap { category in
            category.contentTypes.map { type in
                ContentTypeDirectory(
                    contentType: type, directory: TaskIntake.absolutePath(category.directory, relativeTo: base),
                    category: category.label)
            }
        }
    }

    /// `own` headers with `rule`'s over them, except where the command line gave them (`pinnedAgent`: its user
    /// agent; `pinnedHeaders`: its `-H` lines, by name); a rule's line replaces every line of the same name.
    static func merged(_ own: [String], under rule: [String], pinnedAgent: Bool, pinnedHeaders: Bool) -> [String] {
        let name = HeaderRule.name
        var ruleLines = rule
        if pinnedAgent { ruleLines.removeAll { name($0) == "user-agent" } }
        if pinnedHeaders {
            let ownNames = Set(own.map(name))
            ruleLines.removeAll { ownNames.contains(name($0)) && name($0) != "user-agent" }
        }
        let replaced = Set(ruleLines.map(name))
        return own.filter { !replaced.contains(name($0)) } + ruleLines
    }
}

/// What a rule or category decided for one task, stored with it in `RequestOptions`.
public struct RuleOptions: Sendable, Equatable {
    public var split: Int?
    public var rateLimit: Int64?
    public var rule: String?
    public var category: String?

    public init() {}
}
