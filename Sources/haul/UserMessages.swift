import Foundation

/// Prints `haul: TEXT` on stderr, with control characters escaped.
func note(_ text: String) {
    FileHandle.standardError.write(Data("haul: \(text.escapingControlCharacters)\n".utf8))
}

extension String {
    /// The text with control characters shown as `\u{1B}`, so user input or server text quoted in a
    /// message cannot drive the terminal.
    var escapingControlCharacters: String {
        var out = ""
        for scalar in unicodeScalars {
            if scalar.value < 0x20 && scalar != "\n" || (0x7F...0x9F).contains(scalar.value) {
                out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

extension String {
    /// Left-aligned in a column of `width` characters, with at least one space after it (`haul list`).
    func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
