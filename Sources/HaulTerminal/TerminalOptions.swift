import HaulTUI

/// How the interactive screen should look and where it measures free disk space.
public struct TerminalOptions: Sendable {
    /// The resolved theme (from `ThemeLoader`).
    public var theme: Theme
    /// The download directory: the header shows the free space of its filesystem, and `a` adds URLs into it.
    public var downloadDirectory: String

    public init(theme: Theme, downloadDirectory: String) {
        self.theme = theme
        self.downloadDirectory = downloadDirectory
    }
}

/// Why the interactive screen did not start; the caller falls back to headless and prints this once.
public struct TerminalUnavailable: Error, Sendable, CustomStringConvertible {
    public var reason: String

    public init(reason: String) { self.reason = reason }

    public var description: String { "no interactive screen: \(reason); running headless" }
}

/// How an interactive run ended.
public enum SessionEnd: Sendable, Equatable {
    /// The user pressed `q`.
    case quit
    /// `stopRequested()` returned true (a signal).
    case stopRequested
}
