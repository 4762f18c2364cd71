/// The checks and the masks of the registry's options (the messages follow the option's name or the file's key).
extension OptionRegistry {
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

    /// A stall timeout: at least a second, at most a day (libcurl takes a longer one as none at all and gives up at
    /// once, a setting or an RPC client's value could then stall every download).
    static let stallSeconds: @Sendable (SettingValue) -> String? = { value in
        guard let number = value.intValue else { return nil }
        if number < 1 { return "must be at least 1 second, got \(number)" }
        return number > 86_400 ? "must be at most 86400 seconds (a day), got \(number)" : nil
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
    static func streamOption(_ key: OptionKey) -> @Sendable (SettingValue) -> String? {
        { value in
            guard let text = value.stringValue else { return nil }
            var access = AccessRequest()
            do throws(IntakeError) {
                try access.setStreamOption(key, text)
                return nil
            } catch let .invalidStreamOption(option, value) {
                // The message follows the option's name: it does not say it again.
                return IntakeError.streamValueProblem(option, value)
            } catch {
                return "\(error)"
            }
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
