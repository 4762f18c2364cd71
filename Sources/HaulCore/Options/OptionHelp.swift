/// What `--help`, the man page and completions say of an option.
public struct OptionHelp: Sendable, Equatable {
    /// One line.
    public let abstract: String
    /// More, when one line is not enough.
    public let discussion: String
    /// The value's name in usage lines (`url`, `file`), when the option's own name would not do.
    public let valueName: String?

    public init(_ abstract: String, discussion: String = "", valueName: String? = nil) {
        self.abstract = abstract
        self.discussion = discussion
        self.valueName = valueName
    }
}
