import HaulCore
import HaulReport

/// `haul config --json`'s `[[rule]]` and `[[category]]` entries, one field per key as the file wrote it (a rule's
/// `limit-rate` is `"500K"`, not bytes); secrets are shown as the plain table shows them (proxy and header values
/// without credentials).
enum SectionJSON {
    static func rule(_ rule: HostRule) -> JSONLine {
        var line = JSONLine()
        line.add("host", rule.host.pattern)
        line.add("split", rule.split.map(Int64.init))
        line.add("limit-rate", rule.rateLimitText ?? rule.rateLimit.map { String($0) })
        line.add("all-proxy", rule.allProxy.map(ProxyURL.redacted))
        if !rule.headers.isEmpty { line.add("header", json: strings(rule.headers.map(SecretText.header))) }
        line.add("user-agent", rule.userAgent)
        line.add("load-cookies", rule.loadCookies)
        line.add("dir", rule.directory)
        line.add("origin", rule.origin)
        return line
    }

    static func category(_ category: DownloadCategory) -> JSONLine {
        var line = JSONLine()
        line.add("extensions", json: strings(category.extensions))
        line.add("content-types", json: strings(category.contentTypes))
        line.add("dir", category.directory)
        line.add("origin", category.origin)
        return line
    }

    /// A JSON array of texts.
    private static func strings(_ texts: [String]) -> String {
        "[" + texts.map(\.jsonStringLiteral).joined(separator: ",") + "]"
    }
}
