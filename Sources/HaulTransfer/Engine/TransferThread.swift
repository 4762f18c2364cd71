import CCurl
import Dispatch
import Foundation
import HaulCore

/// The engine loop. Runs on its own thread and owns every libcurl handle; nothing else touches them.
///
/// Each pass: drain the inbox → `curl_multi_perform` → handle finished connections → coalesced progress,
/// checkpoints and disk checks → `curl_multi_poll` (cut short by `curl_multi_wakeup`). Blocking disk work
/// (fdatasync, digest, rename) runs on a serial worker queue and reports back through the inbox, so every
/// event leaves this thread in order.
final class TransferThread {
    private let inbox: CommandInbox
    private let continuation: AsyncStream<TransferEvent>.Continuation
    private let multi = CurlMulti()
    private let disk = DispatchQueue(label: "haul.disk")
    private var active: [TaskID: ActiveTransfer] = [:]
    /// Transfers whose closing disk work is still running on the worker queue, with their part files.
    private var concluding: [TaskID: String?] = [:]
    /// Tasks whose part file is to be deleted once their closing disk work is done.
    private var deleteWhenConcluded: Set<TaskID> = []
    /// The part file each task's last transfer used, so a removal that arrives after the transfer ended
    /// still deletes the file it really wrote (the controller may not have heard its name yet).
    private var lastPart: [TaskID: String] = [:]
    private var attempts = 0
    private let partsInUse = PartRegistry()
    private var shuttingDown = false
    private var lastProgress: ContinuousClock.Instant = .now
    private var hostConnectionLimit = 0
    private let budget = BandwidthBudget()
    private let hosts = HostConnections()

    static let progressInterval: Duration = .milliseconds(250)
    static let diskCheckInterval: Duration = .seconds(1)

    init(inbox: CommandInbox, continuation: AsyncStream<TransferEvent>.Continuation) {
        self.inbox = inbox
        self.continuation = continuation
        inbox.attach(MultiWakeup(raw: multi.handle))
    }

    func run() {
        while true {
            for message in inbox.drain() { handle(message) }
            budget.refillAndResume(now: .now)
            if shuttingDown, active.isEmpty, concluding.isEmpty { break }
            multi.perform()
            while let (easy, result) = multi.nextFinished() { finished(easy: easy, result: result) }
            // A first answer that allows splitting made connections inside a callback: start them now, and
            // allocate the file beside them.
            for transfer in Array(active.values) {
                if let length = transfer.takeAllocation(), let writer = transfer.writer { allocate(transfer, writer: writer, length: length) }
                if transfer.hasNewConnections { addNewConnections(of: transfer) }
            }
            tick()
            // Paused connections resume as their budget refills: look again soon.
            multi.poll(timeoutMilliseconds: active.isEmpty ? 1000 : budget.hasThrottled ? 10 : 100)
        }
        inbox.close()
        continuation.finish()
    }

    // MARK: - Messages

