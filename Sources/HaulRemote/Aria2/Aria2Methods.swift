import Foundation
import HaulCore

/// aria2's RPC methods on haul's queue (DESIGN §6). Each takes the params after the token and returns
/// the result, or throws the error aria2 would give.
struct Aria2Methods: Sendable {
    let access: any QueueAccess
    let state: RemoteState
    /// The intake and the run's settings, replaced when the settings file is read again.
    let live: RPCIntakeSettings
    /// The one intake, restricted to the default directory and `--rpc-allowed-dir` ones.
    var intake: TaskIntake { live.read().intake }
    /// The run's settings, for `getGlobalOption` and `getOption`.
    var runOptions: Aria2RunOptions { live.read().runOptions }
    /// Sets options of the run that change live (`changeGlobalOption`), all or none; says why when it cannot.
    let changeRunOptions: @Sendable ([OptionKey: SettingValue]) async -> String?
    /// Asks a task's new link at once (`changeUri`), as `haul set-url` does.
    let checkNewLink: @Sendable (DownloadTask, String) async -> NewLinkAnswer

    // MARK: - Adding and removing

    func addUri(_ params: [JSONValue]) async throws(RPCError) -> JSONValue {
        guard let uris = params.first?.arrayValue, let first = uris.first?.stringValue else {
            throw .failed("No URI to download.")
        }
        // What the call gave for this download wins over the settings file's rules (`TaskRequest.given`).
        let options = try Aria2TaskOptions(params.count > 1 ? (params[1].objectValue ?? [:]) : [:], url: first)
        var request = options.request
        // aria2: every URI of the list points at the same file (mirrors).
        request.mirrors = uris.dropFirst().compactMap(\.stringValue)
        if params.count > 2, let position = params[2].integerValue { request.position = Int(clamping: max(0, position)) }
        let newTask: NewTask
        do {
            newTask = try intake.newTask(request)
        } catch {
            throw .failed(error.description)
        }
        // One step: the task is in its place with its cap and connections before anything can start it.
        let result = await access.perform([.add([newTask])])[0]
        switch result {
        case let .added(new, reused):
            guard let task = new.first ?? reused.first else { throw .failed("The download was not added.") }
            if reused.isEmpty { await state.recordIgnored(options.ignored, for: task.id) }
            return .string(task.id.gid)
        case let .storeFailed(message):
            throw .failed(message)
        default:
            throw .failed("The download was not added.")
        }
    }

    func remove(_ params: [JSONValue]) async throws(RPCError) -> JSONValue {
        let id = try Aria2GID.taskID(params.first)
        let row = try row(id)
        guard row.task.state.isUnfinished, row.task.state != .failed else {
            throw .failed("Active Download not found for GID#\(id.gid)")
        }
        try await run(.remove(id, deleteFile: false), id)
        await state.recordRemoval(row.task)
        return .string(id.gid)
    }

    func removeDownloadResult(_ params: [JSONValue]) async throws(RPCError) -> JSONValue {
        let id = try Aria2GID.taskID(params.first)
        if await state.forget(id) { return "OK" }
        guard let row = access.snapshot().rows.first(where: { $0.id == id }),
              row.task.state == .completed || row.task.state == .failed else {
            throw .failed("Could not remove download result of GID#\(id.gid)")
        }
        // The result goes from the list; a finished file stays on disk.
        try await run(.remove(id, deleteFile: false), id)
        await state.forget(id)
        return "OK"
    }

    func purgeDownloadResult() async -> JSONValue {
        let stopped = access.snapshot().rows.filter { $0.task.state == .completed || $0.task.state == .failed }
        _ = await access.perform(stopped.map { .remove($0.id, deleteFile: false) })
        await state.forgetAll()
        return "OK"
    }

    // MARK: - Pausing

