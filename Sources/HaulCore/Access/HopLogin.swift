import Foundation

/// The login a request carries, decided for each URL a task asks: its link, a mirror, every hop of a redirect
/// (haul follows redirects itself), and the extra connections that ask a redirect's target directly (DESIGN §8).
///
/// - A URL with its own `user:password@` keeps it (libcurl sends it; curl's rule).
/// - On the origin (scheme, host and port) of the task's link or of a mirror: that link's own login, else the
///   `.netrc` entry for the host, else its `default` entry.
/// - On another port or scheme of such a link's host: none. A `.netrc` entry names a host without a port, and
///   for the link's host it is the link's login; it does not follow a redirect to another port (TECH_NOTES H.2f).
///   The one exception is the upgrade from `http://HOST` to `https://HOST` on the standard ports, which keeps the
///   `.netrc` entry (not a login in the link: curl drops that on a change of scheme).
/// - On any other host: the `.netrc` entry that names that host, never the `default` one (a server chose the
///   host, not the user) and never another host's.
public enum HopLogin {
    /// Where a login came from.
    public enum Source: Sendable, Equatable {
        /// `user:password@` in the link.
        case link
        /// The `.netrc` entry for the host.
        case netrc
    }

    public struct Choice: Sendable, Equatable {
        /// The login to send as the request's own credentials; nil when none is, or when the URL carries it.
        public var login: NetrcFile.Login?
        /// Where the credentials the request carries come from; nil when it carries none.
        public var source: Source?

        public init(login: NetrcFile.Login? = nil, source: Source? = nil) {
            self.login = login
            self.source = source
        }
    }

    /// The login for a request to `url`, for a task whose link and mirrors are `links`, with the task's `.netrc`.
    public static func choose(for url: String, links: [String], netrc: NetrcFile?) -> Choice {
        // Without a `.netrc` a login can only be a link's own, and a link with one has an `@` (read once per request:
        // parsing the URLs below is the dearer part of starting a small file).
        if netrc == nil, !url.contains("@"), !links.contains(where: { $0.contains("@") }) { return Choice() }
        if URLValidation.redacted(url) != url { return Choice(source: .link) }
        if let link = links.first(where: { RedirectCredentials.sameOrigin(url, $0) }) {
            // The link's own login wins on its origin (and one it cannot read gives none, not the netrc's).
            if URLValidation.redacted(link) != link { return ownLogin(of: link).map { Choice(login: $0, source: .link) } ?? Choice() }
            return netrcChoice(netrc?.login(for: URLValidation.host(of: url)))
        }
        let host = URLValidation.host(of: url)
        let sameHost = links.filter { URLValidation.host(of: $0) == host }
        guard sameHost.isEmpty else {
            // The link's host on another port or scheme: its entry stays with the link's origin, except on the
            // upgrade from http to https on the standard ports (the same service, now over TLS).
            // A link with a login of its own takes no `.netrc` login for its host (TECH_NOTES H.2e: never mix them).
            let upgraded = sameHost.contains { isUpgrade(from: $0, to: url) && URLValidation.redacted($0) == $0 }
            return upgraded ? netrcChoice(netrc?.login(for: host)) : Choice()
        }
        return netrcChoice(netrc?.machines[host])
    }

    /// Whether `target` is `link` moved from http on port 80 to https on port 443.
    static func isUpgrade(from link: String, to target: String) -> Bool {
        guard let from = URLComponents(string: link), let to = URLComponents(string: target) else { return false }
        return from.scheme?.lowercased() == "http" && (from.port ?? 80) == 80
            && to.scheme?.lowercased() == "https" && (to.port ?? 443) == 443
    }

    /// What a 401 from `url` says about the login: the one that was refused, or that `--netrc-file` has none
    /// for the host; nil when no login went and no `.netrc` was given (the plain 401 advice holds).
    public static func refused(at url: String, links: [String], netrc: NetrcFile?) -> DownloadError.LoginTried? {
        switch choose(for: url, links: links, netrc: netrc).source {
        case .link: return .link
        case .netrc: return .netrc
        case nil:
            guard let netrc else { return nil }
            // Another port or scheme of the link's host: the entry exists and stays with the link's origin.
            let host = URLValidation.host(of: url)
            let withheld = netrc.login(for: host) != nil && links.contains { URLValidation.host(of: $0) == host }
            return withheld ? .netrcWithheld : .netrcHasNone
        }
    }

    private static func netrcChoice(_ login: NetrcFile.Login?) -> Choice {
        login.map { Choice(login: $0, source: .netrc) } ?? Choice()
    }

    /// The `user:password@` of `link`, decoded, when it reads.
    private static func ownLogin(of link: String) -> NetrcFile.Login? {
        guard let components = URLComponents(string: link), let user = components.user else { return nil }
        return NetrcFile.Login(user: user, password: components.password ?? "")
    }
}