    private func handle(_ message: EngineMessage) {
        switch message {
        case let .command(.start(request)):
            start(request)
        case let .command(.pause(id)):
            if let transfer = active[id] { conclude(transfer, .paused) }
        case let .command(.setOverallLimit(rate)):
            budget.setOverall(rate)
        case let .command(.setTaskLimit(id, rate)):
            if active[id] != nil { budget.setTask(id, rate) }
        case let .command(.setTaskConnections(id, count)):
            guard let transfer = active[id] else { return }
            let (next, shed) = transfer.setTargetConnections(count)
            for connection in shed {
                multi.remove(connection.easy)
                if case let .conclude(ending) = transfer.ended(connection, result: nil) { return conclude(transfer, ending) }
            }
            switch next {
            case .keepGoing: addNewConnections(of: transfer)
            case let .conclude(ending): conclude(transfer, ending)
            }
            shareRoom(on: transfer.host)
        case let .command(.deletePart(id, directory, fileName)):
            deletePart(of: id, directory: directory, fileName: fileName)
        case .command(.shutdown):
            shuttingDown = true
            for transfer in active.values { conclude(transfer, .paused) }
        case let .synced(id, attempt, epoch, bytes, marks):
            guard let transfer = active[id], transfer.attempt == attempt else { return }
            transfer.syncInFlight = false
            guard transfer.epoch == epoch else { return }
            if transfer.ledger != nil {
                transfer.commit(marks)
            } else if bytes > transfer.durable {
                transfer.durable = bytes
                continuation.yield(.checkpoint(id, durableBytes: bytes))
            }
        case let .allocated(id, attempt, error):
            guard let transfer = active[id], transfer.attempt == attempt else { return }
            if let error { conclude(transfer, .failed(error)) } else { transfer.layoutAllocated() }
        case let .concluded(id, outcome, segments):
            let path = concluding.removeValue(forKey: id) ?? nil
            if let path {
                if deleteWhenConcluded.remove(id) != nil, !outcome.isCompleted { unlink(path) }
                partsInUse.paths.remove(path)
                lastPart[id] = outcome.isCompleted ? nil : path
            }
            deleteWhenConcluded.remove(id)
            if let segments { continuation.yield(.segmentCheckpoint(id, segments, durableBytes: outcome.durableBytes)) }
            continuation.yield(.connections([id: 0]))
            continuation.yield(.finished(id, outcome))
        }
    }

    /// Deletes a removed task's part file: after the closing work of a transfer that holds it, else at once.
    private func deletePart(of id: TaskID, directory: String, fileName: String?) {
        if let transfer = active[id] {
            deleteWhenConcluded.insert(id)
            conclude(transfer, .paused)
        } else if concluding[id] != nil {
            deleteWhenConcluded.insert(id)
        } else if let path = lastPart.removeValue(forKey: id) {
            unlink(path)
        } else if let fileName {
            let path = (directory.hasSuffix("/") ? directory : directory + "/") + PartialFilePath.partName(for: fileName)
            // Never through a link: only a regular part file of that name is deleted.
            if !partsInUse.paths.contains(path), DownloadDirectory.isRegularFile(path) { unlink(path) }
        }
    }

    private func start(_ request: TransferRequest) {
        guard !shuttingDown, active[request.id] == nil, concluding[request.id] == nil else { return }
        attempts += 1
        if request.options.maxHostConnections != hostConnectionLimit {
            hostConnectionLimit = request.options.maxHostConnections
            hosts.limit = hostConnectionLimit
            // libcurl holds the cap: a first connection over it waits there until an extra one ends
            // (extras are not replaced while the host is full, so it never waits long).
            try? multi.set(CURLMOPT_MAX_HOST_CONNECTIONS, hostConnectionLimit)
        }
        let transfer: ActiveTransfer
        do {
            transfer = try ActiveTransfer(request: request, attempt: attempts, partsInUse: partsInUse, budget: budget, hosts: hosts) {
                [continuation] event in continuation.yield(event)
            }
        } catch {
            continuation.yield(.finished(request.id, .failed(error, durableBytes: request.resumeFrom)))
            return
        }
        if transfer.phase == .publishedEarlier {
            concluding[request.id] = .some(nil)
            inbox.post(.concluded(request.id, .completed(fileName: transfer.fileName ?? "", bytes: transfer.position), segments: nil))
            return
        }
        active[request.id] = transfer
        budget.setTask(request.id, request.options.rateLimit)
        transfer.start()
        if case let .failed(error) = transfer.phase { return conclude(transfer, .failed(error)) }
        addNewConnections(of: transfer)
        makeRoom(on: transfer.host)
    }

    /// A new task found its host full of other tasks' extra connections: the transfer with the most
    /// connections there gives one up, so the new task starts at once instead of after their ranges.
    private func makeRoom(on host: String) {
        while hosts.room(for: host) == 0, hosts.isOver(host) {
            let sameHost = active.values.filter { $0.host == host && $0.connections.count > 1 }
            guard let busiest = sameHost.max(by: { $0.connections.count < $1.connections.count }),
                  let connection = busiest.shedConnection() else { return }
            multi.remove(connection.easy)
            switch busiest.ended(connection, result: nil) {
            case .keepGoing: addNewConnections(of: busiest)
            case let .conclude(ending): conclude(busiest, ending)
            }
        }
    }

