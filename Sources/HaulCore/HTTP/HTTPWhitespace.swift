extension Character {
    /// Space or horizontal tab, the only whitespace HTTP allows inside header values.
    var isHTTPWhitespace: Bool { self == " " || self == "\t" }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    func trimmingHTTPWhitespace() -> Substring {
        var result = drop(while: \.isHTTPWhitespace)
        while let end = result.last, end.isHTTPWhitespace { result.removeLast() }
        return result
    }
}
