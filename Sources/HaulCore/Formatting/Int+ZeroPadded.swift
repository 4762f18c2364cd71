extension Int {
    /// The decimal digits padded with leading zeros to `width` (`7` → `07`); longer numbers are kept whole.
    func zeroPadded(to width: Int) -> String {
        let digits = String(self)
        return String(repeating: "0", count: Swift.max(0, width - digits.count)) + digits
    }
}