    func pause(_ params: [JSONValue]) async throws(RPCError) -> JSONValue {
        let id = try Aria2GID.taskID(params.first)
        let row = try row(id)
        guard row.task.state == .running || row.task.state == .waiting else {
            throw .failed("GID#\(id.gid) cannot be paused now")
        }
        try await run(.pause(id), id)
        return .string(id.gid)
    }

    func unpause(_ params: [JSONValue]) async throws(RPCError) -> JSONValue {
        let id = try Aria2GID.taskID(params.first)
        let row = try row(id)
        guard row.task.state == .paused else {
            throw .failed("GID#\(id.gid) cannot be unpaused now")
        }
        try await run(.resume(id), id)
        return .string(id.gid)
    }

    func pauseAll() async -> JSONValue {
        _ = await access.perform([.pauseAll])
        return "OK"
    }

    func unpauseAll() async -> JSONValue {
        _ = await access.perform([.resumeAll(only: .paused)])
        return "OK"
    }

    // MARK: - Status

    func tellStatus(_ params: [JSONValue]) async throws(RPCError) -> JSONValue {
        let id = try Aria2GID.taskID(params.first)
        let keys = Self.keys(params, at: 1)
        if let row = access.snapshot().rows.first(where: { $0.id == id }) { return Aria2Status.object(for: row, keys: keys) }
        if let removed = await state.removedTask(id) { return Aria2Status.removedObject(for: removed, keys: keys) }
        throw Self.notFound(id)
    }

    func tellActive(_ params: [JSONValue]) -> JSONValue {
        let keys = Self.keys(params, at: 0)
        return .array(access.snapshot().running.map { Aria2Status.object(for: $0, keys: keys) })
    }

    /// Waiting and paused tasks in queue order, as JSON text: each status object is built and encoded in turn.
    func tellWaiting(_ params: [JSONValue]) throws(RPCError) -> [UInt8] {
        // Pages positions, not rows: a copy of ten thousand rows for a page of a thousand outlives the answer in
        // the allocator's free lists.
        let snapshot = access.snapshot()
        let page = try Self.page(Self.waitingIndices(snapshot), params)
        let keys = Self.keys(params, at: 2)
        return RPCDispatcher.encodeElementwise(page.lazy.map { Aria2Status.object(for: snapshot.rows[$0], keys: keys) })
    }

    /// Completed, failed and removed tasks, oldest first.
    func tellStopped(_ params: [JSONValue]) async throws(RPCError) -> JSONValue {
        let keys = Self.keys(params, at: 2)
        var entries: [(order: Double, value: JSONValue)] = []
        for row in access.snapshot().rows where row.task.state == .completed || row.task.state == .failed {
            let order = (row.task.finishedAt ?? row.task.createdAt).timeIntervalSince1970
            entries.append((order, Aria2Status.object(for: row, keys: keys)))
        }
        for task in await state.removed {
            entries.append(((task.finishedAt ?? task.createdAt).timeIntervalSince1970, Aria2Status.removedObject(for: task, keys: keys)))
        }
        entries.sort { $0.order < $1.order }
        return .array(try Self.page(entries.map(\.value), params))
    }

    func getFiles(_ params: [JSONValue]) async throws(RPCError) -> JSONValue {
        let id = try Aria2GID.taskID(params.first)
        if let row = access.snapshot().rows.first(where: { $0.id == id }) {
            let total = row.task.totalBytes ?? 0
            return .array([Aria2Status.file(of: row.task, total: total, done: row.bytesReceived)])
        }
        if let removed = await state.removedTask(id) {
            return .array([Aria2Status.file(of: removed, total: removed.totalBytes ?? 0, done: removed.bytesDone)])
        }
        throw Self.notFound(id)
    }

    func getUris(_ params: [JSONValue]) throws(RPCError) -> JSONValue {
        let id = try Aria2GID.taskID(params.first)
        return Aria2Status.uris(of: try row(id).task)
    }

