import HaulCore

extension UIContext.RowRef {
    /// The reference of a group's row: its tasks' references, one state for them all (`GroupSummary.state`), and an
    /// id that names no task.
    public init(group: ShownGroup, members: [UIContext.RowRef]) {
        self.init(group: group, members: UIContext.RowList(members))
    }

    /// The reference of a group's row whose tasks' references are made as they are read.
    init(group: ShownGroup, members: UIContext.RowList) {
        self.init(
            id: ShownGroup.rowID(leader: members[0].id), state: group.summary.state,
            name: group.name.escapingAllControlCharacters)
        self.members = members
        self.group = group.name
        shownMembers = group.shown.count
    }

    /// True for a task shown beneath its open group's row.
    var isMember: Bool { group != nil && members.isEmpty }
}

extension UIContext {
    /// The tasks a list holds, in screen order: a group's row stands for all its tasks (the ones shown beneath an
    /// open group are not counted twice). What `C` and `R` act on; never a group row's own id.
    func tasks(_ list: UIState.ListKind) -> [RowRef] {
        rows(list).flatMap { row -> [RowRef] in row.isGroup ? Array(row.members) : row.isMember ? [] : [row] }
    }

    /// How many tasks a list shows, as its tab counts them (`ShownRows.taskCount`).
    func taskCount(_ list: UIState.ListKind) -> Int {
        rows(list).reduce(0) { count, row in count + (row.isGroup ? row.shownMembers : row.isMember ? 0 : 1) }
    }

    /// The row of group `name` in `list`.
    func groupRow(_ name: String, in list: UIState.ListKind) -> RowRef? {
        rows(list).first { $0.isGroup && $0.group == name }
    }
}
