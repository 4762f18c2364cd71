import Foundation
import HaulCore

/// What haul writes for a person on stderr: `haul: TEXT`, with control characters escaped (line feeds kept).
/// When stderr is a file (a background haul's `haul.log`), each line begins with its time (`LogLineStamp`).
enum UserMessages {
    /// What starts each message; written here only.
    static let prefix = "haul: "

    /// Whether stderr is a regular file, read later rather than now: a log, whose lines need their times.
    /// A terminal or a pipe gets the lines as they happen and without.
    static let writesToLogFile: Bool = {
        var info = stat()
        return fstat(STDERR_FILENO, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }()

    /// `text` as a message line, without its line feed; later lines of `text` follow as they are.
    static func line(_ text: String) -> String {
        let line = prefix + text.escapingControlCharacters
        return writesToLogFile ? LogLineStamp.stamped(line, at: Date()) : line
    }
}

/// Prints `haul: TEXT` on stderr.
func note(_ text: String) {
    FileHandle.standardError.write(Data((UserMessages.line(text) + "\n").utf8))
}
