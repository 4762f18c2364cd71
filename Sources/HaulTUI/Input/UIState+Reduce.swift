import HaulCore

extension UIState {
    /// Handles one key in the current mode: returns the next state and, for a queue change, the command
    /// to send to the controller. Pure: no drawing, no I/O.
    public func reduce(_ key: KeyPress, context: UIContext) -> (UIState, QueueCommand?) {
        var state = synchronized(with: context)
        state.message = nil
        switch state.mode {
        case .list:
            if case .paste = key {
                // A paste opens the add prompt with the text, and its complete lines are added as in the prompt.
                return state.reducePrompt(key, field: PromptField(), context: context)
            }
            guard let action = KeyBinding.action(for: key) else {
                if case .character = key {
                    let help = KeyBinding.binding(for: .toggleHelp)?.keys.first?.label ?? "?"
                    state.message = Message("\(key.label) does nothing here — press \(help) for the keys")
                }
                return (state, nil)
            }
            return state.reduce(action, context: context)
        case .help:
            // Any key without a binding in help closes it, as it always has.
            return state.reduce(KeyBinding.action(for: key, in: .help) ?? .closeOverlay, context: context)
        case .details:
            guard let action = KeyBinding.action(for: key, in: .details) else { return (state, nil) }
            return state.reduce(action, context: context)
        case let .prompt(field):
            return state.reducePrompt(key, field: field, context: context)
        case let .confirmRemove(id):
            return state.reduceConfirm(key, id: id, context: context)
        case let .confirmLink(id):
            return state.reduceConfirmLink(key, id: id, context: context)
        case .filter, .confirmBulk:
            let (next, commands) = handle(key, context: context)
            return (next, commands.first)
        }
    }

    /// Carries out an action on the list screen or in the box over it.
    public func reduce(_ action: Action, context: UIContext) -> (UIState, QueueCommand?) {
        var state = synchronized(with: context)
        let before = state.cursor.selected
        let rows = context.rows(state.list)
        let selected = state.cursor.selected.flatMap { id in rows.row(id, near: state.cursor.index) }
        var command: QueueCommand?
        switch action {
        case .selectPrevious: state.select(state.cursor.index - 1, in: rows)
        case .selectNext: state.select(state.cursor.index + 1, in: rows)
        case .pageUp: state.select(state.cursor.index - max(1, context.visibleRows - 1), in: rows)
        case .pageDown: state.select(state.cursor.index + max(1, context.visibleRows - 1), in: rows)
        case .selectFirst: state.select(0, in: rows)
        case .selectLast: state.select(rows.count - 1, in: rows)
        case .toggleSelected:
            guard let row = selected else { break }
            switch row.state {
            case .running, .waiting: command = .pause(row.id)
            case .paused, .failed: command = .resume(row.id)
            case .completed: state.message = Message("\(row.name) is complete")
            }
        case .pauseAll: command = .pauseAll
        case .startAll: command = .startAll
        case .suspendSchedule:
            if context.scheduleSuspended {
                command = .suspendSchedule(false)
            } else if context.schedule != nil {
                command = .suspendSchedule(true)
            } else {
                state.message = Message("the schedule does nothing now (haul schedule sets one)")
            }
        case .add: state.mode = .prompt(PromptField())
        case .editLink:
            guard let row = selected else { break }
            guard row.state.isUnfinished else {
                state.message = Message("\(row.name) is complete; its link no longer matters")
                break
            }
            state.mode = .prompt(PromptField(row.url, linkOf: row.id))
        case .remove:
            if let row = selected { state.mode = .confirmRemove(row.id) }
        case .moveUp, .moveDown:
            guard let row = selected else { break }
            if row.state == .completed {
                state.message = Message("completed tasks have no place in the queue")
            } else {
                command = .move(row.id, by: action == .moveUp ? -1 : 1)
            }
        case .decreaseConcurrency, .increaseConcurrency:
            let wanted = context.maxConcurrent + (action == .increaseConcurrency ? 1 : -1)
            let limit = ConcurrencyLimit.clamped(wanted)
            if limit != context.maxConcurrent { command = .setMaxConcurrent(limit) }
            state.message = Message("up to \(limit) download\(limit == 1 ? "" : "s") at a time")
        case .moreConnections, .fewerConnections:
            guard let row = selected else { break }
            guard row.state.isUnfinished else {
                state.message = Message("a finished download has no connections to change")
                break
            }
            let wanted = SplitLimit.clamped(row.split + (action == .moreConnections ? 1 : -1))
            if wanted != row.split { command = .setTaskConnections(row.id, wanted) }
            state.message = Message("\(row.name): up to \(wanted) connection\(wanted == 1 ? "" : "s")")
        case .lowerOverallLimit, .raiseOverallLimit:
            let limit = RateSteps.step(from: context.overallLimit, down: action == .lowerOverallLimit)
            if limit != context.overallLimit { command = .setOverallLimit(limit) }
            state.message = Message("all downloads: \(limit.map { "up to \($0)" } ?? "no bandwidth cap")")
        case .showDetails:
            if selected != nil { state.mode = .details }
        case .switchList: state.list = state.list == .downloading ? .completed : .downloading
        case .toggleHelp:
            state.mode = .help
            state.helpScroll = 0
        case .quit: state.quitRequested = true
        case .detach: state.detachRequested = true
        case .filter, .cycleSort, .toggleMark, .clearMarks, .clearFinished, .retryFailed, .expandGroup, .collapseGroup:
            let (next, commands) = handle(action, context: context)
            return (next, commands.first)
        case .scrollUp, .scrollDown, .scrollPageUp, .scrollPageDown, .scrollTop, .scrollBottom:
            let extent = context.overlayScroll ?? .unknown(visibleRows: context.visibleRows)
            if state.mode == .help { state.helpScroll = extent.offset(after: action, from: state.helpScroll) }
            if state.mode == .details { state.detailsScroll = extent.offset(after: action, from: state.detailsScroll) }
        case .closeOverlay:
            if state.mode == .help || state.mode == .details { state.mode = .list }
        }
        state = state.synchronized(with: context)
        // Another task's details start at the top.
        if action == .showDetails || state.cursor.selected != before { state.detailsScroll = 0 }
        return (state, command)
    }