    func getGlobalStat() async -> JSONValue {
        let snapshot = access.snapshot()
        let removed = await state.removed.count
        let stopped = snapshot.count(of: .completed) + snapshot.count(of: .failed) + removed
        return [
            "downloadSpeed": .string(String(max(0, (snapshot.totalSpeed ?? 0).clampedInt64(.towardZero)))),
            "uploadSpeed": "0",
            "numActive": .string(String(snapshot.count(of: .running))),
            "numWaiting": .string(String(snapshot.count(of: .waiting) + snapshot.count(of: .paused))),
            "numStopped": .string(String(stopped)),
            "numStoppedTotal": .string(String(stopped)),
        ]
    }

    // MARK: - Queue order and options

    func changePosition(_ params: [JSONValue]) async throws(RPCError) -> JSONValue {
        let id = try Aria2GID.taskID(params.first)
        guard params.count >= 3, let position = params[1].integerValue, let how = params[2].stringValue else {
            throw .failed("Illegal argument.")
        }
        return .int(Int64(try await changePosition(id, to: position, how: how)))
    }

    /// Moves a waiting or paused task in aria2's waiting list; returns its new index there.
    private func changePosition(_ id: TaskID, to position: Int64, how: String) async throws(RPCError) -> Int {
        let snapshot = access.snapshot()
        let waiting = Self.waitingRows(snapshot)
        guard let current = waiting.firstIndex(where: { $0.id == id }) else {
            throw .failed("GID#\(id.gid) not found in the waiting queue.")
        }
        let base: Int64
        switch how {
        case "POS_SET": base = 0
        case "POS_CUR": base = Int64(current)
        case "POS_END": base = Int64(waiting.count - 1)
        default: throw .failed("Illegal argument.")
        }
        let (sum, overflow) = base.addingReportingOverflow(position)
        let target = Int(max(0, min(Int64(waiting.count - 1), overflow ? (position < 0 ? 0 : Int64.max) : sum)))
        guard target != current else { return current }
        // The controller moves among every unfinished task: step to where the task now at `target` stands.
        let unfinished = snapshot.downloadingIndices.map { snapshot.rows[$0].id }
        guard let from = unfinished.firstIndex(of: id), let to = unfinished.firstIndex(of: waiting[target].id) else {
            return current
        }
        try await run(.move(id, by: to - from), id)
        return Self.waitingRows(access.snapshot()).firstIndex { $0.id == id } ?? target
    }

    /// The download's options; `haul-ignored` names those its `addUri` accepted without effect.
    func getOption(_ params: [JSONValue]) async throws(RPCError) -> JSONValue {
        let row = try row(try Aria2GID.taskID(params.first))
        var options = runOptions.options(of: row)
        if let ignored = await state.ignoredOptions[row.task.id] { options["haul-ignored"] = .string(ignored.joined(separator: ",")) }
        return .object(options)
    }

    /// A download's connections and cap change live (`split`, `max-download-limit`); harmless options are ignored
    /// by name; any other gets aria2's error naming it, and nothing changes.
    func changeOption(_ params: [JSONValue]) async throws(RPCError) -> JSONValue {
        let id = try Aria2GID.taskID(params.first)
        _ = try row(id)
        let changes = params.count > 1 ? (params[1].objectValue ?? [:]) : [:]
        let options = try Aria2TaskOptions(changes)
        let transfer = options.request.transfer
        var commands: [QueueCommand] = []
        for key in changes.keys.sorted() where !Aria2TaskOptions.isHarmless(key) {
            switch OptionRegistry.aria2Named(key)?.key {
            case .split?: commands.append(.setTaskConnections(id, transfer.split ?? 1))
            case .limitRate?: commands.append(.setTaskLimit(id, RateLimit(bytesPerSecond: transfer.rateLimit ?? 0)))
            default: throw Aria2TaskOptions.refused(key)
            }
        }
        for command in commands { try await run(command, id) }
        return "OK"
    }