    /// Sets up and adds the connections a transfer made; one that cannot start ends like a failed one.
    private func addNewConnections(of transfer: ActiveTransfer) {
        var next = transfer.takeNewConnections()
        while let connection = next.first {
            next.removeFirst()
            do {
                try connection.configure()
                try multi.add(connection.easy)
            } catch {
                connection.state = .failed(DownloadError(setup: error, host: transfer.host))
                guard case let .conclude(ending) = transfer.ended(connection, result: nil) else {
                    next += transfer.takeNewConnections()
                    continue
                }
                return conclude(transfer, ending)
            }
        }
        reportConnections(of: transfer)
    }

    private func finished(easy: UnsafeMutableRawPointer, result: CURLcode) {
        guard let connection = Connection.owner(of: easy) else { return }
        let transfer = connection.transfer
        guard active[transfer.request.id] === transfer else { return }
        multi.remove(connection.easy)
        switch transfer.ended(connection, result: result) {
        case .keepGoing: addNewConnections(of: transfer)
        case let .conclude(ending): conclude(transfer, ending)
        }
        shareRoom(on: transfer.host)
    }

    /// The host has room again: segmented transfers there that run below `-s` take it, busiest last.
    private func shareRoom(on host: String) {
        let candidates = active.values.filter { $0.host == host }.sorted { $0.connections.count < $1.connections.count }
        for transfer in candidates where hosts.room(for: host) > 0 {
            switch transfer.grow() {
            case .keepGoing: addNewConnections(of: transfer)
            case let .conclude(ending): conclude(transfer, ending)
            }
        }
    }

    private func reportConnections(of transfer: ActiveTransfer) {
        let count = transfer.connections.count
        guard count != transfer.lastConnectionCount else { return }
        transfer.lastConnectionCount = count
        continuation.yield(.connections([transfer.request.id: count]))
    }

    // MARK: - Ending a transfer

    /// Takes the transfer off the network at once, then syncs, verifies and renames on the worker queue.
    private func conclude(_ transfer: ActiveTransfer, _ ending: ActiveTransfer.Ending) {
        let id = transfer.request.id
        for connection in transfer.closeAll() { multi.remove(connection.easy) }
        budget.forget(id)
        active[id] = nil
        concluding[id] = .some(transfer.writer?.path)
        reportProgress(of: transfer)
        // The worker gets its own descriptor: the transfer (and its fd) is released here on this thread.
        let work = ClosingWork(
            ending: ending, writer: transfer.writer.map { FileWriter(fd: dup($0.fd), path: $0.path) },
            position: transfer.position, durable: transfer.durable, fileName: transfer.fileName,
            checksum: transfer.request.checksum, directory: transfer.directory, ledger: transfer.ledger,
            marks: transfer.receivedMarks())
        disk.async { [inbox] in
            let (outcome, segments) = work.run()
            inbox.post(.concluded(id, outcome, segments: segments))
        }
    }

    // MARK: - Periodic work

