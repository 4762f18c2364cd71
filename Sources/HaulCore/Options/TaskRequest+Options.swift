/// The options a download may set for itself (`OptionDefinition.Scope.task`), applied to its request by every way
/// in that takes them by name: an input file's entry lines, an RPC add and `changeOption`.
extension TaskRequest {
    /// Sets `key` to `value`, checked by its definition; the request then holds it against the settings file's
    /// rules. A key a download cannot set for itself is refused.
    public mutating func set(_ key: OptionKey, _ value: SettingValue) throws(OptionValueError) {
        let definition = OptionRegistry[key]
        guard definition.scope == .task else { throw .notPerTask(key) }
        var value = value
        if definition.kind == .strings, case let .string(text) = value { value = .strings([text]) }
        guard definition.kind.accepts(value) else { throw .wrongType(key, expected: definition.kind) }
        let text = value.stringValue ?? ""
        // The intake's own rules first, so each way in gives the same answer for the same value.
        do throws(IntakeError) {
            switch key {
            case .header: for line in value.stringsValue ?? [] { try HeaderRule.check(line) }
            case .userAgent: try HeaderRule.check("User-Agent: " + text)
            case .referer: try HeaderRule.check("Referer: " + text)
            case .allProxy: _ = try ProxySettings.resolve(allProxy: text, noProxy: nil, defaults: ProxySettings())
            case .noProxy: if !text.isEmpty { _ = try ProxyURL.checkedNoProxy(text) }
            case .stream, .streamQuality, .streamRemux, .liveLimit, .streamAudio, .streamSubs: try access.setStreamOption(key, text)
            default: break
            }
        } catch {
            throw .intake(error)
        }
        if let message = definition.check(value) { throw .refused(key, message) }
        switch key {
        case .dir: directory = text
        case .header: headers += value.stringsValue ?? []
        case .userAgent: headers.append("User-Agent: " + text)
        case .referer: headers.append("Referer: " + text)
        case .allProxy: access.allProxy = text
        case .noProxy: access.noProxy = text
        case .loadCookies: access.loadCookies = text
        case .netrcFile: access.netrcFile = text
        case .allowOverwrite: transfer.allowOverwrite = value.boolValue ?? false
        case .stream, .streamQuality, .streamRemux, .liveLimit, .streamAudio, .streamSubs: break
        case .split: transfer.split = value.intValue
        case .limitRate: transfer.rateLimit = (try? RateLimit.parse(text))??.bytesPerSecond ?? 0
        default: throw .notPerTask(key)
        }
        // The header lines stand for the header options too: a rule's lines do not replace them.
        given.insert(key == .referer ? .header : key)
    }
}

/// Why a value of an option was not taken.
public enum OptionValueError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The option belongs to the run, not to one download.
    case notPerTask(OptionKey)
    case wrongType(OptionKey, expected: SettingKind)
    /// The option's check refused it (its message).
    case refused(OptionKey, String)
    /// The intake's rule for the value refused it.
    case intake(IntakeError)

    public var description: String {
        switch self {
        case let .intake(error): error.description
        case let .notPerTask(key): "\(key.name) applies to the whole run, not to one download"
        case let .wrongType(key, expected): "\(key.name) must be \(expected.rawValue)"
        case let .refused(key, message): "\(key.name) \(message)"
        }
    }
}
