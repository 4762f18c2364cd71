import Foundation
import HaulCore

/// Prints `haul: TEXT` on stderr, with control characters escaped.
func note(_ text: String) {
    FileHandle.standardError.write(Data("haul: \(text.escapingControlCharacters)\n".utf8))
}
