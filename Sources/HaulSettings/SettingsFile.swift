import Foundation
import HaulCore
import TOMLKit

/// The settings file (DESIGN §10), read and checked: a value for any option of `OptionRegistry`, `[[rule]]`s per
/// host and `[[category]]`s per file type. Every error names the file, the line and the key.
///
/// ```toml
/// dir = "~/Downloads"
/// max-concurrent = 4
/// limit-rate = "2M"
///
/// [[rule]]
/// host = "*.example.org"
/// split = 8
/// all-proxy = "socks5h://127.0.0.1:1080"
///
/// [[category]]
/// extensions = ["mp4", "mkv", "ts"]
/// content-types = ["video/*"]
/// dir = "~/Videos"
/// ```
public struct SettingsFile: Sendable {
    /// The file as named in messages and origins.
    public let path: String
    public var values: [OptionKey: SettingsResolution.FileValue] = [:]
    public var rules: [HostRule] = []
    public var categories: [DownloadCategory] = []

    public init(path: String) {
        self.path = path
    }

    /// The largest settings file haul reads: a file of a thousand rules is well under 1 MiB, and a bigger one takes
    /// seconds and gigabytes to parse.
    public static let maxBytes = 4 << 20

    /// Reads the file at `path`; a file that is missing is nil when `optional` (the default location).
    public static func read(path: String, optional: Bool, keys: [OptionDefinition] = OptionRegistry.all) throws(SettingsFileError) -> SettingsFile? {
        let data: Data
        do {
            data = try BoundedFileRead.contents(of: path, limit: maxBytes)
        } catch {
            switch error {
            case .missing:
                if optional { return nil }
                throw .unreadable(path: path, reason: "no such file")
            case .directory: throw .unreadable(path: path, reason: "it is a directory")
            case let .unreadable(reason): throw .unreadable(path: path, reason: reason)
            case let .tooLarge(bytes): throw .tooLarge(path: path, bytes: bytes, limit: maxBytes)
            }
        }
        guard let text = String(data: data, encoding: .utf8) else { throw .unreadable(path: path, reason: "it is not UTF-8 text") }
        return try parse(text, path: path, keys: keys)
    }

    /// Decodes and checks `text`; `path` names it in messages. Every problem of its keys is thrown together
    /// (`SettingsFileError.several`); TOML that does not parse stops at its first error.
    public static func parse(_ text: String, path: String, keys: [OptionDefinition] = OptionRegistry.all) throws(SettingsFileError) -> SettingsFile {
        // Invalid TOML on which toml++ would end the process is refused here as a syntax error.
        do {
            try TOMLPrecheck.check(text)
        } catch {
            throw .syntax(path: path, line: error.line, message: error.message)
        }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw .syntax(path: path, line: error.source.begin.line, message: error.description)
        } catch {
            throw .syntax(path: path, line: 0, message: String(describing: error))
        }
        let decoding = Decoding(path: path, keys: keys, lines: TOMLKeyLines(text))
        return try decoding.decode(table)
    }
}

extension SettingsFile {
    /// One pass over the table; lines come from `TOMLKeyLines`.
    struct Decoding {
        let path: String
        let keys: [OptionDefinition]
        let lines: TOMLKeyLines

        static let sections = ["rule", "category"]

        /// Every key and every section entry is checked: all their problems are thrown together, in the file's order.
        func decode(_ table: TOMLTable) throws(SettingsFileError) -> SettingsFile {
            var file = SettingsFile(path: path)
            var problems: [SettingsFileError] = []
            let names = table.keys.sorted { (lines.topLevel[$0] ?? lines.headerLine(of: $0) ?? 0) < (lines.topLevel[$1] ?? lines.headerLine(of: $1) ?? 0) }
            for name in names {
                guard let value = table[name] else { continue }
                let line = lines.topLevel[name] ?? lines.headerLine(of: name) ?? 0
                do throws(SettingsFileError) {
                    switch name {
                    case "rule":
                        for (index, entry) in try entries(value, section: name, line: line).enumerated() {
                            do throws(SettingsFileError) { file.rules.append(try rule(entry, index: index)) } catch { problems.append(error) }
                        }
                    case "category":
                        for (index, entry) in try entries(value, section: name, line: line).enumerated() {
                            do throws(SettingsFileError) { file.categories.append(try category(entry, index: index)) } catch { problems.append(error) }
                        }
                    default:
                        if let reason = SettingsFile.refused[name] { throw .refusedKey(path: path, line: line, key: name, message: reason) }
                        guard let key = keys.first(where: { $0.name == name }) else {
                            throw .unknownKey(
                                path: path, line: line, key: name, section: nil,
                                suggestion: KeySuggestion.nearest(to: name, among: keys.map(\.name) + Self.sections))
                        }
                        file.values[key.key] = SettingsResolution.FileValue(try checked(value, key: key, line: line, section: nil), line: line)
                    }
                } catch {
                    problems.append(error)
                }
            }
            if let problem = SettingsFileError.all(problems) { throw problem }
            return file
        }

        /// The tables of `[[section]]`.
        func entries(_ value: TOMLValueConvertible, section: String, line: Int) throws(SettingsFileError) -> [TOMLTable] {
            guard let array = value.array else {
                throw .notArrayOfTables(
                    path: path, line: line, section: section, written: value.table != nil ? "[\(section)]" : "\(section) = …")
            }
            var tables: [TOMLTable] = []
            for element in array {
                guard let table = element.table else {
                    throw .notArrayOfTables(path: path, line: line, section: section, written: "\(section) = [ … ]")
                }
                tables.append(table)
            }
            return tables
        }

        /// `value` as a setting of `key`'s kind that passes its check.
        func checked(_ value: TOMLValueConvertible, key: OptionDefinition, line: Int, section: String?) throws(SettingsFileError) -> SettingValue {
            var setting = Self.settingValue(value)
            // A single text where a list is expected is a list of one.
            if key.kind == .strings, case let .string(text)? = setting { setting = .strings([text]) }
            guard let setting, key.kind.accepts(setting) else {
                throw .wrongType(path: path, line: line, key: key.name, section: section, expected: key.kind, found: Self.typeName(value))
            }
            if let message = key.check(setting) {
                throw .badValue(path: path, line: line, key: key.name, section: section, message: message)
            }
            return key.values == .file || key.values == .directory ? Self.expandingHome(setting) : setting
        }

        /// A path's leading `~` or `~user` made the home it names, as a shell would have on the command line.
        static func expandingHome(_ setting: SettingValue) -> SettingValue {
            switch setting {
            case let .string(path): return .string(HomePath.expanding(path))
            case let .strings(paths): return .strings(paths.map(HomePath.expanding))
            default: return setting
            }
        }

        static func settingValue(_ value: TOMLValueConvertible) -> SettingValue? {
            switch value.type {
            case .bool: return value.bool.map(SettingValue.bool)
            case .int: return value.int.map(SettingValue.int)
            case .string: return value.string.map(SettingValue.string)
            case .array:
                guard let array = value.array else { return nil }
                var texts: [String] = []
                for element in array {
                    guard let text = element.string else { return nil }
                    texts.append(text)
                }
                return .strings(texts)
            default: return nil
            }
        }

        /// "a text", "a table" … for the wrong-type message.
        static func typeName(_ value: TOMLValueConvertible) -> String {
            switch value.type {
            case .bool: "true or false"
            case .int: "a whole number"
            case .double: "a decimal number"
            case .string: "a text"
            case .array: value.array.map { $0.allSatisfy { $0.type == .string } } == true ? "a list of texts" : "a list"
            case .table: "a table"
            default: "a date or time"
            }
        }
    }
}
