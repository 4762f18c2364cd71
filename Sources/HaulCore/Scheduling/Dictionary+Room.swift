extension Dictionary {
    /// Moves to a dictionary sized for what it holds when it holds far less than its room (a dictionary keeps its
    /// room when emptied): an index of 100,000 tasks a command for every task emptied gives its room back.
    mutating func giveBackRoom() {
        guard capacity > 4 * Swift.max(count, 1_024) else { return }
        var smaller = Self(minimumCapacity: count)
        for (key, value) in self { smaller[key] = value }
        self = smaller
    }
}
