/// The mirror rule (DESIGN §8): every mirror passes the URL rule; http and https links mix freely (credentials
/// stay with their own origin, scheme included: `RedirectCredentials`, `HopLogin`).
extension TaskIntake {
    /// The normalised mirrors of a task whose main link is `main` (normalised already), in order, without
    /// repeats and without the main link itself.
    public static func mirrors(_ raw: [String], of main: String) throws(IntakeError) -> [String] {
        var seen: Set<String> = [main]
        var mirrors: [String] = []
        for text in raw {
            let mirror = try url(text)
            if seen.insert(mirror).inserted { mirrors.append(mirror) }
        }
        return mirrors
    }
}
