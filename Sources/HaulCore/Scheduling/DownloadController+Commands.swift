import Foundation

extension DownloadController {
    /// Carries out a user's request from any front end.
    public func perform(_ command: QueueCommand) {
        loadIfNeeded()
        switch command {
        case let .add(newTasks):
            guard let added = attempt({ try store.enqueue(newTasks) }) else { return }
            for task in added {
                tasks[task.id] = task
                eventSink.yield(.added(task))
            }
        case let .pause(id):
            pause(id)
        case let .resume(id):
            resume(id)
        case .pauseAll:
            // Slots are refilled once, after every task is paused, so none starts on the way.
            for task in tasks.values where task.state == .running || task.state == .waiting {
                pause(task.id)
            }
        case .startAll:
            for task in tasks.values.sorted(by: { $0.position < $1.position })
            where task.state == .paused || task.state == .failed {
                resume(task.id)
            }
        case let .remove(id, deleteFile):
            guard let task = tasks.removeValue(forKey: id) else { return }
            backoff[id] = nil
            unrecordedProgress[id] = nil
            attempt { try store.delete([id]) }
            if inFlight.contains(id) {
                removing[id] = (task, deleteFile)
                driver.send(.pause(id))
            } else if deleteFile, task.state != .completed, let name = task.fileName {
                try? FileManager.default.removeItem(atPath: PartialFilePath.path(directory: task.directory, fileName: name))
            }
            eventSink.yield(.removed(task))
        case let .move(id, offset):
            guard tasks[id]?.state.isUnfinished == true else { return }
            attempt { try store.move(id, by: offset) }
            // Positions of neighbours changed too: read them back.
            if let all = attempt({ try store.loadAll() }) {
                for task in all { tasks[task.id]?.position = task.position }
            }
        case let .setMaxConcurrent(value):
            configuration.maxConcurrent = ConcurrencyLimit.clamped(value)
            attempt { try store.saveMaxConcurrent(configuration.maxConcurrent) }
            trimRunning()
        }
        snapshotDirty = true
        fillSlots()
        publish()
        stopIfIdle()
    }

    private func pause(_ id: TaskID) {
        guard let task = tasks[id], let paused = TaskLifecycle.pause(task) else { return }
        backoff[id] = nil
        save(paused)
        // A running task reports `paused` once the engine has synced its bytes.
        if inFlight.contains(id) {
            driver.send(.pause(id))
        } else {
            eventSink.yield(.paused(paused))
        }
    }

    private func resume(_ id: TaskID) {
        guard let task = tasks[id], let resumed = TaskLifecycle.resume(task) else { return }
        backoff[id] = nil
        save(resumed)
    }

    /// After the limit went down: put the last running tasks back in line (they resume from their bytes).
    private func trimRunning() {
        let running = tasks.values.filter { $0.state == .running }.sorted { $0.position < $1.position }
        guard running.count > configuration.maxConcurrent else { return }
        for var task in running.dropFirst(configuration.maxConcurrent) {
            // Marked waiting now; the engine's `paused` outcome leaves it waiting.
            task.state = .waiting
            save(task)
            driver.send(.pause(task.id))
        }
    }
}
