import Foundation
import HaulCore

/// Turns a queue snapshot and the UI state into everything on screen as plain values. All formatting
/// of sizes, speeds, times and states happens here, so the renderer only lays out text.
public struct ViewModelBuilder: Sendable {
    public var glyphs: GlyphSet
    /// The pid of the background haul this list is attached to; nil when this process owns the downloads.
    public var attachedTo: Int32?

    public init(glyphs: GlyphSet = .unicode, attachedTo: Int32? = nil) {
        self.glyphs = glyphs
        self.attachedTo = attachedTo
    }

    /// The screen for `snapshot` in `state` (which should be synchronized with the same snapshot).
    /// - Parameters:
    ///   - freeDiskBytes: free space at the download directory, nil when unknown.
    ///   - now: the wall clock, for retry countdowns.
    ///   - frame: a counter that advances once per redraw tick; it moves the activity indicator.
    ///   - shown: the rows after the filter and the order (`ListView.shown`), when the caller keeps them.
    ///   - figures: the queue's figures for the header (`QueueFigures`), when the caller keeps them.
    public func build(
        snapshot: QueueSnapshot, state: UIState, layout: ScreenLayout, freeDiskBytes: Int64?, now: Date, frame: Int,
        shown: ShownRows? = nil, figures: QueueFigures? = nil
    ) -> ListViewModel {
        let shown = shown ?? state.view.shown(in: snapshot)
        let lines = shown.lines(state.list)
        let marks = state.view.marks
        let cursor = state.cursor
        let window = lines.indices.clamped(to: cursor.top..<(cursor.top + layout.visibleRows))
        // A screenful of lines is made into rows, not the thousands listed.
        let rowModels = window.map { index in
            line(lines[index], shown: shown, snapshot: snapshot, selected: cursor.selected, marks: marks, now: now, frame: frame)
        }
        // Looked for first where the cursor stands: a frame reads one row, not every row above the selection.
        let selectedRow = cursor.selected.flatMap { id in
            if lines.indices.contains(cursor.index), let index = lines[cursor.index].row, snapshot.rows[index].id == id {
                return snapshot.rows[index]
            }
            return lines.lazy.compactMap(\.row).map { snapshot.rows[$0] }.first { $0.id == id }
        }
        let overlay = overlay(state, selected: selectedRow, in: snapshot.rows, now: now)
        var footer = footer(for: state.mode, owner: snapshot.ownerProcessID ?? attachedTo)
        if case let .confirm(question)? = overlay {
            footer = question.choices
        }
        let total = shown.total(state.list)
        let filter = state.view.filter
        var model = ListViewModel(
            header: header(snapshot, figures: figures ?? QueueFigures(rows: snapshot.rows), freeDiskBytes: freeDiskBytes),
            tabs: [
                .init(title: "Downloading", count: shown.taskCount(.downloading), isActive: state.list == .downloading),
                .init(title: "Completed", count: shown.taskCount(.completed), isActive: state.list == .completed),
            ],
            rows: rowModels,
            emptyText: lines.isEmpty ? (filter.isEmpty || total == 0 ? emptyText(for: state.list) : "No task matches \"\(filter)\" — Esc clears the filter") : nil,
            status: status(state, listCount: lines.count, maxConcurrent: snapshot.maxConcurrent),
            footer: footer,
            footerMessage: state.mode.isPrompt ? state.message : nil,
            overlay: overlay,
            glyphs: glyphs,
            warning: snapshot.warning)
        model.columns = ListViewModel.ColumnHeader(
            sort: state.view.sort, filter: filter.isEmpty ? nil : filter,
            matches: filter.isEmpty ? nil : "\(shown.taskCount(state.list)) of \(total)", marked: marks.count)
        return model
    }

    // MARK: Rows

