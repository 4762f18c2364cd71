/// Why raw input cannot become a task; the description quotes the bad value and says what to do.
///
/// Every way in (arguments, input files, the live list's prompt, RPC) reports the same case for the same
/// bad value. Quoted values have their control characters escaped and URLs have credentials removed.
public indirect enum IntakeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not an http(s) URL with a host, or a port outside 1–65535 (credentials already removed).
    case invalidURL(String)
    /// A scheme other than http or https (`ftp`, `file`, …), in lower case.
    case unsupportedScheme(String)
    /// An output name that is not a plain file name.
    case invalidOutputName(String)
    /// An output name given for more or fewer than one URL.
    case outputNeedsOneURL
    /// An empty directory (`dir=` with nothing after it).
    case emptyDirectory
    /// A directory path that names something other than a directory.
    case notADirectory(String)
    /// A directory outside the ones this intake may write to.
    case directoryNotAllowed(String)
    /// A header that is not `Name: value`.
    case malformedHeader(String)
    /// A header holding a line break or another control character.
    case headerControlCharacter(String)
    /// A header holding a NUL, which C code (curl's header list, SQLite text) would end it at.
    case headerNUL(String)
    /// A header whose name contains a space or a tab.
    case headerNameWithSpace(String)
    /// A header haul sets itself (lower-cased name).
    case reservedHeader(String)
    /// One header over `HeaderRule.maxHeaderBytes` (its name, its size).
    case headerTooLarge(name: String, bytes: Int, limit: Int)
    /// A task's headers together over `HeaderRule.maxTotalBytes`.
    case headersTooLarge(bytes: Int, limit: Int)
    /// A checksum that is not `sha-256=` and 64 hex digits.
    case invalidChecksum(String)
    /// A proxy that is not `[scheme://][user:password@]host[:port]` (credentials already removed).
    case invalidProxy(String)
    /// A proxy scheme libcurl does not speak (the scheme, the proxy with credentials removed).
    case unsupportedProxyScheme(String, String)
    /// A bad proxy in an environment variable (its name, the reason).
    case proxyInEnvironment(variable: String, IntakeError)
    /// A no-proxy list with an entry that is not a host, a domain, an address or `*`.
    case invalidNoProxy(String)
    /// A file that is missing, a directory or unreadable (what it is for, its path).
    case unreadableFile(kind: String, String)
    /// A cookies file that is not in the Netscape format (its path, the first bad line's number when no line
    /// is a cookie; nil when the whole file is unusable: too large or not UTF-8). Also the text of the warning
    /// about a bad line skipped in a file with cookies (`CookieFile.Contents`).
    case malformedCookiesFile(String, line: Int?)
    /// A local file named over RPC outside `--rpc-allowed-dir` (what it is for, its path).
    case fileNotAllowed(kind: String, String)
    /// Mirrors given for more or fewer than one URL.
    case mirrorNeedsOneURL
    /// More mirrors for one task than `TaskIntake.maxMirrors` (how many, the limit).
    case tooManyMirrors(count: Int, limit: Int)

    /// A stream option's value is not one haul knows (`option`, the value).
    case invalidStreamOption(String, String)

    public var description: String {
        switch self {
        case let .invalidStreamOption(option, value):
            return "\(option) " + Self.streamValueProblem(option, value)
        case let .invalidURL(text):
            return "'\(quoted(URLValidation.redacted(text)))' is not a valid http(s) URL — check it and add it again"
        case let .unsupportedScheme(scheme):
            return "'\(quoted(scheme))' URLs are not downloaded; only http and https are allowed"
        case let .invalidOutputName(name):
            return "output name '\(quoted(name))' is not a plain file name (no '/', no leading dot, dash or space, no trailing "
                + "dot or space, no control characters, at most \(SafeFileName.maxBytes) bytes)"
        case .outputNeedsOneURL:
            return "an output name names one file: give exactly one URL with it"
        case .emptyDirectory:
            return "the download directory is empty; name a directory"
        case let .notADirectory(path):
            return "'\(quoted(path))' is not a directory; name a directory to download into"
        case let .directoryNotAllowed(path):
            return "'\(quoted(path))' is outside the directories downloads may go to"
        case let .malformedHeader(header):
            return "header '\(quoted(header))' is not of the form 'Name: value'"
        case let .headerControlCharacter(header):
            return "header '\(quoted(header))' contains a line break or control character"
        case let .headerNUL(header):
            let kept = header.prefix { $0 != "\0" }
            return "header '\(quoted(header))' contains a NUL character, which would cut it short to '\(quoted(String(kept)))'; remove it"
        case let .headerNameWithSpace(header):
            return "header '\(quoted(header))' has a space in its name; write it as 'Name: value'"
        case let .reservedHeader(name):
            return "header '\(quoted(name))' is set by haul itself (it resumes with Range and If-Range)"
        case let .headerTooLarge(name, bytes, limit):
            return "header '\(quoted(name))' has \(bytes) bytes; a header may have at most \(limit)"
        case let .headersTooLarge(bytes, limit):
            return "the headers have \(bytes) bytes together; a task may have at most \(limit)"
        case let .invalidChecksum(text):
            return "checksum '\(quoted(text))' is not of the form sha-256=<64 hex digits>"
        case let .invalidProxy(text):
            return "proxy '\(quoted(text))' is not a proxy URL; write [scheme://][user:password@]host[:port]"
        case let .unsupportedProxyScheme(scheme, text):
            let known = ProxyURL.schemes.sorted().joined(separator: ", ")
            return "proxy '\(quoted(text))' uses '\(quoted(scheme))', which is not a proxy scheme; use one of \(known)"
        case let .proxyInEnvironment(variable, error):
            return "\(variable) in the environment: \(error)"
        case let .invalidNoProxy(text):
            return "no-proxy list '\(quoted(text))' is not a comma-separated list of hosts, domains or addresses"
        case let .unreadableFile(kind, path):
            return "cannot read \(kind) '\(quoted(path))' (missing, a directory, or not readable)"
        case let .malformedCookiesFile(path, line):
            let place = line.map { "line \($0) of " } ?? ""
            return "\(place)cookies file '\(quoted(path))' is not in the Netscape cookies.txt format "
                + "(7 TAB-separated fields: domain, subdomains, path, secure, expiry, name, value)"
        case let .fileNotAllowed(kind, path):
            return "\(kind) '\(quoted(path))' is outside the directories RPC may name (--rpc-allowed-dir)"
        case .mirrorNeedsOneURL:
            return "mirrors are links of one file: give exactly one URL with --mirror"
        case let .tooManyMirrors(count, limit):
            return "\(count) mirrors for one file; a task takes at most \(limit)"
        }
    }

    /// What is wrong with `value` of stream option `option` (`'abc' is not valid: use …`), for the messages that
    /// name the option before it (the command line's, the settings file's).
    public static func streamValueProblem(_ option: String, _ value: String) -> String {
        let expected = switch option {
        case "stream": "auto or off"
        case "stream-quality": "best, worst, a height like 720, or a bandwidth in bit/s"
        case "live-limit": "a length of media above zero such as 90s, 12m, 2h, 1h30m or 1:30:00"
        case "stream-audio": "languages or rendition names separated by commas, such as deu,eng"
        case "stream-subs": "all, none, or languages separated by commas, such as eng,deu"
        default: "mp4"
        }
        return "'\(value.escapingAllControlCharacters)' is not valid: use \(expected)"
    }

    private func quoted(_ text: String) -> String { text.escapingAllControlCharacters }
}