    mutating func select(_ index: Int, in rows: UIContext.RowList) {
        guard !rows.isEmpty else { return }
        let clamped = min(max(0, index), rows.count - 1)
        cursor.index = clamped
        cursor.selected = rows[clamped].id
    }

    /// Adds the prompt's URLs and closes it; on a bad URL, says why and keeps the text for fixing.
    func submitPrompt(_ field: PromptField, context: UIContext) -> (UIState, QueueCommand?) {
        if let id = field.linkOf { return submitLink(field, of: id, context: context) }
        var state = self
        let tasks: [NewTask]
        do {
            var intake = TaskIntake(defaultDirectory: context.downloadDirectory, proxyDefaults: context.proxyDefaults)
            intake.rules = context.intakeRules
            tasks = try intake.promptTasks(field.text)
        } catch {
            state.mode = .prompt(field)
            state.message = Message(error.description, isError: true)
            return (state, nil)
        }
        state.mode = .list
        guard !tasks.isEmpty else { return (state, nil) }
        state.message = Message(tasks.count == 1 ? "added \(URLValidation.redacted(tasks[0].url))" : "added \(tasks.count) URLs")
        return (state, .add(tasks))
    }

    func reducePrompt(_ key: KeyPress, field: PromptField, context: UIContext) -> (UIState, QueueCommand?) {
        var state = self
        var field = field
        switch key {
        case .escape:
            state.mode = .list
            return (state, nil)
        case .enter:
            return state.submitPrompt(field, context: context)
        case let .paste(text):
            // Every line the paste completes is added, as Enter would; the text after the last line break stays.
            guard let lastBreak = text.lastIndex(where: \.isNewline) else {
                field.insert(text)
                break
            }
            field.insert(String(text[..<lastBreak]))
            var rest = PromptField()
            rest.insert(String(text[text.index(after: lastBreak)...]))
            let (submitted, command) = state.submitPrompt(field, context: context)
            guard command != nil, !rest.text.isEmpty else { return (submitted, command) }
            var next = submitted
            next.mode = .prompt(rest)
            return (next, command)
        default: _ = field.edit(key)
        }
        state.mode = .prompt(field)
        return (state, nil)
    }

    /// A new link for task `id`: checked here like any link, then set (DESIGN §8). The same link again, for a
    /// task whose new link was refused, asks what to do with the kept bytes.
    func submitLink(_ field: PromptField, of id: TaskID, context: UIContext) -> (UIState, QueueCommand?) {
        var state = self
        guard let row = context.row(id), row.state.isUnfinished else {
            state.mode = .list
            return (state, nil)
        }
        let url: String
        do {
            url = try URLValidation.validate(field.text)
        } catch {
            state.mode = .prompt(field)
            state.message = Message(error.description, isError: true)
            return (state, nil)
        }
        guard url != row.url else {
            state.mode = row.linkChange == .sameFile ? .confirmLink(id) : .list
            if row.linkChange != .sameFile { state.message = Message("the link of \(row.name) is unchanged") }
            return (state, nil)
        }
        state.mode = .list
        state.message = Message("new link for \(row.name): \(URLValidation.redacted(url))")
        return (state, .setURL(id, url: url, change: .sameFile))
    }

    func reduceConfirmLink(_ key: KeyPress, id: TaskID, context: UIContext) -> (UIState, QueueCommand?) {
        var state = self
        guard let row = context.row(id) else {
            state.mode = .list
            return (state, nil)
        }
        switch key {
        case .character("k"), .character("K"):
            state.mode = .list
            state.message = Message("\(row.name): keeping its bytes with the new link")
            return (state, .setURL(id, url: row.url, change: .keepBytes))
        case .character("r"), .character("R"):
            state.mode = .list
            state.message = Message("\(row.name): starting over from the new link")
            return (state, .setURL(id, url: row.url, change: .restart))
        case .character("n"), .character("N"), .character("q"), .escape:
            state.mode = .list
            return (state, nil)
        default:
            return (state, nil)
        }
    }

    func reduceConfirm(_ key: KeyPress, id: TaskID, context: UIContext) -> (UIState, QueueCommand?) {
        var state = self
        guard let row = context.row(id) else {
            state.mode = .list
            return (state, nil)
        }
        switch key {
        case .character(RemoveKeys.keep), .character("Y"):
            state.mode = .list
            state.message = Message("removed \(row.name)")
            return (state, .remove(id, deleteFile: false))
        case .character(RemoveKeys.deleteFile):
            // A completed task has no partial file, and its finished file is never deleted from here.
            guard row.state != .completed else { return (state, nil) }
            state.mode = .list
            state.message = Message("removed \(row.name) and deleted its partial file")
            return (state, .remove(id, deleteFile: true))
        case .character("n"), .character("N"), .character("q"), .escape:
            state.mode = .list
            return (state, nil)
        default:
            return (state, nil)
        }
    }
}
