import HaulCore

/// Which tasks of a snapshot form groups the list shows as one row: the tasks sharing a stored group name, when
/// there are two or more of them. Built once per `ListView.shown`; a snapshot without groups costs one pass.
struct GroupIndex: Sendable {
    /// Each group's name and tasks (indices into the snapshot's rows, in queue order), in the order of their first task.
    var groups: [(name: String, members: [Int])] = []
    /// Each group's figures, by its number in `groups`, from all its tasks: what a filter or an order does not change.
    private(set) var summaries: [GroupSummary] = []
    /// Whether each group has a task left to do (it is in the Downloading list), by its number in `groups`.
    private(set) var unfinished: [Bool] = []
    /// The group of each row, by row index; empty when no row is in a group of two or more.
    private var groupOfRow: [Int?] = []

    init(_ rows: [QueueSnapshot.Row]) {
        var byName: [String: Int] = [:]
        var all: [(name: String, members: [Int])] = []
        for index in rows.indices {
            guard let name = rows[index].task.group else { continue }
            if let found = byName[name] {
                all[found].members.append(index)
            } else {
                byName[name] = all.count
                all.append((name, [index]))
            }
        }
        groups = all.filter { $0.members.count > 1 }
        guard !groups.isEmpty else { return }
        summaries = groups.map { GroupSummary(rows: rows, members: $0.members) }
        unfinished = groups.map { group in group.members.contains { rows[$0].task.state.isUnfinished } }
        groupOfRow = Array(repeating: nil, count: rows.count)
        for (number, group) in groups.enumerated() {
            for index in group.members { groupOfRow[index] = number }
        }
    }

    var isEmpty: Bool { groups.isEmpty }

    /// The group the row at `index` belongs to, by its number in `groups`; nil for a task shown on its own.
    func group(ofRow index: Int) -> Int? {
        groupOfRow.isEmpty ? nil : groupOfRow[index]
    }
}