    func row(_ row: QueueSnapshot.Row, selected: Bool, now: Date, frame: Int) -> RowViewModel {
        let task = row.task
        let done = max(0, row.bytesReceived)
        let total = task.totalBytes.flatMap { $0 > 0 ? $0 : nil }
        let fill: ProgressBar.Fill
        let percent = PercentFormat.text(done: done, total: total, isComplete: task.state == .completed)
        if task.state == .completed {
            fill = .fraction(1)
        } else if let total {
            fill = .fraction(min(1, Double(done) / Double(total)))
        } else {
            fill = task.state == .running ? .activity(phase: frame) : .unknown
        }

        var model = RowViewModel(
            id: task.id, isSelected: selected, glyph: glyphs.waiting, stateRole: .stateWaiting, name: task.displayName,
            fill: fill, percent: percent,
            size: task.stream?.isRecording == true && task.state != .completed
                ? ByteCountFormat.compact(done) : Self.size(done: done, total: total, state: task.state, estimated: task.stream?.isEstimate ?? false),
            speed: "", speedRole: .columnSpeed, eta: "", problem: nil, spinner: nil)

        let hintKey = KeyBinding.hintKey(for: .toggleSelected)
        switch task.state {
        case .running:
            model.glyph = glyphs.running
            model.stateRole = .stateRunning
            model.speed = row.isStalled ? "stalled" : ByteCountFormat.rate(row.speed)
            if row.connections > 1 { model.connections = "×\(row.connections)" }
            model.eta = total == nil ? "—" : DurationFormat.eta(row.eta)
            if total == nil { model.spinner = glyphs.spinner[((frame % glyphs.spinner.count) + glyphs.spinner.count) % glyphs.spinner.count] }
        case .waiting:
            if let retryAt = row.retryAt {
                model.glyph = glyphs.retrying
                model.stateRole = .stateRetrying
                model.speed = "retry \(DurationFormat.eta(max(0, retryAt.timeIntervalSince(now))))"
                model.speedRole = .stateRetrying
            } else {
                model.speed = "waiting"
                model.speedRole = .stateWaiting
            }
        case .paused:
            model.glyph = glyphs.paused
            model.stateRole = .statePaused
            model.speed = "paused"
            model.speedRole = .statePaused
            if let error = task.lastError {
                model.problem = .init(text: error, hint: "press \(hintKey) to resume", shortHint: "\(hintKey): resume")
            }
        case .failed:
            model.glyph = glyphs.failed
            model.stateRole = .stateFailed
            model.speed = "failed"
            model.speedRole = .stateFailed
            model.problem = .init(
                text: task.lastError ?? "failed", hint: "press \(hintKey) to retry", shortHint: "\(hintKey): retry")
        case .completed:
            model.glyph = glyphs.completed
            model.stateRole = .stateCompleted
            model.speed = "done"
            model.speedRole = .stateCompleted
        }
        // An unfinished stream tags its name with its segments (`seg 120/480`, then `×4` while it runs over several).
        if let stream = task.stream, task.state != .completed, task.state != .failed {
            model.connections = model.connections.isEmpty ? stream.segmentFigure : stream.segmentFigure + " " + model.connections
        }
        return model
    }

    /// `552.0M/1.0G`; `12.0M/—` when the total is unknown; `—/—` before anything is known; the total alone when
    /// complete; `552.0M/~1.2G` when the total is a stream's estimate.
    static func size(done: Int64, total: Int64?, state: TaskState, estimated: Bool = false) -> String {
        if state == .completed { return ByteCountFormat.compact(total ?? done) }
        switch (done, total) {
        case let (_, total?): return "\(ByteCountFormat.compact(done))/\(estimated ? "~" : "")\(ByteCountFormat.compact(total))"
        case (0, nil): return "—/—"
        default: return "\(ByteCountFormat.compact(done))/—"
        }
    }

    func emptyText(for list: UIState.ListKind) -> String {
        switch list {
        case .downloading:
            let add = KeyBinding.binding(for: .add)?.keys.first?.label ?? "a"
            return "Nothing to download — press \(add) to add a URL"
        case .completed:
            return "Nothing completed yet"
        }
    }

    // MARK: Status line and footer

    func status(_ state: UIState, listCount: Int, maxConcurrent: Int) -> ListViewModel.StatusLine {
        if case let .prompt(field) = state.mode {
            let label = field.linksOf.isEmpty ? field.linkOf.map { "New link for #\($0): " } ?? "Add URL: "
                : "New link for \(field.linksOf.count) marked: "
            return .prompt(label: label, field: field)
        }
        if case let .filter(field) = state.mode { return .prompt(label: "Filter: ", field: field) }
        if let message = state.message { return .message(message.text, isError: message.isError) }
        let title = state.list == .downloading ? "Downloading" : "Completed"
        let position = listCount == 0 ? "empty" : "\(state.cursor.index + 1)/\(listCount)"
        return .info(left: "\(title) \(position)", right: "max \(maxConcurrent) running (\(Self.limitKeys))")
    }

    static var limitKeys: String {
        [Action.decreaseConcurrency, .increaseConcurrency]
            .compactMap { KeyBinding.binding(for: $0)?.keys.first?.label }
            .joined(separator: " ")
    }

    /// - Parameter owner: the background haul this list is attached to (its live pid), nil for the owning list.
    func footer(for mode: UIState.Mode, owner: Int32? = nil) -> [FooterItem] {
        switch mode {
        case .list:
            let items = KeyBinding.footerItems(in: .list)
            guard let attachedTo = owner else { return items }
            // Attached: q only closes this view, and the downloads already run in the background.
            let detach = KeyBinding.binding(for: .detach)?.keys.first?.label
            return [FooterItem(keys: "attached to haul", label: "(pid \(attachedTo))", essential: true)]
                + items.compactMap { item in
                    if item.keys == detach { return nil }
                    return item.label == "quit" ? FooterItem(keys: item.keys, label: "close view", essential: item.essential) : item
                }
        case .help: return KeyBinding.footerItems(in: .help)
        case .details: return KeyBinding.footerItems(in: .details)
        case let .prompt(field):
            return [
                FooterItem(keys: "Enter", label: field.linkOf == nil && field.linksOf.isEmpty ? "add" : "set link", essential: true),
                FooterItem(keys: "Esc", label: "cancel", essential: true),
                FooterItem(keys: "^U", label: "clear"), FooterItem(keys: "←/→", label: "move"),
            ]
        case .filter:
            return [
                FooterItem(keys: "Enter", label: "keep", essential: true), FooterItem(keys: "Esc", label: "clear", essential: true),
                FooterItem(keys: "↑/↓", label: "select"),
            ]
        case .confirmRemove, .confirmLink, .confirmBulk:
            return []  // the question's own choices are the footer (see `build`)
        }
    }
}
