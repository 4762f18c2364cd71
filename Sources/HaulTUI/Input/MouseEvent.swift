/// A mouse event on a screen cell, independent of how the terminal reported it. Lines and columns count from 0.
public struct MouseEvent: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// The left button went down once; a second press on the same cell soon after is `doubleClick`.
        case click
        case doubleClick
        case wheelUp, wheelDown
    }

    public var kind: Kind
    public var line: Int
    public var column: Int

    public init(_ kind: Kind, line: Int, column: Int) {
        self.kind = kind
        self.line = line
        self.column = column
    }
}

/// Tells a double click from two clicks: a press on the same line within `interval` of the last one. A value the
/// key loop owns; it takes the time, so tests hand it any clock.
public struct ClickTracker: Sendable {
    public static let interval: Duration = .milliseconds(400)
    private var last: (line: Int, at: ContinuousClock.Instant)?

    public init() {}

    /// The event a left-button press at `line`, `column` makes at `now`.
    public mutating func press(line: Int, column: Int, at now: ContinuousClock.Instant) -> MouseEvent {
        if let last, last.line == line, now - last.at <= Self.interval {
            self.last = nil
            return MouseEvent(.doubleClick, line: line, column: column)
        }
        last = (line, now)
        return MouseEvent(.click, line: line, column: column)
    }
}
