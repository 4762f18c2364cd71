import HaulCore

/// `haul pause|resume|remove`, carried out.
enum TaskEdit {
    /// Applies an edit through the running haul when there is one, else to the queue database (the same
    /// rules either way). Unknown ids and tasks the edit does not apply to are usage errors.
    static func apply(_ action: EditAction, to selection: TaskChoice, state: StateOptions) async throws {
        let session = try QueueSession.open(stateDirectory: state.stateDirectory)
        let endpoint = try await QueueEndpoint.open(session)
        if selection.all, let every = action.everyTask {
            return try await applyToEvery(every, action, endpoint: endpoint, state: state)
        }
        let known = try await endpoint.tasks()
        let byID = Dictionary(uniqueKeysWithValues: known.map { ($0.id, $0) })
        let inState = selection.state.map { wanted in known.filter { $0.state == wanted }.map(\.id) }
        let targets: [TaskID] = inState ?? (selection.all ? known.map(\.id) : selection.ids)
        // With --all or a state, only the tasks the edit applies to; named tasks go to the controller, which says no
        // for itself (a task added a moment ago that a running haul has not read from the queue yet included: it
        // reads it when a command names it).
        let chosen = selection.isBulk ? targets.filter { byID[$0].map(action.applies) ?? false } : targets
        let commands = chosen.map(action.command)
        let results = try await endpoint.perform(commands)
        // The owner may be gone by now although it carried the commands out: a headless run ends once nothing is
        // left (after this remove or pause). The new states then follow from the lifecycle's rules.
        let now = try? await endpoint.tasks()
        let after = Dictionary(uniqueKeysWithValues: (now ?? known.compactMap(action.predicted)).map { ($0.id, $0) })
        await endpoint.close()
        var changed = 0
        var refusals: [CommandFailure] = []
        for (command, result) in zip(commands, results) {
            guard let id = command.taskID else { continue }
            if let refusal = result.failure(verb: action.verb, again: state.repeated) {
                refusals.append(refusal)
            } else {
                changed += 1
                if !selection.isBulk { print("#\(id) \(after[id]?.state.rawValue ?? "removed")") }
            }
        }
        if !refusals.isEmpty { throw CommandFailure.several(refusals) }
        if selection.isBulk {
            note("\(changed) task(s) \(action.outcome)")
        }
    }

    /// `--all` as one command for the whole queue (`pause --all`): the queue is not read to choose the tasks.
    private static func applyToEvery(
        _ command: QueueCommand, _ action: EditAction, endpoint: QueueEndpoint, state: StateOptions
    ) async throws {
        let result: CommandResult
        do {
            result = try await endpoint.perform([command])[0]
            await endpoint.close()
        } catch {
            await endpoint.close()
            throw error
        }
        if let refusal = result.failure(verb: action.verb, again: state.repeated) { throw refusal }
        guard case let .changed(count) = result else { return }
        note("\(count) task(s) \(action.outcome)")
    }
}