    /// `aria2.changeUri(gid, fileIndex, delUris, addUris[, position])`: a task has one link, so the first of
    /// `addUris` replaces it, kept bytes and all when it serves the same file (DESIGN §8). Answers
    /// `[deleted, added]` as aria2 does.
    func changeUri(_ params: [JSONValue]) async throws(RPCError) -> JSONValue {
        let id = try Aria2GID.taskID(params.first)
        let task = try row(id).task
        guard params.count >= 4 else { throw .invalidParams }
        guard params[1].integerValue == 1 else { throw .failed("fileIndex is out of range: GID#\(id.gid) has one file") }
        guard let deleting = params[2].arrayValue, let adding = params[3].arrayValue else {
            throw .invalidParams
        }
        // aria2's rule on the file's links (the task's link, then its mirrors): each of delUris removes one
        // equal link, then addUris go in at `position` (the end without it). The first link is the task's.
        var links = [task.url] + task.mirrors
        var deleted = 0
        for uri in deleting {
            guard let text = uri.stringValue else { throw .invalidParams }
            if let index = links.firstIndex(of: text) {
                links.remove(at: index)
                deleted += 1
            }
        }
        let added = try adding.map { uri throws(RPCError) -> String in
            guard let text = uri.stringValue else { throw .invalidParams }
            return text
        }
        let position = params.count > 4 ? params[4].integerValue.map { Int(clamping: $0) } : nil
        links.insert(contentsOf: added, at: min(max(0, position ?? links.count), links.count))
        guard let main = links.first else { throw .failed("GID#\(id.gid) keeps one link: give the new one in addUris") }
        // The mirrors are checked before anything changes: a new link was taken, then its mirrors refused.
        do throws(IntakeError) {
            _ = try TaskIntake.mirrors(Array(links.dropFirst()), of: (try? TaskIntake.url(main)) ?? main)
        } catch {
            throw .failed("GID#\(id.gid): the links were not changed: \(error)")
        }
        var commands: [QueueCommand] = []
        if main != task.url {
            // Asked before anything changes: a link to another file is refused now, the task keeps its link.
            if case let .refused(why) = await checkNewLink(task, main) {
                throw .failed("GID#\(id.gid): the link was not changed: \(why)")
            }
            commands.append(.setURL(id, url: main, change: .sameFile))
        }
        if Array(links.dropFirst()) != task.mirrors { commands.append(.setMirrors(id, Array(links.dropFirst()))) }
        for command in commands { try await run(command, id) }
        return .array([.int(Int64(deleted)), .int(Int64(added.count))])
    }

    /// Every option of the run under aria2's names, defaults included; the concurrency and the overall cap as the
    /// queue has them now (the list's keys change them too).
    func getGlobalOption() async -> JSONValue {
        let snapshot = access.snapshot()
        var options = runOptions.global
        for (key, value) in [(OptionKey.maxConcurrent, SettingValue.int(snapshot.maxConcurrent)),
                             (.maxOverallDownloadLimit, .string(String(snapshot.overallLimit?.bytesPerSecond ?? 0)))] {
            if let name = OptionRegistry[key].aria2?.name { options[name] = Aria2RunOptions.shown(value, of: OptionRegistry[key]) }
        }
        return .object(options)
    }

