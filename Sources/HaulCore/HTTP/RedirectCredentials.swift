import Foundation

/// Which of the user's headers a request may carry when it goes somewhere else than the link the user gave,
/// as curl decides when it follows a redirect (CVE-2022-27776): `Authorization`, `Cookie` and
/// `Proxy-Authorization` go only to the link's own origin (scheme, host and port).
///
/// haul follows redirects itself, one request per hop, and the extra connections of a segmented download ask
/// the redirect's target directly: every request applies the rule here.
public enum RedirectCredentials {
    /// Header names (lower case) that carry credentials.
    public static let credentialHeaders: Set<String> = ["authorization", "cookie", "proxy-authorization"]

    /// `headers` (`Name: value` lines) as a request to `target` may send them, for a task whose link is `original`.
    public static func headers(_ headers: [String], original: String, target: String) -> [String] {
        guard headers.contains(where: carriesCredentials), original != target, !sameOrigin(original, target) else { return headers }
        return headers.filter { !carriesCredentials($0) }
    }

    /// Whether the header line (`Name: value`) is one of `credentialHeaders`.
    public static func carriesCredentials(_ line: String) -> Bool {
        credentialHeaders.contains(line.prefix { $0 != ":" }.trimmingCharacters(in: .whitespaces).lowercased())
    }

    /// Whether two URLs have the same scheme, host and port (the default port when none is given).
    public static func sameOrigin(_ a: String, _ b: String) -> Bool {
        guard let first = origin(a), let second = origin(b) else { return false }
        return first == second
    }

    private struct Origin: Equatable {
        var scheme: String
        var host: String
        var port: Int
    }

    private static func origin(_ url: String) -> Origin? {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
              let host = components.host?.lowercased(), !host.isEmpty
        else { return nil }
        let port = components.port ?? (scheme == "https" ? 443 : 80)
        return Origin(scheme: scheme, host: host, port: port)
    }
}
