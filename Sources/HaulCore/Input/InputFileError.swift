/// A line of an input file (`-i FILE`) that cannot be used, with its 1-based number.
///
/// The whole file is refused, like aria2 refuses an input file with a bad option: queueing part of
/// a list and dropping the rest would be noticed only when a download is missing.
public struct InputFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with the line.
    public enum Reason: Sendable, Equatable {
        /// A value the intake refused; the same verdict the command line and the prompt give.
        case intake(IntakeError)
        /// The line's bytes are not valid UTF-8.
        case invalidUTF8
        /// The line does not follow the file's format; the text says how to fix it.
        case syntax(String)
        /// The line is longer than `limit` bytes.
        case lineTooLong(limit: Int)
    }

    /// 1-based line number in the file.
    public var line: Int
    public var reason: Reason

    public init(line: Int, reason: Reason) {
        self.line = line
        self.reason = reason
    }

    /// What is wrong and what to do, quoting the bad text.
    public var message: String {
        switch reason {
        case let .intake(error): return error.description
        case .invalidUTF8: return "the line is not valid UTF-8 text; save the file as UTF-8"
        case let .syntax(text): return text
        case let .lineTooLong(limit): return "the line is longer than \(ByteCountFormat.size(Int64(limit))); no link or option is that long"
        }
    }

    public var description: String { "line \(line): \(message)" }
}
