/// Decides whether a request's `Host` header names the TCP listener it arrived on (DNS-rebinding protection).
///
/// A web page on a name the attacker controls can make that name resolve to 127.0.0.1; the browser then
/// sends `Host: attacker.example:PORT`. Only names that cannot be rebound are accepted:
/// - the host the listener was configured with (`--rpc-listen HOST:PORT`);
/// - the IP address the connection actually arrived on (this covers wildcard binds such as 0.0.0.0);
/// - `127.0.0.1`, `localhost` and `[::1]` when that address is a loopback one.
///
/// The port must be the listener's (a `Host` without a port means port 80). Names compare case-insensitively.
struct HostCheck: Sendable, Equatable {
    /// What the check concluded for one request.
    enum Verdict: Sendable, Equatable {
        case allowed
        /// HTTP/1.1 requires `Host`; aria2 clients always send it.
        case missing
        /// The header names something else: answered with 403.
        case foreign
    }

    /// The host part of `--rpc-listen`, lowercased, IPv6 in brackets.
    let configuredHost: String
    /// The port the listener is bound to (after port 0 was resolved).
    let port: Int

    init(configuredHost: String, port: Int) {
        self.configuredHost = Self.bracketed(configuredHost.lowercased())
        self.port = port
    }

    /// Checks the `Host` header of one request.
    ///
    /// - Parameters:
    ///   - host: the header's value, nil when absent.
    ///   - localIP: the listener-side IP address of the connection (`127.0.0.1`, `::1`, ...), when known.
    ///   - requiresHost: true for HTTP/1.1 and later, where a missing `Host` is a client error.
    func verdict(host: String?, localIP: String?, requiresHost: Bool) -> Verdict {
        guard let host, !host.isEmpty else { return requiresHost ? .missing : .allowed }
        guard let (name, port) = Self.split(host.lowercased()), port == self.port else { return .foreign }
        return acceptedNames(localIP: localIP).contains(name) ? .allowed : .foreign
    }

    /// The host names accepted on a connection that arrived on `localIP`.
    func acceptedNames(localIP: String?) -> Set<String> {
        var names: Set<String> = [configuredHost]
        let local = localIP.map { Self.bracketed($0.lowercased()) }
        if let local { names.insert(local) }
        if Self.isLoopback(configuredHost) || local.map(Self.isLoopback) == true {
            names.formUnion(["127.0.0.1", "localhost", "[::1]"])
        }
        return names
    }

    /// Splits `name:port`, `[v6]:port` or a bare name (port 80).
    static func split(_ host: String) -> (name: String, port: Int)? {
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let name = String(host[...close])
            let rest = host[host.index(after: close)...]
            if rest.isEmpty { return (name, 80) }
            guard rest.hasPrefix(":"), let port = Int(rest.dropFirst()) else { return nil }
            return (name, port)
        }
        let parts = host.split(separator: ":", omittingEmptySubsequences: false)
        switch parts.count {
        case 1: return (host, 80)
        case 2:
            guard let port = Int(parts[1]) else { return nil }
            return (String(parts[0]), port)
        default: return nil
        }
    }

    /// `::1` becomes `[::1]`; names and IPv4 addresses stay as they are.
    static func bracketed(_ host: String) -> String {
        host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    }

    /// Whether a (bracketed) host names the loopback interface.
    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "[::1]" || host.hasPrefix("127.")
    }
}
