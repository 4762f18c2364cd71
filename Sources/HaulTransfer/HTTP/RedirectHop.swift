import HaulCore

/// What a request does after an answer, when haul follows redirects itself: one request per hop, each set up
/// for its own URL, so every hop gets the proxy its scheme and host call for and the login its host has
/// (`HopLogin`). libcurl's own following keeps the first request's proxy and login for every hop.
enum RedirectHop: Equatable {
    /// The answer is the request's own (not a redirect, or one without a `Location`).
    case answered
    /// Ask this URL next.
    case follow(String)
    /// The redirect is not followed, for this reason.
    case refused(DownloadError)

    /// The most redirects one request follows (what libcurl was allowed before).
    static let limit = 10

    /// After a complete answer `head` whose redirect target (the `Location` resolved against the URL asked,
    /// `CURLINFO_REDIRECT_URL`) is `target`, with `hops` redirects followed already. `host` names the link in
    /// messages.
    static func next(head: ResponseHead, target: String?, hops: Int, host: String) -> RedirectHop {
        guard head.isFollowedRedirect else { return .answered }
        guard let target, !target.isEmpty else {
            return .refused(.invalidResponse(host: host, detail: "HTTP \(head.status) with a Location that is not a usable URL"))
        }
        guard hops < limit else { return .refused(.tooManyRedirects(host: host)) }
        let scheme = target.prefix { $0 != ":" }.lowercased()
        guard scheme == "http" || scheme == "https" else { return .refused(.unsupportedScheme(scheme)) }
        // The target is checked as a link a user gives is: libcurl leaves an absolute `Location` as the server sent
        // it (a raw space, a broken host), and the next request's error would call the task's own link malformed.
        guard let url = try? URLValidation.validate(target) else {
            return .refused(.invalidResponse(host: host, detail: "HTTP \(head.status) with a Location that is not a usable URL"))
        }
        return .follow(url)
    }
}
