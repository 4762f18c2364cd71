import HaulCore

/// The cookies of one download attempt: the task's cookies file and the cookies servers set for it earlier,
/// in one jar every connection of the attempt shares (DESIGN §8). Confined to the transfer thread (or to a
/// `LinkProbe`'s own, for its one request).
///
/// The cookies servers set are kept within `BoundedCookies`' bounds: at each checkpoint, and whenever answers
/// have carried `BoundedCookies.perHost` `Set-Cookie` headers since the last look, the jar is read, and when a
/// bound was passed it is emptied and refilled with the file's cookies and the newest of the servers'. So the
/// jar never holds much more than its bounds, and the work libcurl does for each request and answer of the task
/// (proportional to the jar) stays bounded too. A look reads the whole jar, so it comes at most once per 180
/// cookies set, besides checkpoints.
final class CookieJar {
    let share = CurlCookieShare()
    /// Netscape lines the first connection puts in the jar: the file's, then the stored ones, which win.
    private(set) var seed: [String]
    /// The cookies file's own cookies, which are not stored again.
    private let fileCookies: [CookieFile.Cookie]
    /// The cookies servers set, oldest first, within the bounds.
    private var kept: BoundedCookies
    /// The server-set cookies last reported (or stored when the attempt started).
    private var reported: [String]
    /// `share.setCookieHeaders` when the jar was last brought within its bounds.
    private var setCookieHeadersAtTrim = 0

    init(options: RequestOptions, stored: [String]) throws(DownloadError) {
        do {
            fileCookies = try options.cookiesFile.map { path throws(IntakeError) in try CookieFile.read(path).cookies } ?? []
        } catch {
            throw .unusableOption(error.description)
        }
        kept = BoundedCookies(stored.compactMap { CookieFile.Cookie(line: Substring($0)) })
        seed = fileCookies.map(\.line) + kept.cookies.map(\.line)
        reported = stored
    }

    /// Hands the seed over once (to the first connection that attaches); later ones share the jar.
    func takeSeed() -> [String] {
        defer { seed = [] }
        return seed
    }

    /// Brings the jar within its bounds, and returns the cookies servers set or changed (oldest first) when
    /// they differ from those last reported. For checkpoints: it reads the whole jar.
    func checkpoint() -> [String]? {
        // Before the first connection takes the seed, the jar is still empty.
        guard seed.isEmpty else { return nil }
        trim()
        let lines = kept.cookies.map(\.line)
        guard lines != reported else { return nil }
        reported = lines
        return lines
    }

    /// Brings the jar within its bounds when answers may have set enough cookies since the last look to pass
    /// them; otherwise only compares two numbers. For every pass of the engine loop.
    func trimIfGrown() {
        guard seed.isEmpty, share.setCookieHeaders - setCookieHeadersAtTrim >= BoundedCookies.perHost else { return }
        trim()
    }

    /// Reads the jar into `kept`; empties and refills it when a bound was passed.
    private func trim() {
        setCookieHeadersAtTrim = share.setCookieHeaders
        let jar = share.lines.compactMap { CookieFile.Cookie(line: Substring($0)) }
        if kept.update(from: CookieFile.changes(in: jar, since: fileCookies)) {
            share.replaceAll(with: fileCookies.map(\.line) + kept.cookies.map(\.line))
        }
    }
}
