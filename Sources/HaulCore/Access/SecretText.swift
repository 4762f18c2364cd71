import Foundation

/// Secrets as shown: the value of a credential header (`Authorization`, `Cookie`, `Proxy-Authorization`) is
/// masked wherever a task's headers are shown (DESIGN §8); link and proxy credentials go with `URLValidation.redacted`.
public enum SecretText {
    public static let mask = "********"

    /// `line` (`Name: value`) with its value masked when the header carries credentials.
    public static func header(_ line: String) -> String {
        guard RedirectCredentials.carriesCredentials(line) else { return line }
        return line.prefix { $0 != ":" } + ": " + mask
    }
}
