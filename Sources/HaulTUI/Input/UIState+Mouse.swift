import HaulCore

extension UIState {
    /// A click selects the row under it (a double click opens its details), the wheel scrolls, a click on a
    /// column heading sorts by it (again: back to queue order), a click on a list name switches to it.
    func reduceMouse(_ event: MouseEvent, context: UIContext) -> (UIState, [QueueCommand]) {
        var state = synchronized(with: context)
        state.message = nil
        guard let screen = context.screen else { return (state, []) }
        let rows = context.rows(state.list)
        switch event.kind {
        case .wheelUp, .wheelDown:
            state.select(state.cursor.index + (event.kind == .wheelUp ? -3 : 3), in: rows)
        case .click, .doubleClick:
            if screen.list.contains(event.line) {
                let index = state.cursor.top + event.line - screen.list.lowerBound
                guard rows.indices.contains(index) else { break }
                state.select(index, in: rows)
                if event.kind == .doubleClick {
                    // A group's row has no details: a double click opens or closes it.
                    if rows[index].isGroup, let name = rows[index].group {
                        state.setExpanded(name, !state.view.expanded.contains(name))
                    } else {
                        state.mode = .details
                    }
                }
            } else if event.line == screen.columnHeader {
                guard let order = RowLayout(width: screen.width).sortOrder(at: event.column) else { break }
                state.view.sort = state.view.sort == order ? .queue : order
                state.message = Message("sorted by \(state.view.sort.title)")
            } else if event.line == screen.topRule {
                let tabs = ListTabs.ranges(downloading: context.taskCount(.downloading), completed: context.taskCount(.completed), width: screen.width)
                if let hit = tabs.firstIndex(where: { $0.contains(event.column) }) {
                    state.list = hit == 0 ? .downloading : .completed
                }
            }
        }
        return (state.synchronized(with: context), [])
    }
}
