import Foundation
import HaulCore

/// The engine loop. Runs on its own thread and owns every libcurl handle; nothing else touches them.
///
/// Each pass: drain the inbox → `curl_multi_perform` → handle finished connections → coalesced progress,
/// checkpoints and disk checks → `curl_multi_poll` (cut short by `curl_multi_wakeup`). Blocking disk work
/// (fdatasync, digest, rename) runs on the `DiskWorker` and reports back through the inbox, so every
/// event leaves this thread in order.
final class TransferThread {
    let inbox: CommandInbox
    let continuation: AsyncStream<TransferEvent>.Continuation
    let multi = CurlMulti()
    let disk: DiskWorker
    var active: [TaskID: ActiveTransfer] = [:]
    /// Running HLS downloads (DESIGN §9), and what each closing one's sync will make durable.
    var streams: [TaskID: StreamTransfer] = [:]
    var closingStreams: [TaskID: StreamInfo] = [:]
    var janitor = PartFileJanitor()
    var attempts = 0
    let partsInUse = PartRegistry()
    var shuttingDown = false
    var lastProgress: ContinuousClock.Instant = .now
    var hostConnectionLimit = 0
    let budget = BandwidthBudget()
    let hosts = HostConnections()

    static let progressInterval: Duration = .milliseconds(250)

    init(inbox: CommandInbox, continuation: AsyncStream<TransferEvent>.Continuation) {
        self.inbox = inbox
        self.continuation = continuation
        disk = DiskWorker(inbox: inbox)
        inbox.attach(multi.wakeup)
    }

    func run() {
        while true {
            for message in inbox.drain() { handle(message) }
            budget.refillAndResume(now: .now)
            if shuttingDown, active.isEmpty, streams.isEmpty, !janitor.isClosingAny { break }
            multi.perform()
            while let (easy, result) = multi.nextFinished() { finished(easy: easy, result: result) }
            // A first answer that allows splitting made connections inside a callback: start them now, and
            // allocate the file beside them.
            for transfer in Array(active.values) {
                if let length = transfer.takeAllocation(), let writer = transfer.writer {
                    disk.allocate(writer, length: length, for: transfer.request.id, attempt: transfer.attempt)
                }
                if transfer.hasNewConnections { addNewConnections(of: transfer) }
            }
            for stream in Array(streams.values) where stream.hasNewFetches { addNewFetches(of: stream) }
            tick()
            // Paused connections resume as their budget refills: look again soon.
            multi.poll(timeoutMilliseconds: active.isEmpty && streams.isEmpty ? 1000 : budget.hasThrottled ? 10 : 100)
        }
        inbox.close()
        continuation.finish()
    }

    // MARK: - Messages

    private func handle(_ message: EngineMessage) {
        switch message {
        case let .command(command):
            handle(command)
        case let .streamSynced(id, attempt, positions):
            guard let stream = streams[id], stream.attempt == attempt else { return }
            stream.bookkeeping.syncInFlight = false
            stream.synced(positions: positions)
        case let .streamNote(id, note):
            closingStreams[id]?.note = note
        case let .synced(id, attempt, epoch, bytes, marks):
            guard let transfer = active[id], transfer.attempt == attempt else { return }
            transfer.bookkeeping.syncInFlight = false
            if transfer.epoch == epoch { transfer.synced(bytes: bytes, marks: marks) }
        case let .allocated(id, attempt, error):
            guard let transfer = active[id], transfer.attempt == attempt else { return }
            if let error { conclude(transfer, .failed(error)) } else { transfer.layoutAllocated() }
        case let .concluded(id, outcome, segments):
            let (released, delete) = janitor.closingEnded(id, completed: outcome.isCompleted)
            if let released {
                partsInUse.paths.remove(released)
                partsInUse.paths.remove(Self.audioPart(besidePart: released))
            }
            if let delete { unlinkPart(delete) }
            if let segments { continuation.yield(.segmentCheckpoint(id, segments, durableBytes: outcome.durableBytes)) }
            if let info = closingStreams.removeValue(forKey: id), info.appendedBytes == outcome.durableBytes {
                continuation.yield(.streamCheckpoint(id, info))
            }
            continuation.yield(.connections([id: 0]))
            continuation.yield(.finished(id, outcome))
        }
    }

    private func handle(_ command: TransferCommand) {
        switch command {
        case let .start(request):
            start(request)
        case let .pause(id):
            pause(id)
        case let .setOverallLimit(rate):
            budget.setOverall(rate)
        case let .setTaskLimit(id, rate):
            if active[id] != nil || streams[id] != nil { budget.setTask(id, rate) }
        case let .setTaskConnections(id, count):
            if let stream = streams[id] {
                stream.targetConnections = count
                proceed(stream, stream.pump())
            }
            guard let transfer = active[id] else { return }
            let (next, shed) = transfer.setTargetConnections(count)
            guard stop(shed, of: transfer) else { return }
            proceed(transfer, next)
            shareRoom(on: transfer.host)
        case let .deletePart(id, directory, fileName):
            switch janitor.removal(of: id, transferRuns: active[id] != nil || streams[id] != nil, directory: directory, fileName: fileName) {
            case .stopTransferFirst: pause(id)
            case let .delete(path): unlinkPart(path)
            case let .deleteIfUnheld(path): unlinkPart(path, unlessHeld: true)
            case .afterClosing, .nothing: break
            }
        case .shutdown:
            shuttingDown = true
            for id in Array(active.keys) + Array(streams.keys) { pause(id) }
        }
    }

