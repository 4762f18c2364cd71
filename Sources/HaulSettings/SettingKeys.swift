import HaulCore

/// Every key of the settings file: the long options of a run (DESIGN §10), declared once with their types,
/// built-in defaults, rules and whether a running haul takes a new value live. `haul config` lists them in
/// this order; the command line's options map onto the same names.
public enum SettingKeys {
    public static let run: [SettingKey] = [
        // Where and how tasks are added (live: the next task added gets them).
        SettingKey("dir", flag: "-d/--dir", kind: .string, change: .live, check: notEmpty),
        SettingKey("header", flag: "-H/--header", kind: .strings, change: .live, check: headers, shown: maskedHeaders),
        SettingKey("user-agent", kind: .string, change: .live, check: header("User-Agent")),
        SettingKey("referer", kind: .string, change: .live, check: header("Referer"), shown: redactedURL),
        SettingKey("all-proxy", kind: .string, change: .live, check: proxy, shown: redactedProxy),
        SettingKey("no-proxy", kind: .string, change: .live, check: noProxy),
        SettingKey("load-cookies", kind: .string, change: .live, check: notEmpty),
        SettingKey("netrc-file", kind: .string, change: .live, check: notEmpty),
        SettingKey("continue", flag: "-c/--continue", kind: .bool, default: .bool(false), change: .live),
        SettingKey("allow-overwrite", kind: .bool, default: .bool(false), change: .live),
        SettingKey("stream", kind: .string, default: .string("auto"), change: .live, check: streamOption("stream")),
        SettingKey("stream-quality", kind: .string, default: .string("best"), change: .live, check: streamOption("stream-quality")),
        SettingKey("stream-remux", kind: .string, change: .live, check: streamOption("stream-remux")),
        // Transfers.
        SettingKey(
            "max-concurrent", flag: "-j/--max-concurrent", kind: .int, default: .int(ConcurrencyLimit.defaultValue),
            change: .live, check: within(ConcurrencyLimit.range)),
        SettingKey("split", flag: "-s/--split", kind: .int, default: .int(4), change: .live, check: within(SplitLimit.range)),
        SettingKey("min-split-size", kind: .size, default: .string("4M"), change: .live, check: minSplitSize),
        SettingKey("max-host-connections", kind: .int, default: .int(8), change: .live, check: within(1...64)),
        SettingKey("limit-rate", kind: .size, change: .live, check: rate),
        SettingKey("max-overall-download-limit", kind: .size, change: .live, check: rate),
        SettingKey("retries", kind: .int, default: .int(5), change: .live, check: atLeast(0, "must be 0 or more")),
        SettingKey("timeout", kind: .int, default: .int(30), change: .live, check: atLeast(1, "must be at least 1 second")),
        SettingKey("disk-reserve", kind: .size, default: .string("64M"), change: .live, check: size),
        SettingKey("ca-cert", kind: .string, change: .live, check: notEmpty),
        // Remote control and hooks.
        SettingKey("rpc-listen", kind: .string, check: notEmpty),
        SettingKey("rpc-secret-file", kind: .string, check: notEmpty),
        SettingKey("rpc-allow-origin", kind: .string, check: notEmpty),
        SettingKey("rpc-allowed-dir", kind: .strings),
        SettingKey("on-download-complete", kind: .string, check: hook),
        SettingKey("on-download-error", kind: .string, check: hook),
        SettingKey("on-link-expired", kind: .string, check: hook),
        SettingKey("notify", kind: .bool, default: .bool(false)),
        // The screen.
        SettingKey("headless", kind: .bool, default: .bool(false)),
        SettingKey("theme", kind: .string, check: notEmpty),
        SettingKey("no-color", kind: .bool, default: .bool(false)),
    ]

    /// The key named `name`, if any.
    public static func key(_ name: String) -> SettingKey? { run.first { $0.name == name } }

