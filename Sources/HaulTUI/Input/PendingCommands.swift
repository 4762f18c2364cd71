import HaulCore

/// Commands the list has sent that the latest snapshot may not show yet, so that keys pressed in one
/// burst each act on the state the keys before them asked for: three `>` raise the limit by three, and
/// two spaces pause and then resume, although the controller answers only after the burst.
///
/// Every command the reducer reads back (pause, resume, pause all, start all, remove, the limit) is
/// applied to the snapshot's context until the snapshot shows all of them, or until `patience` has passed
/// since the last one was sent (a command the controller refused must not hold the screen for long).
/// Owned by the interactive loop; pure.
public struct PendingCommands: Sendable, Equatable {
    /// How long a prediction may outlive the last command sent.
    public static let patience: Duration = .seconds(2)

    private var commands: [QueueCommand] = []
    private var lastSent: ContinuousClock.Instant?

    public init() {}

    /// True when no sent command is waiting to show in a snapshot.
    public var isEmpty: Bool { commands.isEmpty }

    /// Records a command just sent to the controller.
    public mutating func sent(_ command: QueueCommand, at instant: ContinuousClock.Instant) {
        commands.append(command)
        lastSent = instant
    }

    /// The context the reducer should act on: `base` (from the latest snapshot) with the sent commands
    /// applied in order. Forgets them once `base` already shows their effect, or after `patience`.
    public mutating func context(over base: UIContext, now: ContinuousClock.Instant) -> UIContext {
        guard !commands.isEmpty else { return base }
        let expected = base.applying(commands)
        if expected == base || lastSent.map({ now - $0 > Self.patience }) ?? true {
            commands.removeAll()
            lastSent = nil
            return base
        }
        return expected
    }
}

extension UIContext {
    /// This context once the controller has carried out `commands` in order. A run of commands on single tasks (the
    /// marked ones paused, 10,000 finished rows cleared) is applied in one pass over the rows, not one pass each.
    public func applying(_ commands: [QueueCommand]) -> UIContext {
        var context = self
        var run: [TaskID: [QueueCommand]] = [:]
        func flush() {
            guard !run.isEmpty else { return }
            context = context.applyingToTasks(run)
            run = [:]
        }
        for command in commands {
            switch command {
            case let .pause(id), let .resume(id), let .remove(id, _), let .setTaskConnections(id, _):
                run[id, default: []].append(command)
            default:
                flush()
                context = context.applying(command)
            }
        }
        flush()
        return context
    }

    /// Each task's commands, in order, applied to its rows (the marked list included, so a second space on marks
    /// reads what the first asked for).
    private func applyingToTasks(_ run: [TaskID: [QueueCommand]]) -> UIContext {
        func update(_ rows: some Sequence<RowRef>) -> [RowRef] {
            rows.compactMap { row in
                if row.isGroup {
                    // A group's row reads its tasks' new states; it goes when they all do.
                    var group = row
                    group.members = RowList(update(row.members))
                    guard !group.members.isEmpty else { return nil }
                    group.state = GroupSummary.state(of: group.members.map(\.state))
                    return group
                }
                guard let commands = run[row.id] else { return row }
                var row = row
                for command in commands {
                    switch command {
                    case .pause: if row.state == .running || row.state == .waiting { row.state = .paused }
                    case .resume: if row.state == .paused || row.state == .failed { row.state = .waiting }
                    case .remove: return nil
                    case let .setTaskConnections(_, count): if row.state.isUnfinished { row.split = count }
                    default: break
                    }
                }
                return row
            }
        }
        var context = self
        context.downloading = RowList(update(downloading))
        context.completed = RowList(update(completed))
        context.marked = update(marked)
        return context
    }

    /// This context as it will look once the controller has carried out `command` (as far as the
    /// reducer can tell: row states, rows removed, the concurrency limit).
    public func applying(_ command: QueueCommand) -> UIContext {
        var context = self
        switch command {
        case let .pause(id):
            context.setState(of: id) { $0 == .running || $0 == .waiting ? .paused : $0 }
        case let .resume(id):
            context.setState(of: id) { $0 == .paused || $0 == .failed ? .waiting : $0 }
        case .pauseAll:
            context.downloading = RowList(downloading.map { $0.changingState { $0 == .running || $0 == .waiting ? .paused : $0 } })
        case .startAll:
            context.downloading = RowList(downloading.map { $0.changingState { $0 == .paused || $0 == .failed ? .waiting : $0 } })
        case let .remove(id, _):
            context.downloading.removeAll { $0.id == id }
            context.completed.removeAll { $0.id == id }
        case let .setMaxConcurrent(limit):
            context.maxConcurrent = limit
        case let .setOverallLimit(limit):
            context.overallLimit = limit
        case let .setTaskConnections(id, count):
            for index in context.downloading.indices where context.downloading[index].id == id {
                context.downloading[index].split = count
            }
        case .add, .move, .setTaskLimit, .setURL, .setMirrors, .setSchedule, .suspendSchedule, .resumeAll, .removeAll:
            break  // the reducer reads nothing these change before the snapshot shows them
        }
        return context
    }

    private mutating func setState(of id: TaskID, _ change: (TaskState) -> TaskState) {
        if let index = downloading.firstIndex(where: { $0.id == id }) {
            downloading[index].state = change(downloading[index].state)
        }
    }
}

extension UIContext.RowRef {
    /// This row with its state changed by `change`; a group's row changes its tasks' and reads their new state.
    func changingState(_ change: (TaskState) -> TaskState) -> UIContext.RowRef {
        var row = self
        if isGroup {
            row.members = UIContext.RowList(members.map { $0.changingState(change) })
            row.state = GroupSummary.state(of: row.members.map(\.state))
        } else {
            row.state = change(state)
        }
        return row
    }
}
