import HaulCore
import TOMLKit

extension SettingsFile.Decoding {
    /// Keys a `[[rule]]` may set besides `host`: the run keys of the same names, checked the same way.
    static let ruleKeys = ["split", "limit-rate", "all-proxy", "header", "user-agent", "load-cookies", "dir"]
    static let categoryKeys = ["extensions", "content-types", "dir"]

    /// Entry `index` of `[[rule]]`.
    func rule(_ table: TOMLTable, index: Int) throws(SettingsFileError) -> HostRule {
        let header = lines.headerLine(ofArray: "rule", entry: index) ?? 0
        var values: [String: SettingValue] = [:]
        for name in table.keys {
            guard let value = table[name] else { continue }
            let line = lines.line(of: name, inArray: "rule", entry: index) ?? header
            if name == "host" {
                guard let host = value.string else {
                    throw .wrongType(path: path, line: line, key: name, section: "rule", expected: .string, found: Self.typeName(value))
                }
                guard !host.isEmpty, !host.contains(where: { $0 == "/" || $0 == ":" && !host.hasPrefix("[") || $0.isWhitespace }) else {
                    throw .badValue(path: path, line: line, key: name, section: "rule", message: "'\(host)' is not a host glob like *.example.org")
                }
                values[name] = .string(host)
                continue
            }
            guard Self.ruleKeys.contains(name), let key = SettingKeys.key(name) else {
                throw .unknownKey(
                    path: path, line: line, key: name, section: "rule",
                    suggestion: KeySuggestion.nearest(to: name, among: ["host"] + Self.ruleKeys))
            }
            values[name] = try checked(value, key: key, line: line, section: "rule")
        }
        guard case let .string(host)? = values["host"] else {
            throw .incompleteSection(path: path, line: header, section: "rule", message: "needs host = \"…\" (a glob on the host, like *.example.org)")
        }
        var rule = HostRule(host: host, origin: "\(path):\(header)")
        rule.split = values["split"]?.intValue
        rule.rateLimit = values["limit-rate"]?.stringValue.flatMap { try? RateLimit.parse($0) }?.bytesPerSecond
        rule.allProxy = values["all-proxy"]?.stringValue
        rule.headers = values["header"]?.stringsValue ?? []
        rule.userAgent = values["user-agent"]?.stringValue
        rule.loadCookies = values["load-cookies"]?.stringValue
        rule.directory = values["dir"]?.stringValue
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
