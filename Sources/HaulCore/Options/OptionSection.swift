/// Where an option is documented among the others, its section: the man page's OPTIONS and the README group them
/// so. Every option has one, decided by its key (a new `OptionKey` does not compile until it is placed) or, for the
/// few options of the command line alone, by `commandLineOnly`.
public enum OptionSection: String, CaseIterable, Sendable {
    case adding = "Adding downloads"
    case requests = "Requests"
    case streams = "Video streams"
    case transfers = "Transfers and limits"
    case screen = "Screen and output"
    case remote = "Remote control and hooks"
    case state = "State and settings"

    /// The title the man page gives the section.
    public var title: String { rawValue }

    /// The section of a setting.
    public init(_ key: OptionKey) {
        switch key {
        case .dir, .continuePartial, .allowOverwrite:
            self = .adding
        case .header, .userAgent, .referer, .allProxy, .noProxy, .loadCookies, .netrcFile, .caCert:
            self = .requests
        case .stream, .streamQuality, .streamRemux, .streamAudio, .streamSubs, .liveLimit, .extractor:
            self = .streams
        case .maxConcurrent, .split, .minSplitSize, .maxHostConnections, .limitRate, .maxOverallDownloadLimit,
             .retries, .timeout, .diskReserve:
            self = .transfers
        case .headless, .theme, .noColor, .noMouse, .notify:
            self = .screen
        case .rpcListen, .rpcSecretFile, .rpcAllowOrigin, .rpcAllowedDir, .onDownloadComplete, .onDownloadError,
             .onLinkExpired:
            self = .remote
        }
    }

    /// The sections of the run's options that are no setting (they name what this one run does), by long name.
    public static let commandLineOnly: [String: OptionSection] = [
        "output": .adding, "input-file": .adding, "checksum": .adding, "mirror": .adding,
        "json": .screen, "keep-running": .screen,
        "state-dir": .state, "config": .state,
    ]

    /// The section of the option with long name `name`, nil for one haul does not have.
    public static func of(_ name: String) -> OptionSection? {
        OptionKey(name: name).map(OptionSection.init) ?? commandLineOnly[name]
    }
}
