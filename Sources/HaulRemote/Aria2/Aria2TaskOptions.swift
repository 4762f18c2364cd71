import Foundation
import HaulCore

/// The per-download options of `aria2.addUri` (and `changeOption`) as haul takes them: every option it has is
/// applied; the ones that cannot matter here (BitTorrent and Metalink keys, allocation and resume switches whose
/// behaviour haul always has) are ignored by name; any other option is refused with aria2's error naming it,
/// so no download runs unlike what its client asked (a proxy ignored would send traffic direct).
struct Aria2TaskOptions: Equatable {
    var output: String?
    var directory: String?
    var headers: [String] = []
    var checksum: String?
    var pause = false
    var rateLimit: RateLimit??
    var split: Int?
    /// Proxy, cookies file and netrc file (files need `--rpc-allowed-dir`, which the intake checks).
    var access = AccessRequest()
    /// Fetch a finished file again and replace it, or any file at the name.
    var allowOverwrite = false
    /// The settings keys these options give for the download (no rule of the settings file changes them).
    var given: Set<String> {
        var keys: Set<String> = []
        if directory != nil { keys.insert("dir") }
        if !headers.isEmpty { keys.insert("header") }
        if headers.contains(where: { $0.lowercased().hasPrefix("user-agent:") }) { keys.insert("user-agent") }
        if split != nil { keys.insert("split") }
        if rateLimit != nil { keys.insert("limit-rate") }
        if access.allProxy != nil { keys.insert("all-proxy") }
        if access.loadCookies != nil { keys.insert("load-cookies") }
        return keys
    }

    /// Options accepted without effect, by name.
    var ignored: [String] = []

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

    /// aria2's error for an option it cannot take.
    static func refused(_ key: String) -> RPCError {
        .failed("We encountered a problem while processing the option '--\(key)'.")
    }

    /// Reads `options`; throws aria2's error naming the first option haul does not have or cannot read.
    init(_ options: [String: JSONValue]) throws(RPCError) {
        var proxyUser: String?
        var proxyPassword: String?
        var httpUser: String?
        var httpPassword: String?
        for key in options.keys.sorted() {
            let value = options[key]!
            switch key {
            case "out": output = try Self.text(value, key)
            case "dir": directory = try Self.text(value, key)
            case "header": headers += try Self.lines(value, key)
            case "referer": headers.append("Referer: " + (try Self.text(value, key)))
            case "user-agent": headers.append("User-Agent: " + (try Self.text(value, key)))
            case "checksum": checksum = try Self.text(value, key)
            case "pause": pause = value == "true" || value == .bool(true)
            case "max-download-limit": rateLimit = .some(try Aria2Methods.rate(value, option: key))
            case "split":
                guard let count = value.integerValue ?? value.stringValue.flatMap({ Int64($0) }), count >= 1 else {
                    throw Self.refused(key)
                }
                split = SplitLimit.clamped(Int(clamping: count))
            case "all-proxy": access.allProxy = try Self.text(value, key)
            case "all-proxy-user": proxyUser = try Self.text(value, key)
            case "all-proxy-passwd": proxyPassword = try Self.text(value, key)
            case "no-proxy": access.noProxy = try Self.text(value, key)
            case "load-cookies": access.loadCookies = try Self.text(value, key)
            case "netrc-path": access.netrcFile = try Self.text(value, key)
            case "http-user": httpUser = try Self.text(value, key)
            case "http-passwd": httpPassword = try Self.text(value, key)
            case "allow-overwrite": allowOverwrite = value == "true" || value == .bool(true)
            case "stream": access.stream = try Self.text(value, key)
            case "stream-quality": access.streamQuality = try Self.text(value, key)
            case "stream-remux": access.streamRemux = try Self.text(value, key)
            default:
                guard Self.isHarmless(key) else { throw Self.refused(key) }
                ignored.append(key)
            }
        }
        if proxyUser != nil || proxyPassword != nil {
            guard let proxy = access.allProxy, !proxy.isEmpty else { throw Self.refused(proxyUser != nil ? "all-proxy-user" : "all-proxy-passwd") }
            access.allProxy = Self.withCredentials(proxy, user: proxyUser ?? "", password: proxyPassword ?? "")
        }
        if httpUser != nil || httpPassword != nil {
            // aria2's login for the server: Basic, which stays with the link's origin like any Authorization header.
            let pair = Data("\(httpUser ?? ""):\(httpPassword ?? "")".utf8).base64EncodedString()
            headers.append("Authorization: Basic \(pair)")
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

    private static func text(_ value: JSONValue, _ key: String) throws(RPCError) -> String {
        guard let text = value.stringValue else { throw refused(key) }
        return text
    }

    /// `header` is a string or a list of strings.
    private static func lines(_ value: JSONValue, _ key: String) throws(RPCError) -> [String] {
        switch value {
        case let .string(line): return [line]
        case let .array(lines):
            let texts = lines.compactMap(\.stringValue)
            guard texts.count == lines.count else { throw refused(key) }
            return texts
        default: throw refused(key)
        }
    }
}
