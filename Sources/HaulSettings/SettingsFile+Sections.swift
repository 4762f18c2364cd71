import HaulCore
import TOMLKit

extension SettingsFile.Decoding {
    /// Keys a `[[rule]]` may set besides `host`: the run keys of the same names, checked the same way.
    static let ruleKeys: [OptionKey] = [.split, .limitRate, .allProxy, .header, .userAgent, .loadCookies, .dir]
    static let categoryKeys = ["extensions", "content-types", "dir"]

    /// Entry `index` of `[[rule]]`.
    func rule(_ table: TOMLTable, index: Int) throws(SettingsFileError) -> HostRule {
        let header = lines.headerLine(ofArray: "rule", entry: index) ?? 0
        var values: [OptionKey: SettingValue] = [:]
        var host: String?
        for name in table.keys {
            guard let value = table[name] else { continue }
            let line = lines.line(of: name, inArray: "rule", entry: index) ?? header
            if name == "host" {
                guard let text = value.string else {
                    throw .wrongType(path: path, line: line, key: name, section: "rule", expected: .string, found: Self.typeName(value))
                }
                guard !text.isEmpty, !text.contains(where: { $0 == "/" || $0 == ":" && !text.hasPrefix("[") || $0.isWhitespace }) else {
                    throw .badValue(path: path, line: line, key: name, section: "rule", message: "'\(text)' is not a host glob like *.example.org")
                }
                host = text
                continue
            }
            guard let key = OptionKey(name: name), Self.ruleKeys.contains(key) else {
                throw .unknownKey(
                    path: path, line: line, key: name, section: "rule",
                    suggestion: KeySuggestion.nearest(to: name, among: ["host"] + Self.ruleKeys.map(\.name)))
            }
            values[key] = try checked(value, key: OptionRegistry[key], line: line, section: "rule")
        }
        guard let host else {
            throw .incompleteSection(path: path, line: header, section: "rule", message: "needs host = \"…\" (a glob on the host, like *.example.org)")
        }
        var rule = HostRule(host: host, origin: "\(path):\(header)")
        rule.split = values[.split]?.intValue
        rule.rateLimit = values[.limitRate]?.stringValue.flatMap { try? RateLimit.parse($0) }?.bytesPerSecond
        rule.rateLimitText = values[.limitRate]?.stringValue
        rule.allProxy = values[.allProxy]?.stringValue
        rule.headers = values[.header]?.stringsValue ?? []
        rule.userAgent = values[.userAgent]?.stringValue
        rule.loadCookies = values[.loadCookies]?.stringValue
        rule.directory = values[.dir]?.stringValue
        return rule
    }

    /// Entry `index` of `[[category]]`.
    func category(_ table: TOMLTable, index: Int) throws(SettingsFileError) -> DownloadCategory {
        let header = lines.headerLine(ofArray: "category", entry: index) ?? 0
        var extensions: [String] = []
        var contentTypes: [String] = []
        var directory: String?
        for name in table.keys {
            guard let value = table[name] else { continue }
            let line = lines.line(of: name, inArray: "category", entry: index) ?? header
            switch name {
            case "dir":
                guard let text = value.string else {
                    throw .wrongType(path: path, line: line, key: name, section: "category", expected: .string, found: Self.typeName(value))
                }
                guard !text.isEmpty else { throw .badValue(path: path, line: line, key: name, section: "category", message: "cannot be empty") }
                directory = text
            case "extensions", "content-types":
                guard case let .strings(list)? = Self.settingValue(value) else {
                    throw .wrongType(path: path, line: line, key: name, section: "category", expected: .strings, found: Self.typeName(value))
                }
                if name == "extensions" {
                    if let bad = list.first(where: { $0.isEmpty || $0.contains("/") || $0.contains(where: \.isWhitespace) }) {
                        throw .badValue(path: path, line: line, key: name, section: "category", message: "'\(bad)' is not a file extension like mp4")
                    }
                    extensions = list
                } else {
                    if let bad = list.first(where: { $0.split(separator: "/").count != 2 || $0.contains(where: \.isWhitespace) }) {
                        throw .badValue(path: path, line: line, key: name, section: "category", message: "'\(bad)' is not a content type like video/mp4 or video/*")
                    }
                    contentTypes = list
                }
            default:
                throw .unknownKey(
                    path: path, line: line, key: name, section: "category",
                    suggestion: KeySuggestion.nearest(to: name, among: Self.categoryKeys))
            }
        }
        guard let directory else {
            throw .incompleteSection(path: path, line: header, section: "category", message: "needs dir = \"…\" (where its files go)")
        }
        guard !extensions.isEmpty || !contentTypes.isEmpty else {
            throw .incompleteSection(path: path, line: header, section: "category", message: "needs extensions = [\"…\"] or content-types = [\"…\"]")
        }
        return DownloadCategory(extensions: extensions, contentTypes: contentTypes, directory: directory, origin: "\(path):\(header)")
    }
}
