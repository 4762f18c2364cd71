import Foundation
import HaulCore

/// What haul writes for a person on stderr: `haul: TEXT`, with control characters escaped (line feeds kept).
enum UserMessages {
    /// What starts each message; written here only.
    static let prefix = "haul: "

    /// `text` as a message line, without its line feed; later lines of `text` follow as they are.
    static func line(_ text: String) -> String {
        prefix + text.escapingControlCharacters
    }
}

/// Prints `haul: TEXT` on stderr.
func note(_ text: String) {
    FileHandle.standardError.write(Data((UserMessages.line(text) + "\n").utf8))
}
