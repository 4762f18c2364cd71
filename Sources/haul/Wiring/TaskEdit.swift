import HaulCore

/// `haul pause|resume|remove`, carried out.
enum TaskEdit {
    /// Applies an edit through the running haul when there is one, else to the queue database (the same
    /// rules either way). Unknown ids and tasks the edit does not apply to are usage errors.
    static func apply(_ action: EditAction, to selection: TaskChoice, state: StateOptions) async throws {
        let session = try QueueSession.open(stateDirectory: state.stateDirectory)
        let endpoint = try await QueueEndpoint.open(session)
        if selection.isBulk {
            return try await applyToEvery(action.everyTask(in: selection.state), action, endpoint: endpoint, state: state)
        }
        let known = try await endpoint.tasks()
        // Named tasks go to the controller, which says no for itself (a task added a moment ago that a running haul
        // has not read from the queue yet included: it reads it when a command names it).
        let commands = selection.ids.map(action.command)
        let results = try await endpoint.perform(commands)
        // The owner may be gone by now although it carried the commands out: a headless run ends once nothing is
        // left (after this remove or pause). The new states then follow from the lifecycle's rules.
        let now = try? await endpoint.tasks()
        let after = Dictionary(uniqueKeysWithValues: (now ?? known.compactMap(action.predicted)).map { ($0.id, $0) })
        await endpoint.close()
        var refusals: [CommandFailure] = []
        for (command, result) in zip(commands, results) {
            guard let id = command.taskID else { continue }
            if let refusal = result.failure(verb: action.verb, again: state.repeated) {
                refusals.append(refusal)
            } else {
                print("#\(id) \(after[id]?.state.rawValue ?? "removed")")
            }
        }
        if !refusals.isEmpty { throw CommandFailure.several(refusals) }
    }

    /// `--all` or a state as one command for the whole queue (`pause --all`, `remove --completed`): the queue is not
    /// read to choose the tasks; the command changes those the edit applies to.
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
