import HaulCore

extension UIState {
    /// Carries out `action` when it concerns a group (DESIGN §12): Enter or → opens a group's row and ← closes it (from
    /// one of its tasks too), space pauses or resumes all of it, `x` asks to remove all of it, `m` marks all of it.
    /// Keys that act on one task tell how to reach one. Nil when the action is not about a group: the caller goes on.
    func handleGroup(_ action: Action, context: UIContext, marked: [UIContext.RowRef]) -> (UIState, [QueueCommand])? {
        var state = self
        let rows = context.rows(list)
        let selected = cursor.selected.flatMap { id in rows.row(id, near: cursor.index) }
        switch action {
        case .expandGroup, .collapseGroup:
            guard let row = selected, let name = row.group else {
                state.message = Message("not a group: ← and → open and close a group's row")
                return (state, [])
            }
            if action == .collapseGroup, !row.isGroup, let parent = context.groupRow(name, in: list),
               let index = rows.firstIndex(of: parent) {
                // From one of its tasks: back to the group's row, closed.
                state.select(index, in: rows)
            }
            if action == .expandGroup, !row.isGroup { return (state, []) }
            state.setExpanded(name, action == .expandGroup)
            return (state, [])
        default:
            break
        }
        guard let row = selected, row.isGroup, let name = row.group else { return nil }
        let members = row.members
        if context.rowsToCome > 0, [.toggleMark, .toggleSelected, .remove].contains(action) {
            // A group's keys act on all of it: not on the part of it read so far.
            state.message = Message("\(row.name): \(context.rowsToCome) tasks still to read, its keys wait for all of it")
            return (state, [])
        }
        switch action {
        case .showDetails:
            state.setExpanded(name, !view.expanded.contains(name))
            return (state, [])
        case .toggleMark:
            let ids = Set(members.map(\.id))
            if ids.isSubset(of: view.marks) { state.view.marks.subtract(ids) } else { state.view.marks.formUnion(ids) }
            state.select(cursor.index + 1, in: rows)
            return (state, [])
        case .toggleSelected where marked.isEmpty:
            let (pausing, commands) = Self.toggling(members)
            state.message = Message(
                commands.isEmpty ? "\(row.name): all \(members.count) tasks are complete"
                    : "\(pausing ? "pausing" : "resuming") \(commands.count) task\(commands.count == 1 ? "" : "s") of \(row.name)")
            return (state, commands)
        case .remove where marked.isEmpty:
            let partial = members.contains { $0.state.isUnfinished }
            state.mode = .confirmBulk(BulkQuestion(kind: .removeGroup(row.name), tasks: members.map(\.id), hasPartialFiles: partial))
            return (state, [])
        case .editLink where marked.isEmpty, .moreConnections where marked.isEmpty, .fewerConnections where marked.isEmpty,
             .moveUp, .moveDown:
            let open = KeyBinding.binding(for: .expandGroup)?.keys.first?.label ?? "→"
            state.message = Message("\(row.name) is a group: \(open) shows its tasks, to pick one")
            return (state, [])
        default:
            return nil
        }
    }

    /// Opens or closes the group `name`'s row; the selection stays on the row it is on.
    mutating func setExpanded(_ name: String, _ expanded: Bool) {
        if expanded { view.expanded.insert(name) } else { view.expanded.remove(name) }
    }
}
