import Foundation
import HaulCore
import HaulTUI
import Synchronization

/// The live list over a made-up queue that moves by itself: for trying the screen in a terminal
/// without the engine (a hidden flag of the executable calls `runDemo`). Keys work: pause, resume,
/// add, remove, move and the limit change the fake queue as the controller would.
public enum PreviewSession {
    /// Runs until `q`, Ctrl-C or SIGTERM; returns false when there is no usable terminal.
    @discardableResult
    public static func runDemo(theme: Theme = BuiltinTheme.default) -> Bool {
        let queue = DemoQueue()
        let stop = StopFlag()
        let signals = [SIGINT, SIGTERM, SIGHUP].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { stop.set() }
            source.resume()
            return source
        }
        let ticker = Thread {
            while !stop.isSet {
                queue.advance(by: 0.25)
                Thread.sleep(forTimeInterval: 0.25)
            }
        }
        ticker.start()
        defer {
            stop.set()
            signals.forEach { $0.cancel() }
        }
        do {
            _ = try InteractiveSession.run(
                snapshots: queue.box, send: { queue.apply($0) },
                options: TerminalOptions(theme: theme, downloadDirectory: NSTemporaryDirectory()),
                stopRequested: { stop.isSet })
            return true
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            return false
        }
    }
}

/// A flag set from a signal handler's queue and read by the key loop.
final class StopFlag: Sendable {
    private let value = Atomic(false)
    func set() { value.store(true, ordering: .relaxed) }
    var isSet: Bool { value.load(ordering: .relaxed) }
}

/// A fake queue that behaves roughly like the controller: N running at a time, FIFO, speeds that wander.
final class DemoQueue: Sendable {
    let box = SnapshotBox()
    private let state = Mutex(State())

    struct State {
        var rows: [QueueSnapshot.Row] = []
        var maxConcurrent = 3
        var sequence: UInt64 = 0
        var nextID: Int64 = 1
        var clock: Double = 0
    }

    init() {
        let mib: Int64 = 1 << 20
        let samples: [(String, Int64?, TaskState, Int64, String?)] = [
            ("電影.第01集.mp4", 1024 * mib, .running, 300 * mib, nil),
            ("ubuntu-24.04-desktop-amd64.iso", 5837 * mib, .running, 1200 * mib, nil),
            ("live-stream-recording.ts", nil, .running, 40 * mib, nil),
            ("dataset.tar.zst", 1024 * mib, .paused, 301 * mib, nil),
            ("notes.pdf", nil, .waiting, 0, nil),
            ("한국어-자막.srt", 2 * mib, .waiting, 0, nil),
            ("broken.bin", nil, .failed, 0, "HTTP 404 Not Found from example.org"),
            ("😀 emoji name.png", 3 * mib, .completed, 3 * mib, nil),
        ]
        state.withLock { state in
            for (name, total, taskState, done, error) in samples {
                let task = DownloadTask(
                    id: TaskID(state.nextID), url: "https://user:secret@example.org/files/\(state.nextID)", directory: "/tmp",
                    fileName: name, state: taskState, position: state.nextID, bytesDone: done, totalBytes: total,
                    attempts: error == nil ? 1 : 5, lastError: error)
                state.rows.append(QueueSnapshot.Row(task: task, bytesReceived: done))
                state.nextID += 1
            }
            publish(&state)
        }
    }

    /// Moves time on: running tasks receive bytes, finished ones complete, free slots fill.
    func advance(by seconds: Double) {
        state.withLock { state in
            state.clock += seconds
            for index in state.rows.indices where state.rows[index].task.state == .running {
                let id = Double(state.rows[index].task.id.rawValue)
                let speed = (1.5 + sin(state.clock / 3 + id)) * Double(1 << 20) * (id + 1)
                var row = state.rows[index]
                row.bytesReceived += Int64(speed * seconds)
                row.speed = speed
                if let total = row.task.totalBytes {
                    if row.bytesReceived >= total {
                        row.bytesReceived = total
                        row.task.state = .completed
                        row.task.finishedAt = Date()
                        row.speed = nil
                    }
                    row.eta = Double(total - row.bytesReceived) / speed
                }
                row.task.bytesDone = row.bytesReceived
                state.rows[index] = row
            }
            fill(&state)
            publish(&state)
        }
    }

    /// Carries out a command the way the controller would.
    func apply(_ command: QueueCommand) {
        state.withLock { state in
            func update(_ id: TaskID, _ change: (inout QueueSnapshot.Row) -> Void) {
                if let index = state.rows.firstIndex(where: { $0.id == id }) { change(&state.rows[index]) }
            }
            switch command {
            case let .pause(id): update(id) { $0.task.state = .paused; $0.speed = nil; $0.eta = nil }
            case let .resume(id): update(id) { $0.task.state = .waiting; $0.task.lastError = nil }
            case .pauseAll:
                for index in state.rows.indices where [.running, .waiting].contains(state.rows[index].task.state) {
                    state.rows[index].task.state = .paused
                    state.rows[index].speed = nil
                }
            case .startAll:
                for index in state.rows.indices where [.paused, .failed].contains(state.rows[index].task.state) {
                    state.rows[index].task.state = .waiting
                }
            case let .add(tasks):
                for new in tasks {
                    let task = DownloadTask(
                        id: TaskID(state.nextID), url: new.url, directory: new.directory, state: .waiting, position: state.nextID,
                        totalBytes: 50 << 20)
                    state.rows.insert(QueueSnapshot.Row(task: task, bytesReceived: 0), at: state.rows.lastIndex { $0.task.state != .completed }.map { $0 + 1 } ?? 0)
                    state.nextID += 1
                }
            case let .remove(id, _): state.rows.removeAll { $0.id == id }
            case let .move(id, by):
                guard let index = state.rows.firstIndex(where: { $0.id == id }) else { break }
                let target = min(max(0, index + by), state.rows.count - 1)
                guard state.rows[target].task.state != .completed else { break }
                state.rows.swapAt(index, target)
            case let .setMaxConcurrent(limit): state.maxConcurrent = limit
            }
            fill(&state)
            publish(&state)
        }
    }

    private func fill(_ state: inout State) {
        var running = state.rows.filter { $0.task.state == .running }.count
        for index in state.rows.indices {
            if running > state.maxConcurrent, state.rows[index].task.state == .running {
                state.rows[index].task.state = .waiting
                state.rows[index].speed = nil
                running -= 1
            } else if running < state.maxConcurrent, state.rows[index].task.state == .waiting {
                state.rows[index].task.state = .running
                running += 1
            }
        }
    }

    private func publish(_ state: inout State) {
        state.sequence += 1
        let unfinished = state.rows.filter { $0.task.state.isUnfinished }
        let completed = state.rows.filter { $0.task.state == .completed }.sorted { ($0.task.finishedAt ?? .distantPast) > ($1.task.finishedAt ?? .distantPast) }
        let speeds = unfinished.compactMap(\.speed)
        box.publish(QueueSnapshot(
            rows: unfinished + completed, maxConcurrent: state.maxConcurrent,
            totalSpeed: speeds.isEmpty ? nil : speeds.reduce(0, +), sequence: state.sequence))
    }
}
