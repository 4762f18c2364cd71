import HaulCore

extension UIState {
    /// Handles one key: the list's filter, order, marks and the actions that act on several tasks here, every
    /// other key through `reduce(_:context:)`. Returns the next state and the commands to send, in order. Pure.
    public func handle(_ key: KeyPress, context: UIContext) -> (UIState, [QueueCommand]) {
        switch mode {
        case let .filter(field):
            return synchronized(with: context).reduceFilter(key, field: field, context: context)
        case let .confirmBulk(question):
            return synchronized(with: context).reduceBulk(key, question: question)
        case let .prompt(field) where !field.linksOf.isEmpty && key == .enter:
            return synchronized(with: context).submitLinks(field)
        case .list:
            if case let .mouse(event) = key { return reduceMouse(event, context: context) }
            if key == .escape, !view.filter.isEmpty {
                var state = synchronized(with: context)
                state.view.filter = ""
                state.message = Message("filter cleared")
                return (state, [])
            }
            if let action = KeyBinding.action(for: key) { return handle(action, context: context) }
        default:
            break
        }
        if case .mouse = key { return (self, []) }
        let (state, command) = reduce(key, context: context)
        return (state, command.map { [$0] } ?? [])
    }

    /// Carries out a list action, on the marked tasks when any is marked and the action acts on tasks.
    public func handle(_ action: Action, context: UIContext) -> (UIState, [QueueCommand]) {
        var state = synchronized(with: context)
        state.message = nil
        let marked = view.marks.isEmpty ? [] : context.marked
        if let handled = state.handleGroup(action, context: context, marked: marked) { return handled }
        switch action {
        case .filter:
            state.mode = .filter(PromptField(view.filter))
            return (state, [])
        case .cycleSort:
            state.view.sort = view.sort.next
            state.message = Message("sorted by \(state.view.sort.title)" + (state.view.sort == .queue ? " (the order that runs)" : ""))
            return (state, [])
        case .toggleMark:
            guard let id = state.cursor.selected else { return (state, []) }
            if state.view.marks.remove(id) == nil { state.view.marks.insert(id) }
            // Marking walks down the list, as in htop.
            state.select(state.cursor.index + 1, in: context.rows(state.list))
            return (state, [])
        case .clearMarks:
            state.message = Message(view.marks.isEmpty ? "nothing is marked" : "marks cleared")
            state.view.marks = []
            return (state, [])
        case .clearFinished:
            let finished = context.tasks(.completed).map(\.id)
            guard !finished.isEmpty else {
                state.message = Message("no finished rows to clear")
                return (state, [])
            }
            state.mode = .confirmBulk(BulkQuestion(kind: .clearFinished, tasks: finished))
            return (state, [])
        case .retryFailed:
            let failed = context.tasks(.downloading).filter { $0.state == .failed }.map(\.id)
            state.message = Message(failed.isEmpty ? "no failed task to retry" : "retrying \(failed.count) failed task\(failed.count == 1 ? "" : "s")")
            return (state, failed.map { .resume($0) })
        case .moveUp where view.sort != .queue, .moveDown where view.sort != .queue:
            state.message = Message("J/K move in queue order; sorted by \(view.sort.title) now (o cycles back)")
            return (state, [])
        case .toggleSelected where !marked.isEmpty:
            let (active, commands) = Self.toggling(marked)
            state.message = Message("\(active ? "pausing" : "resuming") \(commands.count) marked task\(commands.count == 1 ? "" : "s")")
            return (state, commands)
        case .remove where !marked.isEmpty:
            let partial = marked.contains { $0.state.isUnfinished }
            state.mode = .confirmBulk(BulkQuestion(kind: .removeMarked, tasks: marked.map(\.id), hasPartialFiles: partial))
            return (state, [])
        case .moreConnections where !marked.isEmpty, .fewerConnections where !marked.isEmpty:
            let step = action == .moreConnections ? 1 : -1
            let commands: [QueueCommand] = marked.compactMap { row in
                guard row.state.isUnfinished else { return nil }
                let wanted = SplitLimit.clamped(row.split + step)
                return wanted == row.split ? nil : .setTaskConnections(row.id, wanted)
            }
            state.message = Message("\(commands.count) marked download\(commands.count == 1 ? "" : "s"): one connection \(step > 0 ? "more" : "fewer")")
            return (state, commands)
        case .editLink where !marked.isEmpty:
            let unfinished = marked.filter { $0.state.isUnfinished }
            guard let first = unfinished.first else {
                state.message = Message("the marked tasks are complete; their links no longer matter")
                return (state, [])
            }
            // Each task checks the link for itself: one that serves another file is refused, naming why.
            state.mode = .prompt(PromptField(first.url, linksOf: unfinished.map(\.id)))
            return (state, [])
        default:
            let (next, command) = reduce(action, context: context)
            return (next, command.map { [$0] } ?? [])
        }
    }

