/// The mirror rule (DESIGN §8): every mirror passes the URL rule; http and https links mix freely (credentials
/// stay with their own origin, scheme included: `RedirectCredentials`, `HopLogin`).
extension TaskIntake {
    /// The most mirrors one task takes. Each is asked for a sample before its ranges count, and every link is kept,
    /// shown and answered in `tellStatus`: 10,000 of them (one RPC call) held the file's own ranges up for minutes.
    public static let maxMirrors = 64

    /// The normalised mirrors of a task whose main link is `main` (normalised already), in order, without
    /// repeats and without the main link itself; at most `maxMirrors` of them.
    public static func mirrors(_ raw: [String], of main: String) throws(IntakeError) -> [String] {
        var seen: Set<String> = [main]
        var mirrors: [String] = []
        for text in raw {
            let mirror = try url(text)
            if seen.insert(mirror).inserted { mirrors.append(mirror) }
        }
        guard mirrors.count <= maxMirrors else { throw .tooManyMirrors(count: mirrors.count, limit: maxMirrors) }
        return mirrors
    }
}
