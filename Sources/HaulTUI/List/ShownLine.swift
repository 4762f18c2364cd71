import HaulCore

/// One line of a list as shown: a task, a group's row, or a task under its expanded group. A value in `ShownRows`.
public enum ShownLine: Sendable, Hashable {
    /// A task on its own row: its index in `QueueSnapshot.rows`.
    case task(Int)
    /// A group's row: its index in `ShownRows.groups`.
    case group(Int)
    /// A task shown indented under its expanded group: its index in `QueueSnapshot.rows`, and the group's in
    /// `ShownRows.groups`.
    case member(Int, group: Int)

    /// The task's index in the snapshot's rows; nil for a group's row.
    public var row: Int? {
        switch self {
        case let .task(index), let .member(index, _): index
        case .group: nil
        }
    }
}

/// A group of tasks as the list shows it (DESIGN §12): the tasks added together from one input file or one video
/// page, one row that expands to its tasks. Only a group of two or more tasks is shown as one.
public struct ShownGroup: Sendable, Equatable {
    /// The stored group name, as it is (escaped where it is drawn); the key of `ListView.expanded`.
    public var name: String
    /// Every task of the group, as indices into `QueueSnapshot.rows`, in queue order, whatever the filter shows.
    public var members: [Int]
    /// The tasks shown under it when it is expanded: those the filter keeps (all of them when its name matches).
    public var shown: [Int]
    public var isExpanded: Bool
    /// Its figures, from every task: worked out once with the rows, kept while a filter narrows them.
    public var summary: GroupSummary

    public init(name: String, members: [Int], shown: [Int], isExpanded: Bool, summary: GroupSummary) {
        self.name = name
        self.members = members
        self.shown = shown
        self.isExpanded = isExpanded
        self.summary = summary
    }

    /// The id the list gives the group's row, so the selection can rest on it: its first task's id, negated (task
    /// ids are positive row ids, so it never names a task). Never sent to the controller.
    public static func rowID(leader: TaskID) -> TaskID { TaskID(-leader.rawValue) }
}
