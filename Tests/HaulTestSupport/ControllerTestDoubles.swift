import Foundation
import HaulCore

/// A store in memory with the protocol's semantics, for controller tests (the SQLite store has its own suite).
public final class MemoryTaskStore: TaskStore {
    public init() {}
    private struct State {
        var tasks: [TaskID: DownloadTask] = [:]
        var nextID: Int64 = 1
        var maxConcurrent: Int?
        var schedule: Schedule?
        var token: Int64 = 0
        var progressWrites = 0
    }

    private let state = PthreadMutex(State())

    public func loadAll() throws -> [DownloadTask] {
        state.withLock { state in
            let all = Array(state.tasks.values)
            return all.filter { $0.state != .completed }.sorted { $0.position < $1.position }
                + all.filter { $0.state == .completed }
        }
    }

    public func load(_ ids: [TaskID]) throws -> [DownloadTask] { state.withLock { s in ids.compactMap { s.tasks[$0] } } }

    public func enqueue(_ tasks: [NewTask]) throws -> [DownloadTask] {
        state.withLock { state in
            tasks.map { new in
                let id = TaskID(state.nextID)
                state.nextID += 1
                var task = DownloadTask(
                    id: id, url: new.url, directory: new.directory, requestedName: new.requestedName,
                    position: id.rawValue, checksum: new.checksum, headers: new.headers)
                task.requestOptions = new.requestOptions
                task.fileName = new.adoptedPart?.fileName
                task.bytesDone = new.adoptedPart?.bytes ?? 0
                task.mirrors = new.mirrors
                task.page = new.page
                task.group = new.group
                state.tasks[id] = task
                return task
            }
        }
    }

    public func save(_ tasks: [DownloadTask]) throws {
        state.withLock { state in for task in tasks where state.tasks[task.id] != nil { state.tasks[task.id] = task } }
    }

    public func recordProgress(_ durableBytes: [TaskID: Int64]) throws {
        state.withLock { state in
            state.progressWrites += 1
            for (id, bytes) in durableBytes { state.tasks[id]?.bytesDone = bytes }
        }
    }

    public func recordSegments(_ segments: [TaskID: [SegmentRecord]]) throws {
        state.withLock { state in for (id, records) in segments { state.tasks[id]?.segments = records } }
    }

    public func markPaused(_ ids: [TaskID]) throws {
        state.withLock { state in for id in ids { state.tasks[id]?.state = .paused } }
    }

    public func pauseEveryTask() throws -> Int {
        state.withLock { state in
            let ids = state.tasks.values.filter { $0.state == .waiting || $0.state == .running }.map(\.id)
            for id in ids { state.tasks[id]?.state = .paused }
            return ids.count
        }
    }

    public func markResumed(_ ids: [TaskID]) throws {
        state.withLock { state in for id in ids { state.tasks[id].map { state.tasks[id] = Self.resumed($0) } } }
    }

    public func resumeEveryTask(in states: [TaskState]) throws -> Int {
        state.withLock { state in
            let ids = state.tasks.values.filter { states.contains($0.state) }.map(\.id)
            for id in ids { state.tasks[id].map { state.tasks[id] = Self.resumed($0) } }
            return ids.count
        }
    }

    /// What the SQLite store writes of a resumed task: its state, attempts and error.
    private static func resumed(_ task: DownloadTask) -> DownloadTask {
        var task = task
        task.state = .waiting
        task.attempts = 0
        task.lastError = nil
        return task
    }

    public func page(after: TaskID?, in states: [TaskState]?, kind: TaskKind?, limit: Int) throws -> [DownloadTask] {
        state.withLock { state in
            Array(state.tasks.values
                .filter { $0.id.rawValue > (after?.rawValue ?? .min) && (states?.contains($0.state) ?? true) && (kind == nil || $0.kind == kind) }
                .sorted { $0.id < $1.id }
                .prefix(limit))
        }
    }

    public func delete(_ ids: [TaskID]) throws { state.withLock { s in for id in ids { s.tasks[id] = nil } } }

    public func move(_ id: TaskID, by offset: Int) throws {}

    public func externalChangeToken() throws -> Int64 { state.withLock { $0.token } }

    public func loadMaxConcurrent() throws -> Int? { state.withLock { $0.maxConcurrent } }

    public func saveMaxConcurrent(_ value: Int) throws { state.withLock { $0.maxConcurrent = value } }

    public func loadSchedule() throws -> Schedule? { state.withLock { $0.schedule } }

    public func saveSchedule(_ schedule: Schedule) throws { state.withLock { $0.schedule = schedule } }

    /// Adds a task as another process would (bumping the change token).
    public func externalAdd(_ task: NewTask) throws {
        _ = try enqueue([task])
        state.withLock { $0.token += 1 }
    }

    public func task(_ id: Int64) -> DownloadTask? { state.withLock { $0.tasks[TaskID(id)] } }
}

/// A transfer driver the test plays: it records commands and emits the events the test chooses.
public final class ScriptedDriver: TransferDriver {
    public let events: AsyncStream<TransferEvent>
    private let continuation: AsyncStream<TransferEvent>.Continuation
    private let sent = PthreadMutex<[TransferCommand]>([])

    public init() {
        (events, continuation) = AsyncStream.makeStream(of: TransferEvent.self)
    }

    public func send(_ command: TransferCommand) {
        sent.withLock { $0.append(command) }
        if command == .shutdown {
            // Like the engine: every running transfer stops with its bytes, then the stream ends.
            for id in running { continuation.yield(.finished(id, .paused(durableBytes: 0))) }
            continuation.finish()
        }
    }

    public func emit(_ event: TransferEvent) { continuation.yield(event) }

    public var commands: [TransferCommand] { sent.withLock { $0 } }

    /// Ids started and not yet finished or paused by a command.
    public var started: [TaskID] {
        commands.compactMap { if case let .start(request) = $0 { return request.id } else { return nil } }
    }

    public var running: [TaskID] {
        var ids: [TaskID] = []
        for command in commands {
            switch command {
            case let .start(request): ids.append(request.id)
            case let .pause(id), let .stopRecording(id), let .deletePart(id, _, _): ids.removeAll { $0 == id }
            case .shutdown, .setOverallLimit, .setTaskLimit, .setTaskConnections: break
            }
        }
        return ids
    }
}

public func newTasks(_ count: Int) -> [NewTask] {
    (1...count).map { NewTask(url: "http://127.0.0.1/f\($0).bin", directory: "/tmp/haul-tests") }
}
