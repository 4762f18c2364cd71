/// The row id of a task in the queue, typed so it cannot be mixed up with a byte count.
public struct TaskID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: Int64

    public init(_ rawValue: Int64) { self.rawValue = rawValue }

    public static func < (lhs: TaskID, rhs: TaskID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { String(rawValue) }
}

extension TaskID {
    /// The id as aria2's GID: 16 hexadecimal digits, zero-padded (remote clients and hooks see it).
    public var gid: String {
        let hex = String(UInt64(bitPattern: rawValue), radix: 16)
        return String(repeating: "0", count: max(0, 16 - hex.count)) + hex
    }
}
