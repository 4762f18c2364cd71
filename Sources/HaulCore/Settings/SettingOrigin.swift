/// Where a setting's value came from.
public enum SettingOrigin: Sendable, Equatable, CustomStringConvertible {
    /// The built-in default.
    case builtIn
    /// The settings file, at this line.
    case file(path: String, line: Int)
    case commandLine
    /// An RPC client's `changeGlobalOption` (until haul starts again).
    case remote

    /// `default`, `FILE:LINE` or `command line`.
    public var description: String {
        switch self {
        case .builtIn: "default"
        case let .file(path, line): "\(path):\(line)"
        case .commandLine: "command line"
        case .remote: "changeGlobalOption"
        }
    }
}