    private func tick() {
        let now = ContinuousClock.now
        if now - lastProgress >= Self.progressInterval {
            let seconds = (now - lastProgress).inSeconds
            lastProgress = now
            var batch: [TaskID: Int64] = [:]
            var maps: [TaskID: SegmentMap] = [:]
            for (id, transfer) in active {
                for connection in transfer.connections { connection.tick(seconds: seconds) }
                if let map = transfer.ledger?.map, map != transfer.lastMap {
                    transfer.lastMap = map
                    maps[id] = map
                }
                guard transfer.position != transfer.lastReported, transfer.writer != nil else { continue }
                transfer.lastReported = transfer.position
                batch[id] = transfer.position
            }
            if !maps.isEmpty { continuation.yield(.segmentMaps(maps)) }
            if !batch.isEmpty { continuation.yield(.progress(batch)) }
            for transfer in Array(active.values) {
                guard replaceSlowConnections(of: transfer) else { continue }
                // Fresh connections for the slow ones, and extra ones once a refusal's wait is over.
                switch transfer.endHold(now: now) {
                case .keepGoing: addNewConnections(of: transfer)
                case let .conclude(ending): conclude(transfer, ending)
                }
            }
        }
        for transfer in Array(active.values) {
            if now - transfer.lastDiskCheck >= Self.diskCheckInterval {
                transfer.lastDiskCheck = now
                do {
                    try transfer.checkFreeSpace(needed: nil)
                    try transfer.checkPartFileLinked()
                } catch {
                    conclude(transfer, .failed(error))
                    continue
                }
            }
            if !transfer.syncInFlight, transfer.position > transfer.durable, let writer = transfer.writer,
               Self.checkpointIsDue(transfer, now: now) {
                checkpoint(transfer, writer: writer, now: now)
            }
        }
    }

    /// Closes the connections a transfer finds too slow (fresh ones take their ranges); false when that
    /// ended the transfer.
    private func replaceSlowConnections(of transfer: ActiveTransfer) -> Bool {
        for connection in transfer.replaceSlowConnections() {
            multi.remove(connection.easy)
            if case let .conclude(ending) = transfer.ended(connection, result: nil) {
                conclude(transfer, ending)
                return false
            }
        }
        return true
    }

    /// Allocates the part file at full size on the worker queue (before any closing work of the transfer,
    /// which the queue runs after it); a failure (a full disk) comes back as `.allocated` and ends it.
    private func allocate(_ transfer: ActiveTransfer, writer: FileWriter, length: Int64) {
        let id = transfer.request.id
        let attempt = transfer.attempt
        let copy = FileWriter(fd: dup(writer.fd), path: writer.path)
        disk.async { [inbox] in
            defer { copy.close() }
            do throws(DownloadError) {
                try copy.allocate(length)
                inbox.post(.allocated(id, attempt: attempt, error: nil))
            } catch {
                inbox.post(.allocated(id, attempt: attempt, error: error))
            }
        }
    }

    /// A checkpoint is due once a second (`checkpointInterval`), and sooner, though at most ten times a
    /// second, once the bytes not yet durable pass 1/128 of the file (at least 256 KiB): a kill -9 then loses
    /// under 1 % of a fast download's file, not a whole second of it.
    static func checkpointIsDue(_ transfer: ActiveTransfer, now: ContinuousClock.Instant) -> Bool {
        let elapsed = now - transfer.lastCheckpoint
        if elapsed >= .milliseconds(Int64(transfer.request.options.checkpointInterval * 1000)) { return true }
        let threshold = max(256 << 10, (transfer.total ?? 0) / 128)
        return elapsed >= checkpointSpacing && transfer.position - transfer.durable >= threshold
    }

    static let checkpointSpacing: Duration = .milliseconds(100)

    /// Syncs on the worker queue; the result comes back as `.synced` and becomes a checkpoint event.
    private func checkpoint(_ transfer: ActiveTransfer, writer: FileWriter, now: ContinuousClock.Instant) {
        transfer.syncInFlight = true
        transfer.lastCheckpoint = now
        let id = transfer.request.id
        let attempt = transfer.attempt
        let epoch = transfer.epoch
        let bytes = transfer.position
        let marks = transfer.receivedMarks()
        let copy = FileWriter(fd: dup(writer.fd), path: writer.path)
        disk.async { [inbox] in
            defer { copy.close() }
            // A failed sync records nothing; the closing sync reports the error.
            guard (try? copy.sync()) != nil else { return }
            inbox.post(.synced(id, attempt: attempt, epoch: epoch, bytes: bytes, marks: marks))
        }
    }

    private func reportProgress(of transfer: ActiveTransfer) {
        guard transfer.position != transfer.lastReported, transfer.writer != nil else { return }
        transfer.lastReported = transfer.position
        continuation.yield(.progress([transfer.request.id: transfer.position]))
    }
}
