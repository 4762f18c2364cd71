/// The one rule for control characters in text that came from users, files or servers.
///
/// A control character is C0 (U+0000–U+001F), DEL (U+007F) or C1 (U+0080–U+009F, which includes the
/// 8-bit CSI). Such a character can move the terminal's cursor or start an escape sequence, split a
/// header into two, or hide part of a name, so every front end and every check uses this one test.
extension Unicode.Scalar {
    /// Whether this scalar is a C0 or C1 control character or DEL.
    public var isControlCharacter: Bool {
        value < 0x20 || (0x7F...0x9F).contains(value)
    }
}

extension StringProtocol {
    /// Whether any scalar is a control character (see `Unicode.Scalar.isControlCharacter`).
    public var containsControlCharacters: Bool {
        unicodeScalars.contains(where: \.isControlCharacter)
    }

    /// The text with every control character shown as `\u{1B}`, line feeds included, so quoted input
    /// stays on one line and cannot drive the terminal.
    public var escapingAllControlCharacters: String {
        escapingControlCharacters(keepingLineFeeds: false)
    }

    /// The text with control characters shown as `\u{1B}` but line feeds kept, for messages of several
    /// lines printed on a terminal.
    public var escapingControlCharacters: String {
        escapingControlCharacters(keepingLineFeeds: true)
    }

    /// The text without its control characters, for names and server text shown as they are.
    public var strippingControlCharacters: String {
        var scalars = String.UnicodeScalarView()
        for scalar in unicodeScalars where !scalar.isControlCharacter { scalars.append(scalar) }
        return String(scalars)
    }

    private func escapingControlCharacters(keepingLineFeeds: Bool) -> String {
        guard containsControlCharacters else { return String(self) }
        var out = ""
        for scalar in unicodeScalars {
            if scalar.isControlCharacter, !(keepingLineFeeds && scalar == "\n") {
                out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
