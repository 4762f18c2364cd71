import HaulCore

/// aria2 options whose value for haul is a plain fact of how it works, answered as aria2 would (AriaNg's settings
/// pages show them): haul never asks HEAD first, never pipelines, keeps connections alive, always verifies TLS,
/// resumes and renames rather than overwrite, and leaves a file's time as it is.
enum Aria2Facts {
    static let behaviour: [String: JSONValue] = defaults.merging([
        "use-head": "false",
        "enable-http-pipelining": "false",
        "enable-http-keep-alive": "true",
        "http-accept-gzip": "false",
        "http-no-cache": "false",
        "http-auth-challenge": "false",
        "check-certificate": "true",
        "remote-time": "false",
        "conditional-get": "false",
        "always-resume": "true",
        "auto-file-renaming": "true",
        "dry-run": "false",
        "proxy-method": "get",
        "check-integrity": "false",
        "connect-timeout": .string(String(TransferOptions().connectTimeout)),
    ]) { own, _ in own }

    /// Options haul has whose value, when none is set, comes from haul itself rather than a setting.
    private static var defaults: [String: JSONValue] {
        OptionRegistry[.userAgent].aria2.map { [$0.name: .string(Product.userAgent)] } ?? [:]
    }

    /// Whether `value` is what the fact `name` says, so a client setting it to that changes nothing.
    static func holds(_ name: String, _ value: String) -> Bool {
        behaviour[name]?.stringValue == value
    }
}
