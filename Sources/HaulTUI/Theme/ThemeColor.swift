/// A colour as a theme names it: the terminal default, one of 256 indexed colours, or 24-bit RGB.
///
/// Text forms (see themes/README.md): `default`; `black red green yellow blue magenta cyan white`
/// and their `bright-` forms (indexes 0–15); an integer 0–255 for the 256-colour palette; `#rrggbb`.
/// The painter degrades RGB and indexes above 15 to what the terminal has.
public enum ThemeColor: Sendable, Hashable, CustomStringConvertible {
    case terminalDefault
    case indexed(UInt8)
    case rgb(UInt8, UInt8, UInt8)

    static let names = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"]

    /// Parses the text form; nil when it is not a colour.
    public init?(text: String) {
        let lower = text.lowercased()
        if lower == "default" {
            self = .terminalDefault
        } else if let index = Self.names.firstIndex(of: lower) {
            self = .indexed(UInt8(index))
        } else if lower.hasPrefix("bright-"), let index = Self.names.firstIndex(of: String(lower.dropFirst(7))) {
            self = .indexed(UInt8(index + 8))
        } else if lower == "gray" || lower == "grey" {
            self = .indexed(8)
        } else if lower.hasPrefix("#"), lower.count == 7, let value = UInt32(lower.dropFirst(), radix: 16) {
            self = .rgb(UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
        } else if let index = UInt8(lower) {
            self = .indexed(index)
        } else {
            return nil
        }
    }

    /// An index into the 256-colour palette; nil when out of range.
    public init?(index: Int) {
        guard let byte = UInt8(exactly: index) else { return nil }
        self = .indexed(byte)
    }

    public var description: String {
        switch self {
        case .terminalDefault: return "default"
        case let .indexed(index) where index < 16:
            return index < 8 ? Self.names[Int(index)] : "bright-" + Self.names[Int(index) - 8]
        case let .indexed(index): return String(index)
        case let .rgb(red, green, blue):
            return "#" + [red, green, blue].map { byte in
                let hex = String(byte, radix: 16)
                return hex.count == 1 ? "0" + hex : hex
            }.joined()
        }
    }
}