    /// Space on several tasks (the marked ones, a group's): any of them running or waiting pauses those; else the
    /// paused and failed ones resume.
    static func toggling(_ rows: some Collection<UIContext.RowRef>) -> (pausing: Bool, commands: [QueueCommand]) {
        let active = rows.contains { $0.state == .running || $0.state == .waiting }
        let commands: [QueueCommand] = rows.compactMap { row in
            switch row.state {
            case .running, .waiting: active ? .pause(row.id) : nil
            case .paused, .failed: active ? nil : .resume(row.id)
            case .completed: nil
            }
        }
        return (active, commands)
    }

    /// One new link for every marked unfinished task (a file moved to a new host): checked here like any link, then
    /// set on each, each keeping its bytes only if the link serves its file (DESIGN §8).
    func submitLinks(_ field: PromptField) -> (UIState, [QueueCommand]) {
        var state = self
        let url: String
        do {
            url = try URLValidation.validate(field.text)
        } catch {
            state.message = Message(error.description, isError: true)
            return (state, [])
        }
        state.mode = .list
        state.message = Message("new link for \(field.linksOf.count) marked task\(field.linksOf.count == 1 ? "" : "s"): \(URLValidation.redacted(url))")
        return (state, field.linksOf.map { .setURL($0, url: url, change: .sameFile) })
    }

    /// The answer to a question about several tasks.
    func reduceBulk(_ key: KeyPress, question: BulkQuestion) -> (UIState, [QueueCommand]) {
        var state = self
        switch key {
        case .character(RemoveKeys.keep), .character("Y"):
            state.mode = .list
            state.view.marks.subtract(question.tasks)
            state.message = Message("removed \(question.subject)" + (question.kind == .clearFinished ? "; the files stay" : ""))
            return (state, question.tasks.map { .remove($0, deleteFile: false) })
        case .character(RemoveKeys.deleteFile) where question.kind != .clearFinished && question.hasPartialFiles:
            state.mode = .list
            state.view.marks.subtract(question.tasks)
            state.message = Message("removed \(question.subject) and deleted their partial files")
            return (state, question.tasks.map { .remove($0, deleteFile: true) })
        case .character(RemoveKeys.cancel), .character("N"), .character("q"), .escape:
            state.mode = .list
            return (state, [])
        default:
            return (state, [])
        }
    }

    /// Typing the filter: the list narrows with each key; Enter keeps it (the header shows it), Esc clears it.
    func reduceFilter(_ key: KeyPress, field: PromptField, context: UIContext) -> (UIState, [QueueCommand]) {
        var state = self
        var field = field
        switch key {
        case .escape:
            state.view.filter = ""
            state.mode = .list
            return (state, [])
        case .enter:
            state.mode = .list
            return (state, [])
        case .up, .down, .pageUp, .pageDown:
            let action: Action = key == .up ? .selectPrevious : key == .down ? .selectNext : key == .pageUp ? .pageUp : .pageDown
            var (next, _) = reduce(action, context: context)
            next.mode = .filter(field)
            return (next, [])
        default: _ = field.edit(key)
        }
        state.mode = .filter(field)
        if state.view.filter != field.text {
            state.view.filter = field.text
            // A new filter starts at its first row.
            state.cursor = Cursor()
        }
        return (state, [])
    }
}
