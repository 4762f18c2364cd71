import HaulCore

/// A failure of the queue database that a user can see, with what to do about it.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The database file could not be opened or migrated.
    case cannotOpen(path: String, reason: String)
    /// The file was migrated by a newer haul, whose schema this version does not know.
    case newerSchema(path: String)
    /// A stored value this version cannot read (a row edited by hand, or a bug).
    case unreadableValue(taskID: TaskID, column: String, value: String)
    /// A stored setting this version cannot read.
    case unreadableSetting(key: String, value: String)
    /// The stored schedule breaks a rule of this version (more windows than it reads); it is not applied.
    case refusedSchedule(ScheduleError)

    public var description: String {
        switch self {
        case let .cannotOpen(path, reason):
            return "cannot open the queue database \(path): \(reason) — check its permissions, or pass --state-dir DIR"
        case let .newerSchema(path):
            return "the queue database \(path) was written by a newer haul — upgrade haul, or pass --state-dir DIR"
        case let .unreadableValue(taskID, column, value):
            return "task \(taskID) has an unreadable \(column) '\(value)' in the queue database — remove it with `haul remove \(taskID)`"
        case let .unreadableSetting(key, value):
            return "the setting \(key) '\(value)' in the queue database cannot be read — set it again (haul \(key))"
        case let .refusedSchedule(reason):
            return "the schedule in the queue database is not applied: \(reason) — set a new one with `haul schedule WINDOW…` or remove it with `haul schedule --clear`"
        }
    }
}
