import HaulCore

/// The cookies of one download attempt: the task's cookies file and the cookies servers set for it earlier,
/// in one jar every connection of the attempt shares (DESIGN §8). Confined to the transfer thread.
final class CookieJar {
    let share = CurlCookieShare()
    /// Netscape lines the first connection puts in the jar: the file's, then the stored ones, which win.
    private(set) var seed: [String]
    /// The cookies file's own cookies, which are not stored again.
    private let fileCookies: [CookieFile.Cookie]
    /// The server-set cookies last reported (or stored when the attempt started).
    private var reported: [String]

    /// The most cookies kept for a task: a server cannot grow its row without bound.
    static let maxStored = 300

    init(options: RequestOptions, stored: [String]) throws(DownloadError) {
        do {
            fileCookies = try options.cookiesFile.map { path throws(IntakeError) in try CookieFile.read(path) } ?? []
        } catch {
            throw .unusableOption(error.description)
        }
        seed = fileCookies.map(\.line) + stored
        reported = stored
    }

    /// Hands the seed over once (to the first connection that attaches); later ones share the jar.
    func takeSeed() -> [String] {
        defer { seed = [] }
        return seed
    }

    /// The cookies servers set or changed, when they differ from those last reported; `jar` is what the
    /// jar holds now (libcurl's lines).
    func changes(jar: [String]) -> [String]? {
        let cookies = jar.compactMap { CookieFile.Cookie(line: Substring($0)) }
        let set = CookieFile.changes(in: cookies, since: fileCookies).suffix(Self.maxStored).map(\.line)
        guard set != reported else { return nil }
        reported = set
        return set
    }
}