    /// Stops task `id`'s file or stream transfer, if one runs, keeping its bytes.
    private func pause(_ id: TaskID) {
        if let transfer = active[id] { conclude(transfer, .paused) }
        if let stream = streams[id] { conclude(stream, .paused) }
    }

    private func start(_ request: TransferRequest) {
        guard !shuttingDown, active[request.id] == nil, streams[request.id] == nil, !janitor.isClosing(request.id) else { return }
        attempts += 1
        if request.options.maxHostConnections != hostConnectionLimit {
            // libcurl holds the cap: a first connection over it waits there until an extra one ends
            // (extras are not replaced while the host is full, so it never waits long).
            do {
                try multi.setMaxHostConnections(request.options.maxHostConnections)
            } catch {
                let failure = DownloadError(setup: error, host: URLValidation.host(of: request.url))
                continuation.yield(.finished(request.id, .failed(failure, durableBytes: request.resumeFrom)))
                return
            }
            hostConnectionLimit = request.options.maxHostConnections
            hosts.limit = hostConnectionLimit
        }
        if request.stream != nil { return startStream(request, playlist: nil) }
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
            janitor.closingBegan(request.id, part: nil)
            disk.close(ClosingWork(ending: .publishedEarlier, transfer: transfer), for: request.id)
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
            proceed(busiest, busiest.ended(connection, exit: .stopped))
        }
    }

    /// Takes connections the transfer gave up off the network; false when that ended the transfer.
    func stop(_ connections: [Connection], of transfer: ActiveTransfer) -> Bool {
        for connection in connections {
            multi.remove(connection.easy)
            if case let .conclude(ending) = transfer.ended(connection, exit: .stopped) {
                conclude(transfer, ending)
                return false
            }
        }
        return true
    }

    /// Goes on after a change: new connections start, or the transfer concludes.
    func proceed(_ transfer: ActiveTransfer, _ next: TransferNext) {
        switch next {
        case .keepGoing: addNewConnections(of: transfer)
        case let .conclude(ending): conclude(transfer, ending)
        case let .becomeStream(playlist): becomeStream(transfer, playlist)
        }
    }

    /// Tells the budget how many connections share the overall limit (before new buffers, and as a transfer ends).
    func countConnections() {
        let streamConnections = streams.values.reduce(0) { $0 + $1.targetConnections }
        budget.expectedConnections = max(1, active.values.reduce(streamConnections) { $0 + $1.expectedConnections })
    }

    /// Sets up and adds the connections a transfer made; one that cannot start ends like a failed one.
    private func addNewConnections(of transfer: ActiveTransfer) {
        countConnections()
        var next = transfer.takeNewConnections()
        while let connection = next.first {
            next.removeFirst()
            do {
                try connection.configure()
                try multi.add(connection.easy)
            } catch {
                let exit = ConnectionExit.failed(DownloadError(setup: error, host: transfer.host))
                guard case let .conclude(ending) = transfer.ended(connection, exit: exit) else {
                    next += transfer.takeNewConnections()
                    continue
                }
                return conclude(transfer, ending)
            }
        }
        let count = transfer.connections.count
        if count != transfer.bookkeeping.lastConnectionCount {
            transfer.bookkeeping.lastConnectionCount = count
            continuation.yield(.connections([transfer.request.id: count]))
        }
    }

    private func finished(easy: CurlEasy, result: CurlResult) {
        if let fetch = StreamFetch.owner(of: easy) { return finished(fetch, result: result) }
        guard let connection = Connection.owner(of: easy) else { return }
        let transfer = connection.transfer
        guard active[transfer.request.id] === transfer else { return }
        multi.remove(connection.easy)
        var exit = connection.exit(result)
        if let next = connection.nextHop(after: result) {
            // The next hop on the same connection, set up for its own URL.
            do throws(CurlError) {
                try connection.follow(next)
                try multi.add(connection.easy)
                return
            } catch {
                exit = .failed(DownloadError(setup: error, host: transfer.host))
            }
        }
        proceed(transfer, transfer.ended(connection, exit: exit))
        shareRoom(on: connection.link.host)
    }

    /// The host has room again: segmented transfers there that run below `-s` take it, busiest last.
    private func shareRoom(on host: String) {
        let candidates = active.values.filter { $0.uses(host) }.sorted { $0.connections.count < $1.connections.count }
        for transfer in candidates where hosts.room(for: host) > 0 { proceed(transfer, transfer.grow()) }
    }

    // MARK: - Ending a transfer

    /// Takes the transfer off the network at once, then syncs, verifies and renames on the disk worker.
    func conclude(_ transfer: ActiveTransfer, _ ending: TransferEnding) {
        let ending = transfer.explained(ending)
        let id = transfer.request.id
        for connection in transfer.closeAll() { multi.remove(connection.easy) }
        budget.forget(id)
        active[id] = nil
        countConnections()
        janitor.closingBegan(id, part: transfer.writer?.path)
        reportProgress(of: transfer)
        disk.close(ClosingWork(ending: ending, transfer: transfer), for: id)
    }
}
