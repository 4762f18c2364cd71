import Foundation
import HaulCore

/// Finds, reads and resolves a theme: `--theme NAME|PATH`, `inherits`, NO_COLOR.
///
/// The rule for the argument:
/// - It is a **PATH** when it contains `/` or ends in `.toml`. The file must exist; it is read as is.
/// - Otherwise it is a **NAME**: letters, digits, `.`, `_`, `-`, not starting with `.`, no `..`
///   (anything else is refused, since names also come from `inherits` and from saved settings and
///   must never reach outside the theme directories). A NAME is looked up as `NAME.toml` in the user
///   directory (`$XDG_CONFIG_HOME/haul/themes`), then the bundled `themes/` directory, then among
///   the built-in themes.
///
/// `inherits = "NAME"` always takes a NAME and searches the same places, skipping files already in
/// the chain: so `~/.config/haul/themes/default.toml` with `inherits = "default"` extends the bundled
/// default. A chain that comes back to a file already in it is cut there with a warning.
/// With `noColor` the theme is `monochrome` (same search), stripped of any colours.
public enum ThemeLoader {
    /// Loads the theme to use. Throws when the theme named by the user cannot be used at all; problems
    /// inside theme files (unknown roles, bad colours, a broken `inherits`) come back as warnings.
    public static func load(
        nameOrPath: String?, noColor: Bool, userDirectory: String?, bundledDirectory: String?
    ) throws(ThemeError) -> (Theme, warnings: [String]) {
        let search = SearchPath(userDirectory: userDirectory, bundledDirectory: bundledDirectory)
        let reference = noColor ? ThemeReference.name("monochrome") : try ThemeReference(nameOrPath ?? "default")
        let first: Location
        switch reference {
        case let .path(path):
            guard FileManager.default.fileExists(atPath: path) else {
                throw .unreadable(path: path, reason: "no such file")
            }
            first = .file(Location.standardized(path))
        case let .name(name):
            guard let found = search.locate(name, skipping: []) else {
                throw .notFound(name: name, tried: search.candidates(for: name))
            }
            first = found
        }

        var warnings: [String] = []
        var chain: [ThemeFile] = []
        var visited: [Location] = []
        var next: Location? = first
        while let location = next {
            visited.append(location)
            let file: ThemeFile
            do {
                let (decoded, fileWarnings) = try ThemeFile.parse(try location.read(), source: location.label)
                file = decoded
                warnings += fileWarnings
            } catch {
                // The first file's problems stop the run; an inherited file's only drop that parent.
                if chain.isEmpty { throw error }
                warnings.append("\(visited[visited.count - 2].label): inherits: \(error.description); ignoring it")
                break
            }
            chain.append(file)
            next = nil
            guard let parent = file.inherits else { continue }
            guard (try? ThemeReference(parent)) == .name(parent) else {
                warnings.append("\(location.label): inherits: '\(parent)' is refused (a NAME, without '/' or '..'); ignoring it")
                continue
            }
            if let found = search.locate(parent, skipping: visited) {
                next = found
            } else if search.locate(parent, skipping: []) != nil {
                let names = (visited.map(\.label) + [parent]).joined(separator: " → ")
                warnings.append("\(location.label): inherits: cycle \(names); ignoring it")
            } else {
                warnings.append("\(location.label): inherits: no theme named '\(parent)'; ignoring it")
            }
        }

        var patches: [ColorRole: StylePatch] = [:]
        for file in chain.reversed() {
            for (role, patch) in file.patches { patches[role] = (patches[role] ?? StylePatch()).overlaid(by: patch) }
        }
        let name = chain.first?.name ?? first.label
        let theme = Theme(name: name, patches: patches)
        return (noColor ? theme.withoutColors() : theme, warnings)
    }

    /// `$XDG_CONFIG_HOME/haul/themes`, else `$HOME/.config/haul/themes`; nil when neither is set.
    public static func userDirectory(environment: [String: String]) -> String? {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config + "/haul/themes" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.config/haul/themes" }
        return nil
    }

    /// The bundled `themes/` folder for an installed or freshly built binary: `<prefix>/share/haul/themes`
    /// next to `<prefix>/bin/haul`, or the repository's `themes/` above `.build/…/haul`. Nil when none exists.
    public static func bundledDirectory(executablePath: String) -> String? {
        var directory = URL(fileURLWithPath: executablePath).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<5 {
            for candidate in ["share/haul/themes", "themes"] {
                let path = directory.appendingPathComponent(candidate).path
                if FileManager.default.fileExists(atPath: path + "/default.toml") { return path }
            }
            directory.deleteLastPathComponent()
        }
        return nil
    }
}

/// What `--theme` named: a file path or a theme name (see `ThemeLoader` for the rule).
enum ThemeReference: Equatable {
    case name(String)
    case path(String)

    init(_ text: String) throws(ThemeError) {
        if text.contains("/") || text.hasSuffix(".toml") {
            self = .path(text)
            return
        }
        let allowed = text.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "._-".unicodeScalars.contains(scalar))
        }
        guard !text.isEmpty, allowed, !text.hasPrefix("."), !text.contains("..") else { throw .refusedName(text) }
        self = .name(text)
    }
}

/// One place a theme's text can come from.
enum Location: Equatable {
    case file(String)
    case builtin(String)

    static func standardized(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.path }

    var label: String {
        switch self {
        case let .file(path): return path
        case let .builtin(name): return "built-in \(name)"
        }
    }

    func read() throws(ThemeError) -> String {
        switch self {
        case let .builtin(name):
            return BuiltinTheme.source(named: name) ?? ""
        case let .file(path):
            do {
                return try String(contentsOfFile: path, encoding: .utf8)
            } catch {
                throw .unreadable(path: path, reason: (error as NSError).localizedDescription)
            }
        }
    }
}

/// The directories searched for a NAME, in order, then the built-in themes.
struct SearchPath {
    let directories: [String]

    init(userDirectory: String?, bundledDirectory: String?) {
        directories = [userDirectory, bundledDirectory].compactMap { $0 }.filter { !$0.isEmpty }
    }

    /// The files that may hold the theme `name`, in search order.
    func candidates(for name: String) -> [String] {
        directories.map { directory in
            Location.standardized(PathJoin.join(directory, name + ".toml"))
        }
    }

    /// The first place holding `name` that is not in `skipping`.
    func locate(_ name: String, skipping: [Location]) -> Location? {
        for path in candidates(for: name) {
            let location = Location.file(path)
            if FileManager.default.fileExists(atPath: path), !skipping.contains(location) { return location }
        }
        if BuiltinTheme.source(named: name) != nil, !skipping.contains(.builtin(name)) { return .builtin(name) }
        return nil
    }
}