    /// Sets every option of the run that changes live (`OptionRegistry`: `split`, `max-connection-per-server`,
    /// `max-tries`, `timeout`, `user-agent`, `all-proxy`, …), for downloads started or added from then on, until
    /// haul starts again. All are checked first: one refused changes nothing. Harmless options and facts given their
    /// value are accepted without effect; an option haul cannot change live (the hooks, the directory RPC may not
    /// leave) gets aria2's error naming it.
    func changeGlobalOption(_ params: [JSONValue]) async throws(RPCError) -> JSONValue {
        guard let options = params.first?.objectValue else { throw .failed("Illegal argument.") }
        var changes: [OptionKey: SettingValue] = [:]
        for name in options.keys.sorted() {
            let value = options[name]!
            let text = Aria2TaskOptions.text(value)
            if Aria2TaskOptions.isHarmless(name) || text.map({ Aria2Facts.holds(name, $0) }) == true { continue }
            // Never where downloads go or which files haul reads for the whole run: those stay the user's own.
            guard let definition = OptionRegistry.aria2Named(name), definition.change == .live, definition.key != .dir,
                  !definition.namesFile
            else {
                throw Aria2TaskOptions.refused(name)
            }
            let setting = definition.kind == .strings
                ? Aria2TaskOptions.lines(value, splitting: true) : text.flatMap { Aria2Form.value($0, kind: definition.kind) }
            guard let setting else { throw Aria2TaskOptions.refused(name, text.map { Aria2Form.refusal($0, kind: definition.kind) }) }
            if let problem = definition.check(setting) { throw Aria2TaskOptions.refused(name, problem) }
            changes[definition.key] = setting
        }
        var commands: [QueueCommand] = []
        if let count = changes.removeValue(forKey: .maxConcurrent)?.intValue { commands.append(.setMaxConcurrent(count)) }
        if let cap = changes.removeValue(forKey: .maxOverallDownloadLimit)?.stringValue {
            commands.append(.setOverallLimit(try? RateLimit.parse(cap)))
        }
        if !changes.isEmpty, let problem = await changeRunOptions(changes) { throw .failed(problem) }
        if !commands.isEmpty { _ = await access.perform(commands) }
        return "OK"
    }

    // MARK: - Helpers

    static func waitingRows(_ snapshot: QueueSnapshot) -> [QueueSnapshot.Row] {
        waitingIndices(snapshot).map { snapshot.rows[$0] }
    }

    /// Where the waiting and paused rows are in `snapshot`, in queue order.
    static func waitingIndices(_ snapshot: QueueSnapshot) -> [Int] {
        snapshot.rows.indices.filter { snapshot.rows[$0].task.state == .waiting || snapshot.rows[$0].task.state == .paused }
    }

    /// The `offset, num` page of a list as aria2 takes it: a negative offset counts from the end and
    /// gives the list in reverse order.
    static func page<T>(_ items: [T], _ params: [JSONValue]) throws(RPCError) -> [T] {
        guard params.count >= 2, let offset = params[0].integerValue, let num = params[1].integerValue else {
            throw .failed("Illegal argument.")
        }
        guard num > 0, !items.isEmpty else { return [] }
        let count = Int64(items.count)
        if offset >= 0 {
            guard offset < count else { return [] }
            return Array(items[Int(offset)..<Int(min(count, offset + min(num, count)))])
        }
        let start = count + max(offset, -count)
        guard start >= 0, offset >= -count else { return [] }
        let end = max(-1, start - min(num, count))
        return stride(from: Int(start), to: Int(end), by: -1).map { items[$0] }
    }

    /// The key filter at `index`, if any.
    static func keys(_ params: [JSONValue], at index: Int) -> Set<String>? {
        guard params.count > index, let list = params[index].arrayValue else { return nil }
        return Set(list.compactMap(\.stringValue))
    }

    static func notFound(_ id: TaskID) -> RPCError { .failed("GID \(id.gid) is not found") }

    private func row(_ id: TaskID) throws(RPCError) -> QueueSnapshot.Row {
        guard let row = access.snapshot().rows.first(where: { $0.id == id }) else { throw Self.notFound(id) }
        return row
    }

    /// Carries out one command for a task and turns its result into aria2's error when it failed.
    private func run(_ command: QueueCommand, _ id: TaskID) async throws(RPCError) {
        switch await access.perform([command])[0] {
        case .done, .changed, .added: return
        case .unknownTask: throw Self.notFound(id)
        case let .notAllowed(_, state): throw .failed("GID#\(id.gid) is \(Aria2Status.word(for: state))")
        case let .storeFailed(message), let .rejected(message): throw .failed(message)
        }
    }
}
