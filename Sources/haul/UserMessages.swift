import Foundation
import HaulCore

/// Prints `haul: TEXT` on stderr, with control characters escaped.
func note(_ text: String) {
    FileHandle.standardError.write(Data("haul: \(text.escapingControlCharacters)\n".utf8))
}

extension String {
    /// Left-aligned in a column of `width` characters, with at least one space after it (`haul list`).
    func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
