import Foundation

/// A `.netrc` file read by curl's rules: `machine NAME` entries with `login` and `password`, a `default` entry
/// for any other host, `macdef` bodies skipped, quoted tokens with `\"`, `\\`, `\n`, `\r` and `\t` escapes.
///
/// haul looks the login up itself for each URL it asks, redirect hops included (`HopLogin`), and hands it to
/// libcurl as the request's own credentials: libcurl's own netrc reading is per host name and would send the
/// link's login to another port of its host after a redirect (TECH_NOTES H.2f).
public struct NetrcFile: Sendable, Equatable {
    public struct Login: Sendable, Equatable {
        public var user: String
        public var password: String

        public init(user: String, password: String) {
            self.user = user
            self.password = password
        }
    }

    /// Logins by lower-cased host name, the first entry of each host winning (curl's order).
    public private(set) var machines: [String: Login] = [:]
    public private(set) var fallback: Login?

    /// The login for `host`: its machine entry, else the default one.
    public func login(for host: String) -> Login? {
        machines[host.lowercased()] ?? fallback
    }

    /// The file at `path`, or why it cannot be read.
    public static func read(_ path: String) throws(IntakeError) -> NetrcFile {
        // Bounded before it is read: a huge (or sparse) file is refused at no cost.
        guard let data = try? BoundedFileRead.contents(of: path, limit: 1 << 20),
              let text = String(data: data, encoding: .utf8)
        else { throw .unreadableFile(kind: "netrc file", path) }
        return NetrcFile(parsing: text)
    }

    public init(parsing text: String) {
        var tokens = Tokens(text)
        var current: (host: String?, user: String?, password: String?)?
        func finish() {
            guard let entry = current, let user = entry.user else { return }
            let login = Login(user: user, password: entry.password ?? "")
            if let host = entry.host {
                if machines[host] == nil { machines[host] = login }
            } else if fallback == nil {
                fallback = login
            }
        }
        while let token = tokens.next() {
            switch token {
            case "machine":
                finish()
                current = (tokens.next()?.lowercased(), nil, nil)
            case "default":
                finish()
                current = (nil, nil, nil)
            case "login":
                current?.user = tokens.next()
            case "password":
                current?.password = tokens.next()
            case "account":
                _ = tokens.next()
            case "macdef":
                finish()
                current = nil
                tokens.skipMacro()
            default:
                break
            }
        }
        finish()
    }

    /// The words of a netrc file.
    private struct Tokens {
        var rest: Substring

        init(_ text: String) { rest = Substring(text) }

        mutating func next() -> String? {
            rest = rest.drop(while: \.isWhitespace)
            guard let first = rest.first else { return nil }
            guard first == "\"" else {
                let word = rest.prefix { !$0.isWhitespace }
                rest = rest.dropFirst(word.count)
                return String(word)
            }
            var word = ""
            var index = rest.index(after: rest.startIndex)
            while index < rest.endIndex, rest[index] != "\"" {
                var character = rest[index]
                if character == "\\", rest.index(after: index) < rest.endIndex {
                    index = rest.index(after: index)
                    switch rest[index] {
                    case "n": character = "\n"
                    case "r": character = "\r"
                    case "t": character = "\t"
                    default: character = rest[index]
                    }
                }
                word.append(character)
                index = rest.index(after: index)
            }
            rest = index < rest.endIndex ? rest[rest.index(after: index)...] : rest[rest.endIndex...]
            return word
        }

        /// A macro definition runs to the first empty line.
        mutating func skipMacro() {
            if let end = rest.range(of: "\n\n") {
                rest = rest[end.upperBound...]
            } else {
                rest = rest[rest.endIndex...]
            }
        }
    }
}
