/// Every option haul has, by the name it goes by in the settings file, on the command line (`--NAME`), in an input
/// file and in rules. Code names an option by its case, so a misspelt option does not compile; everything else
/// about it is its one `OptionDefinition` in `OptionRegistry`.
public enum OptionKey: String, CaseIterable, Sendable, Codable, Comparable, CustomStringConvertible {
    // Where and how tasks are added.
    case dir, header
    case userAgent = "user-agent"
    case referer
    case allProxy = "all-proxy"
    case noProxy = "no-proxy"
    case loadCookies = "load-cookies"
    case netrcFile = "netrc-file"
    case continuePartial = "continue"
    case allowOverwrite = "allow-overwrite"
    case stream
    case streamQuality = "stream-quality"
    case streamRemux = "stream-remux"
    case liveLimit = "live-limit"
    case streamAudio = "stream-audio"
    case streamSubs = "stream-subs"
    case extractor
    // Transfers.
    case maxConcurrent = "max-concurrent"
    case split
    case minSplitSize = "min-split-size"
    case maxHostConnections = "max-host-connections"
    case limitRate = "limit-rate"
    case maxOverallDownloadLimit = "max-overall-download-limit"
    case retries, timeout
    case diskReserve = "disk-reserve"
    case caCert = "ca-cert"
    // Remote control and hooks.
    case rpcListen = "rpc-listen"
    case rpcSecretFile = "rpc-secret-file"
    case rpcAllowOrigin = "rpc-allow-origin"
    case rpcAllowedDir = "rpc-allowed-dir"
    case onDownloadComplete = "on-download-complete"
    case onDownloadError = "on-download-error"
    case onLinkExpired = "on-link-expired"
    case notify
    // The screen.
    case headless, theme
    case noColor = "no-color"
    case noMouse = "no-mouse"

    /// The option's name (`max-concurrent`).
    public var name: String { rawValue }
    public var description: String { rawValue }

    /// The option named `name`, if haul has one.
    public init?(name: String) { self.init(rawValue: name) }

    /// In the registry's order (`haul config` lists them so).
    public static func < (lhs: OptionKey, rhs: OptionKey) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
