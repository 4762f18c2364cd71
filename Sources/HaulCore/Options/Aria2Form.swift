/// An option as aria2's RPC names and writes it (TECH_NOTES §I.1): every value is a string; flags are `"true"` or
/// `"false"`, sizes and rates a number of bytes (`"0"`: none), lists one line each.
public struct Aria2Form: Sendable, Equatable {
    /// aria2's name for it (`max-download-limit`).
    public let name: String

    public init(_ name: String) {
        self.name = name
    }

    /// The option goes by the same name in aria2 as in haul (`split`, `all-proxy`).
    public static let same = Aria2Form("")

    /// Why `text` is not a value of `kind`, for the error that names the option.
    public static func refusal(_ text: String, kind: SettingKind) -> String {
        kind == .size ? "'\(text)' is not a rate or size like 512K, 2M or 0" : "'\(text)' is not \(kind.rawValue)"
    }

    /// `value`, of an option of `kind`, as aria2 writes it.
    public static func text(_ value: SettingValue, kind: SettingKind) -> String {
        switch (kind, value) {
        case let (.size, value): value.stringValue.flatMap(ByteSize.parse).map { String($0) } ?? "0"
        case let (_, .bool(flag)): flag ? "true" : "false"
        case let (_, .int(number)): String(number)
        case let (_, .string(text)): text
        case let (_, .strings(lines)): lines.map { $0 + "\n" }.joined()
        }
    }

    /// What aria2's `text` for an option of `kind` means; nil when it is not a value of that kind. Sizes take what
    /// aria2 takes (`1M`, `512K`, bytes); lists one entry a line.
    public static func value(_ text: String, kind: SettingKind) -> SettingValue? {
        switch kind {
        case .bool:
            switch text {
            case "true": return .bool(true)
            case "false": return .bool(false)
            default: return nil
            }
        case .int:
            return Int(text).map(SettingValue.int)
        case .size:
            return ByteSize.parse(text) == nil ? nil : .string(text)
        case .string:
            return .string(text)
        case .strings:
            // Split at LF only: a CR left in a line is the header rule's to refuse (no header injection).
            return .strings(text.split(separator: "\n").map(String.init).filter { !$0.isEmpty })
        }
    }
}
