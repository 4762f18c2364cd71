import HaulCore

/// The order the list shows its rows in. Display only: the queue order, which decides what runs next, never
/// changes with it (`J`/`K` move in the queue, so they work in queue order only).
public enum SortOrder: String, Sendable, Equatable, CaseIterable {
    /// The order that runs: the first waiting task starts next. The default.
    case queue
    case name
    /// Largest first; unknown sizes last.
    case size
    /// Furthest along first.
    case progress
    /// Fastest first; tasks with no speed last.
    case speed
    /// Soonest done first; unknown last.
    case timeLeft
    /// Newest first.
    case added

    /// The next order of the sort key's cycle.
    public var next: SortOrder {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }

    /// How the header and messages name it: `by speed`.
    public var title: String {
        switch self {
        case .queue: "queue order"
        case .name: "name"
        case .size: "size"
        case .progress: "progress"
        case .speed: "speed"
        case .timeLeft: "time left"
        case .added: "added"
        }
    }

    /// True when `a` comes before `b`; ties keep queue order (the sort is stable on the snapshot's order).
    /// `names` holds each row's lowercased name, by row index (`RowSearch`).
    func precedes(_ a: Int, _ b: Int, rows: [QueueSnapshot.Row], names: [String]) -> Bool {
        let left = rows[a], right = rows[b]
        switch self {
        case .queue: return a < b
        case .name: return Self.ordered(names[a], names[b], a, b)
        case .size: return Self.descending(left.task.totalBytes, right.task.totalBytes, a, b)
        case .progress: return Self.descending(Self.fraction(left), Self.fraction(right), a, b)
        case .speed:
            let speed = { (row: QueueSnapshot.Row) -> Double? in row.task.state == .running ? row.speed : nil }
            return Self.descending(speed(left), speed(right), a, b)
        case .timeLeft:
            let eta = { (row: QueueSnapshot.Row) -> Double? in row.task.state == .running ? row.eta : nil }
            switch (eta(left), eta(right)) {
            case let (x?, y?): return x != y ? x < y : a < b
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return a < b
            }
        case .added: return Self.descending(left.task.createdAt, right.task.createdAt, a, b)
        }
    }

    static func fraction(_ row: QueueSnapshot.Row) -> Double? {
        if row.task.state == .completed { return 1 }
        guard let total = row.task.totalBytes, total > 0 else { return nil }
        return Double(max(0, row.bytesReceived)) / Double(total)
    }

    static func ordered<T: Comparable>(_ x: T, _ y: T, _ a: Int, _ b: Int) -> Bool { x != y ? x < y : a < b }

    /// Larger first, nil last, ties in queue order.
    static func descending<T: Comparable>(_ x: T?, _ y: T?, _ a: Int, _ b: Int) -> Bool {
        switch (x, y) {
        case let (x?, y?): return x != y ? x > y : a < b
        case (.some, nil): return true
        case (nil, .some): return false
        case (nil, nil): return a < b
        }
    }
}