    /// Names that are options of a run but never keys, and why: the answer an "unknown key" would not give.
    public static let refused: [String: String] = [
        "rpc-secret": "the RPC secret is never kept in the settings file; put it in a file named by rpc-secret-file "
            + "(or --rpc-secret-file), or in $HAUL_RPC_SECRET",
        "state-dir": "the queue's directory is chosen by --state-dir or $XDG_STATE_HOME, so that every haul command "
            + "finds the same queue",
        "output": "it names one download's file; give it with -o on the command line",
        "input-file": "it names one run's links; give it with -i on the command line",
        "checksum": "it belongs to one download; give it with --checksum on the command line",
        "mirror": "it belongs to one download; give it with --mirror on the command line",
        "json": "it chooses one run's output; give it on the command line",
        "keep-running": "it chooses one run's end; give it on the command line (haul daemon sets it)",
        "config": "the settings file cannot name another one",
    ]

    // MARK: - Values as shown (credentials masked as everywhere else)

    static let maskedHeaders: @Sendable (SettingValue) -> SettingValue = { value in
        value.stringsValue.map { .strings($0.map(SecretText.header)) } ?? value
    }

    static let redactedURL: @Sendable (SettingValue) -> SettingValue = { value in
        value.stringValue.map { .string(URLValidation.redacted($0)) } ?? value
    }

    static let redactedProxy: @Sendable (SettingValue) -> SettingValue = { value in
        value.stringValue.map { .string(ProxyURL.redacted($0)) } ?? value
    }

    // MARK: - Checks (the messages follow the option's name or the file's key)

    static func within(_ range: ClosedRange<Int>) -> @Sendable (SettingValue) -> String? {
        { value in
            guard let number = value.intValue, !range.contains(number) else { return nil }
            return "must be between \(range.lowerBound) and \(range.upperBound), got \(number)"
        }
    }

    static func atLeast(_ minimum: Int, _ message: String) -> @Sendable (SettingValue) -> String? {
        { value in
            guard let number = value.intValue, number < minimum else { return nil }
            return "\(message), got \(number)"
        }
    }

    static let notEmpty: @Sendable (SettingValue) -> String? = { value in
        value.stringValue?.isEmpty == true ? "cannot be empty" : nil
    }

    static let hook: @Sendable (SettingValue) -> String? = { value in
        value.stringValue?.isEmpty == true ? "a hook command cannot be empty" : nil
    }

    static let rate: @Sendable (SettingValue) -> String? = { value in
        guard let text = value.stringValue else { return nil }
        return refusal { _ = try RateLimit.parse(text) }
    }

    static let size: @Sendable (SettingValue) -> String? = { value in
        guard let text = value.stringValue, ByteSize.parse(text) == nil else { return nil }
        return "'\(text)' is not a size like 64M, 1G or 0"
    }

    static let minSplitSize: @Sendable (SettingValue) -> String? = { value in
        guard let text = value.stringValue else { return nil }
        guard let bytes = ByteSize.parse(text), bytes >= 1 << 20 else { return "'\(text)' is not a size of at least 1M, like 4M or 20M" }
        return nil
    }

    static let proxy: @Sendable (SettingValue) -> String? = { value in
        guard let text = value.stringValue, !text.isEmpty else { return nil }
        return refusal { _ = try ProxyURL.normalized(text) }
    }

    static let noProxy: @Sendable (SettingValue) -> String? = { value in
        guard let text = value.stringValue, !text.isEmpty else { return nil }
        return refusal { _ = try ProxyURL.checkedNoProxy(text) }
    }

    static let headers: @Sendable (SettingValue) -> String? = { value in
        refusal { try HeaderRule.check(all: value.stringsValue ?? []) }
    }

    /// `stream`, `stream-quality` and `stream-remux`: the values the intake takes (DESIGN §9).
    static func streamOption(_ name: String) -> @Sendable (SettingValue) -> String? {
        { value in
            guard let text = value.stringValue else { return nil }
            var access = AccessRequest()
            return refusal { try access.setStreamOption(name, text) }
        }
    }

    static func header(_ name: String) -> @Sendable (SettingValue) -> String? {
        { value in
            guard let text = value.stringValue else { return nil }
            return refusal { try HeaderRule.check("\(name): \(text)") }
        }
    }

    /// A check's error as the key's message; nil when it passes.
    static func refusal(_ check: () throws -> Void) -> String? {
        do {
            try check()
            return nil
        } catch {
            return "\(error)"
        }
    }
}
