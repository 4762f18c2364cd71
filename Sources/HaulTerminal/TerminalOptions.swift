import HaulCore
import HaulTUI

/// How the interactive screen should look and where it measures free disk space.
public struct TerminalOptions: Sendable {
    /// The resolved theme (from `ThemeLoader`).
    public var theme: Theme
    /// The download directory: the header shows the free space of its filesystem, and `a` adds URLs into it.
    public var downloadDirectory: String
    /// The pid of the background haul the list is attached to; nil when this process owns the downloads.
    public var attachedTo: Int32?
    /// The proxies of URLs added with `a` (those of the command that opened the list).
    public var proxyDefaults = ProxySettings()
    /// The settings file's rules and categories for URLs added with `a`.
    public var intakeRules = IntakeRules()
    /// Clicks and the wheel act on the list (`--no-mouse` leaves the mouse to the terminal).
    public var mouse = true

    public init(theme: Theme, downloadDirectory: String, attachedTo: Int32? = nil) {
        self.theme = theme
        self.downloadDirectory = downloadDirectory
        self.attachedTo = attachedTo
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
    /// The user pressed `d`: a background haul takes the downloads over.
    case detach
}
