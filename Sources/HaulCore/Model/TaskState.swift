/// Where a task stands in its lifecycle; the raw value is the text stored in the database.
public enum TaskState: String, Sendable, Codable, CaseIterable {
    case waiting
    case running
    case paused
    case completed
    case failed

    /// Whether the task still belongs on the Downloading list.
    public var isUnfinished: Bool { self != .completed }
}
