/// The proxies one task goes through, fixed when it is added: from `--all-proxy`/`--no-proxy`, else from the
/// adding process's environment as curl reads it. A task added from another shell therefore keeps that shell's
/// proxies, not the ones of the haul that runs it.
public struct ProxySettings: Sendable, Equatable, Codable {
    /// The proxy for `http://` links; nil: direct.
    public var http: String?
    /// The proxy for `https://` links; nil: direct.
    public var https: String?
    /// Hosts that go direct (curl's `no_proxy` list: comma-separated names, domains, addresses, or `*`).
    public var noProxy: String?

    public init(http: String? = nil, https: String? = nil, noProxy: String? = nil) {
        self.http = http
        self.https = https
        self.noProxy = noProxy
    }

    /// One proxy for every link (`--all-proxy`).
    public init(all proxy: String?, noProxy: String?) {
        self.init(http: proxy, https: proxy, noProxy: noProxy)
    }

    /// The proxy a request to `url` goes through, nil for direct (the no-proxy list is applied by libcurl).
    public func proxy(for url: String) -> String? {
        url.prefix(8).lowercased() == "https://" ? https : http
    }

    /// Whether any proxy is set.
    public var isEmpty: Bool { http == nil && https == nil }

    /// The settings of `environment` as curl reads them: lower-case `http_proxy` only (curl ignores
    /// `HTTP_PROXY`, which a web server may set from a request's `Proxy:` header), `https_proxy` or
    /// `HTTPS_PROXY`, then `all_proxy` or `ALL_PROXY` for either; `no_proxy` or `NO_PROXY`. Each proxy is
    /// checked by `ProxyURL` and reported with the variable's name.
    public static func fromEnvironment(_ environment: [String: String]) throws(IntakeError) -> ProxySettings {
        func value(_ names: String...) -> (name: String, value: String)? {
            for name in names {
                if let value = environment[name], !value.isEmpty { return (name, value) }
            }
            return nil
        }
        func checked(_ found: (name: String, value: String)?) throws(IntakeError) -> String? {
            guard let found else { return nil }
            do {
                return try ProxyURL.normalized(found.value)
            } catch {
                throw .proxyInEnvironment(variable: found.name, error)
            }
        }
        let all = value("all_proxy", "ALL_PROXY")
        return ProxySettings(
            http: try checked(value("http_proxy") ?? all),
            https: try checked(value("https_proxy", "HTTPS_PROXY") ?? all),
            noProxy: value("no_proxy", "NO_PROXY")?.value)
    }

    /// The settings for a task: `allProxy` (`--all-proxy`, "" for none) and `noProxy` (`--no-proxy`) where
    /// given, else `defaults` (the environment's).
    public static func resolve(allProxy: String?, noProxy: String?, defaults: ProxySettings) throws(IntakeError) -> ProxySettings {
        var settings = defaults
        if let allProxy {
            let proxy = allProxy.isEmpty ? nil : try ProxyURL.normalized(allProxy)
            settings.http = proxy
            settings.https = proxy
        }
        if let noProxy { settings.noProxy = noProxy.isEmpty ? nil : try ProxyURL.checkedNoProxy(noProxy) }
        return settings
    }

    /// The settings with proxy credentials removed, for display.
    public var redacted: ProxySettings {
        ProxySettings(http: http.map(URLValidation.redacted), https: https.map(URLValidation.redacted), noProxy: noProxy)
    }
}
