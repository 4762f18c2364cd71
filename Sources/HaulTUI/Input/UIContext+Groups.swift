import HaulCore

extension UIContext.RowRef {
    /// The reference of a group's row: its tasks' references, one state for them all (`GroupSummary.state`), and an
    /// id that names no task.
    public init(group: ShownGroup, members: [UIContext.RowRef]) {
        self.init(
            id: ShownGroup.rowID(leader: members[0].id), state: GroupSummary.state(of: members.map(\.state)),
            name: group.name.escapingAllControlCharacters)
        self.members = members
        self.group = group.name
    }
}

extension UIContext {
    /// The row of group `name` in `list`.
    func groupRow(_ name: String, in list: UIState.ListKind) -> RowRef? {
        rows(list).first { $0.isGroup && $0.group == name }
    }
}
