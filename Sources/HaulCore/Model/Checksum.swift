/// An expected digest of a finished file, as given with `--checksum sha-256=HEX`.
public struct Checksum: Sendable, Equatable, Codable, CustomStringConvertible {
    public enum Algorithm: String, Sendable, Codable { case sha256 = "sha-256" }

    public let algorithm: Algorithm
    /// Lower-case hexadecimal digest.
    public let hex: String

    public init(algorithm: Algorithm, hex: String) {
        self.algorithm = algorithm
        self.hex = hex.lowercased()
    }

    /// Parses `sha-256=HEX` (also `sha256=HEX`); nil when the text is not of that form.
    public init?(parsing text: String) {
        guard let eq = text.firstIndex(of: "=") else { return nil }
        let name = text[..<eq].lowercased()
        let hex = text[text.index(after: eq)...].lowercased()
        guard name == "sha-256" || name == "sha256",
              hex.count == 64, hex.allSatisfy({ $0.isASCII && $0.isHexDigit }) else { return nil }
        self.init(algorithm: .sha256, hex: String(hex))
    }

    public var description: String { "\(algorithm.rawValue)=\(hex)" }
}
