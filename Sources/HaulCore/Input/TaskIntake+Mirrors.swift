/// The mirror rule (DESIGN §8): every mirror passes the URL rule and has the main link's scheme.
extension TaskIntake {
    /// The normalised mirrors of a task whose main link is `main` (normalised already), in order, without
    /// repeats and without the main link itself.
    public static func mirrors(_ raw: [String], of main: String) throws(IntakeError) -> [String] {
        let mainScheme = scheme(of: main)
        var seen: Set<String> = [main]
        var mirrors: [String] = []
        for text in raw {
            let mirror = try url(text)
            let mirrorScheme = scheme(of: mirror)
            guard mirrorScheme == mainScheme else {
                throw .mirrorSchemeDiffers(mirror: URLValidation.redacted(mirror), scheme: mirrorScheme, main: mainScheme)
            }
            if seen.insert(mirror).inserted { mirrors.append(mirror) }
        }
        return mirrors
    }

    /// The lower-case scheme of a validated URL.
    private static func scheme(of url: String) -> String {
        URLValidation.scheme(of: url).map { $0.lowercased() } ?? ""
    }
}
