import Foundation
import HaulCore

/// The per-download options of `aria2.addUri` (and `changeOption`) as haul takes them: every option a download may
/// set for itself (`OptionRegistry`, by its aria2 name) goes into the request; the ones that cannot matter here
/// (BitTorrent and Metalink keys, allocation and resume switches whose behaviour haul always has) are ignored by
/// name; any other option is refused with aria2's error naming it, so no download runs unlike what its client
/// asked (a proxy ignored would send traffic direct).
struct Aria2TaskOptions {
    /// The request the options describe, for the links given.
    private(set) var request: TaskRequest
    /// Options accepted without effect, by name.
    private(set) var ignored: [String] = []

    /// Options whose behaviour haul always has, or that only concern protocols haul does not speak.
    static let harmless: Set<String> = [
        "continue", "always-resume", "file-allocation", "remote-time", "auto-file-renaming", "check-integrity",
        "follow-torrent", "follow-metalink", "enable-dht", "enable-dht6", "enable-peer-exchange", "select-file",
        "index-out", "pause-metadata", "seed-ratio", "seed-time", "rpc-save-upload-metadata", "no-want-digest-header",
    ]
    static let harmlessPrefixes = ["bt-", "metalink-", "dht-"]

    /// Whether `key` is an option haul ignores by name.
    static func isHarmless(_ key: String) -> Bool {
        harmless.contains(key) || harmlessPrefixes.contains(where: key.hasPrefix)
    }

    /// aria2's error for an option it cannot take, with why when it is the value.
    static func refused(_ key: String, _ reason: String? = nil) -> RPCError {
        .failed("We encountered a problem while processing the option '--\(key)'" + (reason.map { ": " + $0 } ?? "") + ".")
    }

    /// aria2's text for a value: a string, a number or a flag.
    static func text(_ value: JSONValue) -> String? {
        switch value {
        case let .bool(flag): flag ? "true" : "false"
        default: value.stringValue ?? value.integerValue.map(String.init)
        }
    }

    /// Reads `options` into a request for `url`; throws aria2's error naming the first option haul does not have
    /// or cannot read.
    init(_ options: [String: JSONValue], url: String = "") throws(RPCError) {
        request = TaskRequest(url: url)
        var proxyUser: String?
        var proxyPassword: String?
        var httpUser: String?
        var httpPassword: String?
        for key in options.keys.sorted() {
            let value = options[key]!
            if let definition = OptionRegistry.aria2Named(key), definition.scope == .task {
                try take(definition, value)
                continue
            }
            guard let text = Self.text(value) else { throw Self.refused(key) }
            switch key {
            case "out": request.output = text
            case "checksum": request.checksum = text
            case "pause": request.transfer.startsPaused = text == "true"
            case "all-proxy-user": proxyUser = text
            case "all-proxy-passwd": proxyPassword = text
            case "http-user": httpUser = text
            case "http-passwd": httpPassword = text
            default:
                guard Self.isHarmless(key) else { throw Self.refused(key) }
                ignored.append(key)
            }
        }
        if proxyUser != nil || proxyPassword != nil {
            guard let proxy = request.access.allProxy, !proxy.isEmpty else {
                throw Self.refused(proxyUser != nil ? "all-proxy-user" : "all-proxy-passwd")
            }
            request.access.allProxy = Self.withCredentials(proxy, user: proxyUser ?? "", password: proxyPassword ?? "")
        }
        if httpUser != nil || httpPassword != nil {
            // aria2's login for the server: Basic, which stays with the link's origin like any Authorization header.
            let pair = Data("\(httpUser ?? ""):\(httpPassword ?? "")".utf8).base64EncodedString()
            request.headers.append("Authorization: Basic \(pair)")
            request.given.insert(.header)
        }
    }

    /// Puts the value of an option a download may set for itself into the request, checked by its definition.
    private mutating func take(_ definition: OptionDefinition, _ value: JSONValue) throws(RPCError) {
        let name = definition.aria2?.name ?? definition.name
        let text = Self.text(value)
        // `header` is a string (one header) or a list of strings; every other option one text.
        let setting = definition.kind == .strings ? Self.lines(value, splitting: false) : text.flatMap { Aria2Form.value($0, kind: definition.kind) }
        guard let setting else { throw Self.refused(name, text.map { Aria2Form.refusal($0, kind: definition.kind) }) }
        do {
            try request.set(definition.key, setting)
        } catch {
            throw .failed(error.description)
        }
    }

    /// `proxy` with `user:password@` (percent-encoded) in its authority.
    static func withCredentials(_ proxy: String, user: String, password: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let login = (user.addingPercentEncoding(withAllowedCharacters: allowed) ?? "") + ":"
            + (password.addingPercentEncoding(withAllowedCharacters: allowed) ?? "") + "@"
        guard let separator = proxy.range(of: "://") else { return login + proxy }
        return proxy[..<separator.upperBound] + login + proxy[separator.upperBound...]
    }

    /// A list option's value: a string (one entry, or one a line when `splitting`: a settings page's text box) or a
    /// list of strings.
    static func lines(_ value: JSONValue, splitting: Bool) -> SettingValue? {
        switch value {
        case let .string(text): return splitting ? Aria2Form.value(text, kind: .strings) : .strings([text])
        case let .array(items):
            let texts = items.compactMap(\.stringValue)
            return texts.count == items.count ? .strings(texts) : nil
        default: return nil
        }
    }
}
