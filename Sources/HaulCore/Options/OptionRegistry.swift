/// Every option haul has, defined once (DESIGN §11): the settings file's keys, the long options of a run, the
/// options a download may set for itself, and what aria2's RPC calls them. `haul config` lists them in this order.
public enum OptionRegistry {
    public static let all: [OptionDefinition] = [
        // Where and how tasks are added (live: the next task added gets them).
        OptionDefinition(
            .dir, flag: "-d/--dir", kind: .string, change: .live, scope: .task, aria2: .same, check: notEmpty),
        OptionDefinition(
            .header, flag: "-H/--header", kind: .strings, change: .live, scope: .task, aria2: .same,
            check: headers, shown: maskedHeaders),
        OptionDefinition(
            .userAgent, kind: .string, change: .live, scope: .task, aria2: .same, check: header("User-Agent")),
        OptionDefinition(
            .referer, kind: .string, change: .live, scope: .task, aria2: .same, check: header("Referer"),
            shown: redactedURL),
        OptionDefinition(
            .allProxy, kind: .string, change: .live, scope: .task, aria2: .same, check: proxy,
            shown: redactedProxy),
        OptionDefinition(.noProxy, kind: .string, change: .live, scope: .task, aria2: .same, check: noProxy),
        OptionDefinition(
            .loadCookies, kind: .string, change: .live, scope: .task, aria2: .same, check: notEmpty),
        OptionDefinition(
            .netrcFile, kind: .string, change: .live, scope: .task, aria2: Aria2Form("netrc-path"), check: notEmpty),
        OptionDefinition(
            .continuePartial, flag: "-c/--continue", kind: .bool, default: .bool(false), change: .live,
            aria2: .same),
        OptionDefinition(
            .allowOverwrite, kind: .bool, default: .bool(false), change: .live, scope: .task,
            aria2: .same),
        OptionDefinition(
            .stream, kind: .string, default: .string("auto"), change: .live, scope: .task, aria2: .same,
            check: streamOption(.stream)),
        OptionDefinition(
            .streamQuality, kind: .string, default: .string("best"), change: .live, scope: .task,
            aria2: .same, check: streamOption(.streamQuality)),
        OptionDefinition(
            .streamRemux, kind: .string, change: .live, scope: .task, aria2: .same,
            check: streamOption(.streamRemux)),
        // Transfers.
        OptionDefinition(
            .maxConcurrent, flag: "-j/--max-concurrent", kind: .int, default: .int(ConcurrencyLimit.defaultValue),
            change: .live, aria2: Aria2Form("max-concurrent-downloads"), check: within(ConcurrencyLimit.range)),
        OptionDefinition(
            .split, flag: "-s/--split", kind: .int, default: .int(4), change: .live, scope: .task, aria2: .same,
            check: within(SplitLimit.range)),
        OptionDefinition(
            .minSplitSize, kind: .size, default: .string("4M"), change: .live, aria2: .same,
            check: minSplitSize),
        OptionDefinition(
            .maxHostConnections, kind: .int, default: .int(8), change: .live, aria2: Aria2Form("max-connection-per-server"),
            check: within(1...64)),
        OptionDefinition(
            .limitRate, kind: .size, change: .live, scope: .task, aria2: Aria2Form("max-download-limit"), check: rate),
        OptionDefinition(
            .maxOverallDownloadLimit, kind: .size, change: .live, aria2: .same, check: rate),
        OptionDefinition(
            .retries, kind: .int, default: .int(5), change: .live, aria2: Aria2Form("max-tries"),
            check: atLeast(0, "must be 0 or more")),
        OptionDefinition(
            .timeout, kind: .int, default: .int(30), change: .live, aria2: .same,
            check: atLeast(1, "must be at least 1 second")),
        OptionDefinition(.diskReserve, kind: .size, default: .string("64M"), change: .live, check: size),
        OptionDefinition(.caCert, kind: .string, change: .live, aria2: Aria2Form("ca-certificate"), check: notEmpty),
        // Remote control and hooks.
        OptionDefinition(.rpcListen, kind: .string, check: notEmpty),
        OptionDefinition(.rpcSecretFile, kind: .string, check: notEmpty),
        OptionDefinition(.rpcAllowOrigin, kind: .string, check: notEmpty),
        OptionDefinition(.rpcAllowedDir, kind: .strings),
        OptionDefinition(.onDownloadComplete, kind: .string, aria2: .same, check: hook),
        OptionDefinition(.onDownloadError, kind: .string, aria2: .same, check: hook),
        OptionDefinition(.onLinkExpired, kind: .string, check: hook),
        OptionDefinition(.notify, kind: .bool, default: .bool(false)),
        // The screen.
        OptionDefinition(.headless, kind: .bool, default: .bool(false)),
        OptionDefinition(.theme, kind: .string, check: notEmpty),
        OptionDefinition(.noColor, kind: .bool, default: .bool(false)),
    ]

    private static let index = Dictionary(uniqueKeysWithValues: all.map { ($0.key, $0) })

    /// The definition of `key`.
    public static subscript(_ key: OptionKey) -> OptionDefinition {
        guard let definition = index[key] else { preconditionFailure("no definition for \(key.rawValue)") }
        return definition
    }

    /// The option named `name`, if any.
    public static func named(_ name: String) -> OptionDefinition? { OptionKey(name: name).map { self[$0] } }

    /// The option aria2's RPC calls `name`, if haul has it.
    public static func aria2Named(_ name: String) -> OptionDefinition? { all.first { $0.aria2?.name == name } }
}
