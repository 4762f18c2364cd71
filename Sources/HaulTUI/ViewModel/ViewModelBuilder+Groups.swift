import Foundation
import HaulCore

/// A list's lines as rows: a task, a group's row with its figures (DESIGN §12), a task indented beneath its group.
extension ViewModelBuilder {
    /// How far a group's tasks are indented beneath its row.
    static let memberIndent = "  "

    func line(
        _ line: ShownLine, shown: ShownRows, snapshot: QueueSnapshot, selected: TaskID?, marks: Set<TaskID>, now: Date, frame: Int
    ) -> RowViewModel {
        switch line {
        case let .task(index), let .member(index, _):
            let task = snapshot.rows[index]
            var model = row(task, selected: task.id == selected, now: now, frame: frame)
            model.isMarked = !marks.isEmpty && marks.contains(model.id)
            if case .member = line { model.name = Self.memberIndent + model.name }
            return model
        case let .group(number):
            var model = groupRow(shown.groups[number], rows: snapshot.rows, frame: frame)
            model.isSelected = model.id == selected
            model.isMarked = !marks.isEmpty && shown.groups[number].members.allSatisfy { marks.contains(snapshot.rows[$0].id) }
            return model
        }
    }

    /// A group's row: `▸ links.txt  3/5 done`, progress over the bytes of its tasks of known size, summed speed,
    /// and one state for all (`GroupSummary`).
    func groupRow(_ group: ShownGroup, rows: [QueueSnapshot.Row], frame: Int) -> RowViewModel {
        let summary = group.summary
        let fill: ProgressBar.Fill = summary.fraction.map { ProgressBar.Fill.fraction($0) } ?? (summary.state == .running ? .activity(phase: frame) : .unknown)
        var model = RowViewModel(
            id: ShownGroup.rowID(leader: rows[group.members[0]].id), isSelected: false, glyph: glyphs.waiting,
            stateRole: .stateWaiting,
            name: "\(group.isExpanded ? glyphs.groupOpen : glyphs.groupClosed) \(group.name.escapingAllControlCharacters)",
            fill: fill,
            percent: PercentFormat.text(done: summary.done, total: summary.total, isComplete: summary.state == .completed),
            size: Self.size(done: summary.done, total: summary.total, state: summary.state),
            speed: "", speedRole: .columnSpeed, eta: "", problem: nil, spinner: nil)
        model.connections = "\(summary.completed)/\(summary.count) done"
        switch summary.state {
        case .running:
            model.glyph = glyphs.running
            model.stateRole = .stateRunning
            model.speed = ByteCountFormat.rate(summary.speed)
            model.eta = DurationFormat.eta(summary.eta)
        case .waiting:
            model.speed = "waiting"
            model.speedRole = .stateWaiting
        case .paused:
            model.glyph = glyphs.paused
            model.stateRole = .statePaused
            model.speed = "paused"
            model.speedRole = .statePaused
        case .failed:
            model.glyph = glyphs.failed
            model.stateRole = .stateFailed
            model.speed = "failed"
            model.speedRole = .stateFailed
        case .completed:
            model.glyph = glyphs.completed
            model.stateRole = .stateCompleted
            model.speed = "done"
            model.speedRole = .stateCompleted
        }
        return model
    }
}
