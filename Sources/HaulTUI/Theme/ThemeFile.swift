import HaulSettings
import TOMLKit

/// A theme file as decoded from TOML: every field optional; bad entries become warnings, not errors.
///
/// ```toml
/// name = "light"                 # optional, shown in messages
/// description = "…"              # optional
/// inherits = "default"           # optional: a theme NAME looked up like --theme NAME
/// [styles]
/// text = { fg = "default" }
/// "bar.done" = { fg = "green", bold = true }
/// state.failed = "red"           # shorthand for { fg = "red" }
/// [styles.dialog]                # nested tables name roles too: dialog, dialog.border …
/// border = { fg = 244 }
/// ```
/// Attributes: `fg`, `bg` (colours, see `ThemeColor`), `bold`, `dim`, `reverse`, `underline` (booleans).
public struct ThemeFile: Sendable, Equatable {
    public var name: String?
    public var description: String?
    public var inherits: String?
    public var patches: [ColorRole: StylePatch]

    public init(name: String? = nil, description: String? = nil, inherits: String? = nil, patches: [ColorRole: StylePatch] = [:]) {
        self.name = name
        self.description = description
        self.inherits = inherits
        self.patches = patches
    }

    static let topLevelKeys = ["name", "description", "inherits", "styles"]
    static let attributeKeys = ["fg", "bg", "bold", "dim", "reverse", "underline"]

    /// Decodes `text`; `source` names the file in messages. Throws only when the text is not TOML.
    public static func parse(_ text: String, source: String) throws(ThemeError) -> (ThemeFile, warnings: [String]) {
        // Invalid TOML on which toml++ would end the process is refused here as a syntax error.
        do {
            try TOMLPrecheck.check(text)
        } catch {
            throw .syntax(source: source, line: error.line, column: 0, message: error.message)
        }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw .syntax(source: source, line: error.source.begin.line, column: error.source.begin.column, message: error.description)
        } catch {
            throw .syntax(source: source, line: 0, column: 0, message: String(describing: error))
        }
        var decoder = Decoding(source: source)
        let file = decoder.decode(table)
        return (file, decoder.warnings)
    }

    /// One decoding pass; collects warnings as it walks the table.
    private struct Decoding {
        let source: String
        var warnings: [String] = []
        var patches: [ColorRole: StylePatch] = [:]

        init(source: String) { self.source = source }

        mutating func decode(_ table: TOMLTable) -> ThemeFile {
            var file = ThemeFile()
            for key in table.keys {
                guard let value = table[key] else { continue }
                switch key {
                case "name": file.name = string(value, at: key)
                case "description": file.description = string(value, at: key)
                case "inherits": file.inherits = string(value, at: key)
                case "styles":
                    if let styles = value.table {
                        walk(styles, path: [])
                    } else {
                        warn("styles", "must be a table of roles, like [styles]")
                    }
                default:
                    warn(key, "unknown key (expected one of \(ThemeFile.topLevelKeys.joined(separator: ", ")))")
                }
            }
            file.patches = patches
            return file
        }

        /// Walks a table of styles: attribute keys style the role at `path`, tables go one level down.
        mutating func walk(_ table: TOMLTable, path: [String]) {
            var patch = StylePatch()
            var hasAttributes = false
            for key in table.keys {
                guard let value = table[key] else { continue }
                let childPath = path + [key]
                if ThemeFile.attributeKeys.contains(key), !path.isEmpty {
                    hasAttributes = true
                    apply(key, value, to: &patch, at: childPath)
                } else if let child = value.table {
                    walk(child, path: childPath)
                } else if value.string != nil || value.int != nil {
                    // `role = "red"` is shorthand for `role = { fg = "red" }`.
                    guard let role = role(named: childPath) else { continue }
                    var shorthand = StylePatch()
                    apply("fg", value, to: &shorthand, at: childPath)
                    patches[role] = (patches[role] ?? StylePatch()).overlaid(by: shorthand)
                } else {
                    let where_ = "styles." + childPath.joined(separator: ".")
                    warn(where_, "expected a style table like { fg = \"red\", bold = true } or a colour")
                }
            }
            if hasAttributes, let role = role(named: path) {
                patches[role] = (patches[role] ?? StylePatch()).overlaid(by: patch)
            } else if path.isEmpty == false, table.isEmpty {
                _ = role(named: path)
            }
        }

        mutating func role(named path: [String]) -> ColorRole? {
            let name = path.joined(separator: ".")
            if let role = ColorRole(rawValue: name) { return role }
            warn("styles." + name, "unknown role '\(name)' (themes/README.md lists the roles)")
            return nil
        }

        mutating func apply(_ key: String, _ value: TOMLValueConvertible, to patch: inout StylePatch, at path: [String]) {
            let where_ = "styles." + path.joined(separator: ".")
            switch key {
            case "fg", "bg":
                guard let color = color(value, at: where_) else { return }
                if key == "fg" { patch.foreground = color } else { patch.background = color }
            default:
                guard let flag = value.bool else {
                    warn(where_, "must be true or false, not \(value.debugDescription)")
                    return
                }
                switch key {
                case "bold": patch.bold = flag
                case "dim": patch.dim = flag
                case "reverse": patch.reverse = flag
                default: patch.underline = flag
                }
            }
        }

        mutating func color(_ value: TOMLValueConvertible, at where_: String) -> ThemeColor? {
            if let text = value.string, let color = ThemeColor(text: text) { return color }
            if let index = value.int, let color = ThemeColor(index: index) { return color }
            let shown = value.string.map { "'\($0)'" } ?? value.debugDescription
            warn(where_, "\(shown) is not a colour (use a name like red or bright-blue, default, 0–255, or #rrggbb)")
            return nil
        }

        mutating func string(_ value: TOMLValueConvertible, at key: String) -> String? {
            if let text = value.string { return text }
            warn(key, "must be a string")
            return nil
        }

        mutating func warn(_ where_: String, _ message: String) {
            warnings.append("\(source): \(where_): \(message)")
        }
    }
}
