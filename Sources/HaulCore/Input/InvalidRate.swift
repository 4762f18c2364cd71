/// Text that is not a rate `RateLimit.parse` accepts; the one message for every place a rate is typed.
public struct InvalidRate: Error, Equatable, CustomStringConvertible {
    /// What was given.
    public let text: String
    /// Where it was given (`--limit-rate`, `max-download-limit`), if known.
    public let option: String?

    public init(text: String, option: String? = nil) {
        self.text = text
        self.option = option
    }

    public var description: String {
        (option.map { $0 + " " } ?? "") + "'\(text)' is not a rate like 500K, 2M or 1048576 (bytes per second; 0 for none)"
    }
}
