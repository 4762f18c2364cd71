extension Double {
    /// The value rounded by `rule` as an `Int64`; nil when it is NaN, infinite or outside `Int64`'s range.
    ///
    /// `Int64(someDouble)` traps on those, and a double made from a server's or a playlist's numbers (a rate,
    /// an estimate, a duration) can be any of them: every such conversion goes through here.
    public func roundedInt64(_ rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> Int64? {
        let whole = rounded(rule)
        // 2^63 is exact as a double and Int64.max is not: compare with the bounds that are.
        guard whole.isFinite, whole >= -0x1p63, whole < 0x1p63 else { return nil }
        return Int64(whole)
    }

    /// The value rounded by `rule`, held within `Int64`'s range (NaN is 0): for figures that are shown or
    /// paced, where the nearest value is the right answer.
    public func clampedInt64(_ rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> Int64 {
        if isNaN { return 0 }
        return roundedInt64(rule) ?? (self < 0 ? .min : .max)
    }
}
