extension String {
    /// Left-aligned in a column of `width` characters, with at least one space after it (`haul list`, `haul config`).
    public func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
