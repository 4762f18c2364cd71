import Foundation
import HaulCore

/// What haul writes for a person on stderr: `haul: TEXT`, with control characters escaped (line feeds kept).
/// When stderr is a file (a background haul's `haul.log`), each line begins with its time (`LogLineStamp`).
enum UserMessages {
    /// What starts each message; written here only.
    static let prefix = "haul: "

    /// Whether stderr is a regular file, read later rather than now: a log, whose lines need their times.
    /// A terminal or a pipe gets the lines as they happen and without. Read once, on the stderr the process was
    /// started with (`decideStamping()` at the start of `main`): the live list later points stderr at a file of
    /// its own to hold messages while it draws, and those are replayed on the terminal.
    static let writesToLogFile: Bool = {
        var info = stat()
        return fstat(STDERR_FILENO, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }()

    /// Reads `writesToLogFile` now, before anything can redirect stderr.
    static func decideStamping() {
        _ = writesToLogFile
    }

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
