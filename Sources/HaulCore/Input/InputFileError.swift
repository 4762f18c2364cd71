/// A line of an input file (`-i FILE`) that cannot be used, with its 1-based number.
public struct InputFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based line number in the file.
    public var line: Int
    /// What is wrong and what to do, quoting the bad text.
    public var message: String

    public init(line: Int, message: String) {
        self.line = line
        self.message = message
    }

    public var description: String { "line \(line): \(message)" }
}
