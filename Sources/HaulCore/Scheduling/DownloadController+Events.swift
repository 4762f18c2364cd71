import Foundation

extension DownloadController {
    /// Carries out one engine event. Events arrive in the order the engine produced them.
    func apply(_ event: TransferEvent) {
        switch event {
        case let .responded(id, response):
            guard var task = tasks[id], runtime[id].removal == nil else { return }
            task.kind = response.kind
            task.fileName = response.fileName
            task.totalBytes = response.totalBytes
            // A category by content type chose the directory before the name was decided; the choice is made once.
            if let directory = response.directory {
                task.directory = directory
                task.requestOptions.category = response.category
            }
            task.requestOptions.contentTypeDirectories = nil
            task.validators = response.validators
            task.bytesDone = min(task.bytesDone, response.offset)
            // The new link's first answer passed its check (or the task started over): the link is the task's now.
            task.linkChange = nil
            // Continued by a 206, the part file lent by -c is the task's; otherwise the engine gave it back.
            task.requestOptions.continuesPartialFile = nil
            // A web page kept as a file (no yt-dlp to ask): details and `list --json` say why, and what would fetch its video.
            if response.webPage, task.page == nil, let note = configuration.pageExtraction.note {
                task.page = WebPage(url: task.url, note: note)
                announce(.warning("#\(id) \(URLValidation.redacted(task.url)) is \(note)"))
            }
            if let reason = response.restartReason {
                task.lastError = "restarted from byte 0: \(reason)"
                announce(.restarted(task, reason: reason))
            }
            runtime[id].attempt?.position = response.offset
            runtime[id].attempt?.meter.reset()
            save(task)

        case let .progress(batch):
            let now = ContinuousClock.now
            for (id, position) in batch {
                runtime[id].attempt?.position = position
                runtime[id].attempt?.meter.record(position: position, at: now)
            }

        case let .checkpoint(id, bytes):
            guard var task = tasks[id], runtime[id].removal == nil else { return }
            task.bytesDone = bytes
            // Bytes back to 0: the engine gave a lent part file back before starting over.
            if bytes == 0, task.holdsLentPart {
                task.requestOptions.continuesPartialFile = nil
                save(task)
            }
            tasks[id] = task
            runtime[id].unrecordedBytes = bytes
            flushProgressSoon()

        case let .segmentCheckpoint(id, segments, bytes):
            guard var task = tasks[id], runtime[id].removal == nil else { return }
            task.bytesDone = bytes
            task.segments = segments
            tasks[id] = task
            runtime[id].unrecordedBytes = bytes
            runtime[id].unrecordedSegments = segments
            flushProgressSoon()

        case let .streamResolved(id, info, fileName, bandwidth):
            guard var task = tasks[id], runtime[id].removal == nil else { return }
            task.fileName = fileName
            task.stream = info
            task.totalBytes = info.estimatedTotal(bandwidth: bandwidth)
            task.bytesDone = info.appendedBytes
            save(task)
            announce(.stream(task))

        case let .streamCheckpoint(id, info):
            guard var task = tasks[id], runtime[id].removal == nil else { return }
            task.stream = info
            task.bytesDone = info.appendedBytes
            if let estimate = info.estimatedTotal() { task.totalBytes = estimate }
            saveFigures(of: task)
            flushProgressSoon()

        case let .cookies(id, lines):
            guard var task = tasks[id], runtime[id].removal == nil else { return }
            task.cookies = lines
            save(task)

        case let .connections(counts):
            for (id, count) in counts { runtime[id].attempt?.connections = count }

        case let .segmentMaps(maps):
            for (id, map) in maps { runtime[id].attempt?.segmentMap = map }

        case let .linkDropped(id, dropped):
            // Kept with the task (details, RPC), so the reason outlives the attempt.
            guard var task = tasks[id], runtime[id].removal == nil else { return }
            task.record(dropped)
            save(task)
            announce(.linkDropped(task, dropped))

        case let .finished(id, outcome):
            // Only transfers we started end; anything else is stale.
            guard let attempt = runtime[id].attempt else { return }
            runtime[id].attempt = nil
            if let removal = runtime[id].removal {
                runtime[id].removal = nil
                if removal.task.holdsLentPart { _ = giveBackLentPart(removal.task) }
            } else if let task = tasks[id] {
                conclude(task, outcome, startedAt: attempt.startByte)
            }
            fillSlots()
            stopIfIdle()
            // Soon, not on the next tick: a remote client told of the change asks for the task right away
            // (it is told only once the snapshot shows it).
            publishSoon()
        }
        // Front ends read the snapshot on the next tick (200 ms). Live bytes wait for the once-a-second refresh; other
        // figures of a running task (durable bytes, connections, its segment map) are patched into its row at the
        // next tick; anything else rebuilds every row.
        switch event {
        case .progress: break
        case .checkpoint, .segmentCheckpoint, .streamCheckpoint, .connections, .segmentMaps, .cookies: pacer.figuresDidChange()
        default: pacer.rowsDidChange()
        }
    }

    private func conclude(_ task: DownloadTask, _ outcome: TransferOutcome, startedAt: Int64) {
        // Progress counts past the most bytes an attempt held since the task last retried on its own.
        let mark = max(startedAt, runtime[task.id].mostDurable ?? 0)
        let (updated, effect) = TaskLifecycle.apply(
            outcome, to: task, retryPolicy: configuration.retryPolicy, startedAt: mark, renewsLink: renewsLink)
        if case .retry = effect, case let .failed(_, durable) = outcome {
            runtime[task.id].mostDurable = max(mark, durable)
        } else {
            runtime[task.id].mostDurable = nil
        }
        save(updated)
        switch effect {
        case .completed:
            summary.outcomes[task.id] = .completed
            announce(.completed(updated))
        case .stopped:
            if updated.state == .paused { announce(.paused(updated)) }
        case .requeued:
            break
        case let .retry(after, error):
            if case .rangesIgnored = error { runtime[task.id].singleConnection = true }
            let instant = ContinuousClock.now + .seconds(within: 86_400, after)
            runtime[task.id].backoff = TaskRuntime.Backoff(instant: instant, date: Date().addingTimeInterval(after))
            announce(.retrying(updated, after: after, error: error))
        case let .pausedByError(error):
            summary.outcomes[task.id] = .pausedByError
            announce(.failed(updated, error: error))
        case let .failed(error):
            summary.outcomes[task.id] = .failed
            var failed = updated
            if failed.holdsLentPart {
                failed = giveBackLentPart(failed)
                save(failed)
            }
            announce(.failed(failed, error: error))
        case let .awaitingLink(error):
            renewLink(updated, error)
        }
    }
}

extension DownloadController {
    /// Moves the part file `-c` lent back to the task's final name (`PartialAdoption.giveBack`): the task then
    /// holds no bytes. When that fails the part file stays, and the task's error names both paths.
    func giveBackLentPart(_ task: DownloadTask) -> DownloadTask {
        guard let fileName = task.fileName else { return task }
        var updated = task
        do {
            try PartialAdoption.giveBack(directory: task.directory, fileName: fileName)
            updated.requestOptions.continuesPartialFile = nil
            updated.bytesDone = 0
        } catch {
            updated.lastError = [task.lastError, error.description].compactMap { $0 }.joined(separator: "; ")
        }
        return updated
    }
}
