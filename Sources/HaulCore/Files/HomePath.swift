import Foundation

/// A path's leading `~` made the home it names, as a shell makes it: `~` and `~/x` from `$HOME` (the user's
/// entry when it is unset), `~user/x` from that user's entry. Any other path is returned as it is.
public enum HomePath {
    public static func expanding(_ path: String) -> String {
        guard path.hasPrefix("~") else { return path }
        if path == "~" || path.hasPrefix("~/"), let home = ProcessInfo.processInfo.environment["HOME"], !home.isEmpty {
            return home + path.dropFirst()
        }
        return (path as NSString).expandingTildeInPath
    }
}
