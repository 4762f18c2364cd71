import Foundation
import HaulCore

/// The engine loop. Runs on its own thread and owns every libcurl handle; nothing else touches them.
///
/// Each pass: drain the inbox → `curl_multi_perform` → handle finished requests → let each transfer act on what
/// its callbacks noted and add the requests it decided on → coalesced progress, checkpoints and disk checks →
/// `curl_multi_poll` (cut short by `curl_multi_wakeup`). Blocking disk work (fdatasync, digest, rename) runs on the
/// `DiskWorker` and reports back through the inbox, so every event leaves this thread in order. The loop drives
/// every kind of transfer through `EngineTransfer` and never asks which kind it drives.
final class TransferThread {
    let inbox: CommandInbox
    let continuation: AsyncStream<TransferEvent>.Continuation
    let multi = CurlMulti()
    let disk: DiskWorker
    /// The running transfers, one per task, of whatever kind.
    var transfers: [TaskID: any EngineTransfer] = [:]
    var janitor = PartFileJanitor()
    var attempts = 0
    let partsInUse = PartRegistry()
    var shuttingDown = false
    var lastProgress: ContinuousClock.Instant = .now
    var hostConnectionLimit = 0
    let budget = BandwidthBudget()
    let hosts = HostConnections()
    private(set) lazy var factory = TransferFactory(partsInUse: partsInUse, budget: budget, hosts: hosts) {
        [continuation] event in continuation.yield(event)
    }

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
            if shuttingDown, transfers.isEmpty, !janitor.isClosingAny { break }
            multi.perform()
            while let (easy, result) = multi.nextFinished() { finished(easy: easy, result: result) }
            // What callbacks noted (a first answer that allows splitting, a segment's size) is acted on here, and the
            // requests it decided on start, with the file's allocation beside them.
            for transfer in Array(transfers.values) where transfers[transfer.request.id] === transfer {
                proceed(transfer, transfer.advance())
                guard transfers[transfer.request.id] === transfer else { continue }
                if let (writer, length) = transfer.takeAllocation() {
                    disk.allocate(writer, length: length, for: transfer.request.id, attempt: transfer.attempt)
                }
            }
            tick()
            // Paused connections resume as their budget refills: look again soon.
            multi.poll(timeoutMilliseconds: transfers.isEmpty ? 1000 : budget.hasThrottled ? 10 : 100)
        }
        inbox.close()
        continuation.finish()
    }

    /// The running transfer of this attempt of task `id`.
    private func transfer(_ id: TaskID, attempt: Int) -> (any EngineTransfer)? {
        guard let transfer = transfers[id], transfer.attempt == attempt else { return nil }
        return transfer
    }

    // MARK: - Messages

    private func handle(_ message: EngineMessage) {
        switch message {
        case let .command(command):
            handle(command)
        case let .synced(id, attempt, coverage):
            guard let transfer = transfer(id, attempt: attempt) else { return }
            transfer.bookkeeping.syncInFlight = false
            transfer.synced(coverage)
        case let .allocated(id, attempt, error):
            guard let transfer = transfer(id, attempt: attempt) else { return }
            if let error { conclude(transfer, .failed(error)) } else { transfer.allocated() }
        case let .concluded(id, result):
            let (released, delete) = janitor.closingEnded(id, completed: result.outcome.isCompleted)
            if let released {
                partsInUse.paths.remove(released)
                partsInUse.paths.remove(Self.audioPart(besidePart: released))
            }
            if let delete { unlinkPart(delete) }
            for event in result.checkpoints(of: id) { continuation.yield(event) }
            continuation.yield(.connections([id: 0]))
            continuation.yield(.finished(id, result.outcome))
        }
    }

    private func handle(_ command: TransferCommand) {
        switch command {
        case let .start(request):
            start(request)
        case let .pause(id):
            if let transfer = transfers[id] { conclude(transfer, .paused) }
        case let .stopRecording(id):
            guard let transfer = transfers[id] else { return }
            proceed(transfer, transfer.stopRecording())
        case let .setOverallLimit(rate):
            budget.setOverall(rate)
        case let .setTaskLimit(id, rate):
            if transfers[id] != nil { budget.setTask(id, rate) }
        case let .setTaskConnections(id, count):
            guard let transfer = transfers[id] else { return }
            let (next, shed) = transfer.setTargetConnections(count)
            guard stop(shed, of: transfer) else { return }
            proceed(transfer, next)
            shareRoom(on: transfer.host)
        case let .deletePart(id, directory, fileName):
            switch janitor.removal(of: id, transferRuns: transfers[id] != nil, directory: directory, fileName: fileName) {
            case .stopTransferFirst: if let transfer = transfers[id] { conclude(transfer, .paused) }
            case let .delete(path): unlinkPart(path)
            case let .deleteIfUnheld(path): unlinkPart(path, unlessHeld: true)
            case .afterClosing, .nothing: break
            }
        case .shutdown:
            shuttingDown = true
            for transfer in Array(transfers.values) { conclude(transfer, .paused) }
        }
    }

    private func start(_ request: TransferRequest) {
        guard !shuttingDown, transfers[request.id] == nil, !janitor.isClosing(request.id) else { return }
        attempts += 1
        if request.options.maxHostConnections != hostConnectionLimit {
            // libcurl holds the cap: a first connection over it waits there until an extra one ends
            // (extras are not replaced while the host is full, so it never waits long).
            do {
                try multi.setMaxHostConnections(request.options.maxHostConnections)
            } catch {
                let failure = DownloadError(setup: error, host: URLValidation.host(of: request.url))
                continuation.yield(.finished(request.id, .failed(failure, durableBytes: TransferFactory.keptBytes(of: request))))
                return
            }
            hostConnectionLimit = request.options.maxHostConnections
            hosts.limit = hostConnectionLimit
        }
        run(request, attempt: attempts, playlist: nil)
    }

    /// Makes and starts the transfer of `request`'s kind; `playlist`: the first answer of the same attempt showed one.
    private func run(_ request: TransferRequest, attempt: Int, playlist: FetchedPlaylist?) {
        let transfer: any EngineTransfer
        do {
            transfer = try factory.make(request, attempt: attempt, playlist: playlist)
        } catch {
            continuation.yield(.finished(request.id, .failed(error, durableBytes: TransferFactory.keptBytes(of: request))))
            return
        }
        if transfer.isPublishedEarlier {
            janitor.closingBegan(request.id, part: nil)
            disk.close(transfer.closingWork(.publishedEarlier), for: request.id)
            return
        }
        transfers[request.id] = transfer
        budget.setTask(request.id, request.options.rateLimit)
        proceed(transfer, transfer.start())
        if transfers[request.id] === transfer { makeRoom(on: transfer.host) }
    }

    /// A new task found its host full of other tasks' extra connections: the transfer with the most
    /// connections there gives one up, so the new task starts at once instead of after their ranges.
    private func makeRoom(on host: String) {
        while hosts.room(for: host) == 0, hosts.isOver(host) {
            let sameHost = transfers.values.filter { $0.host == host && $0.openRequests > 1 }
            guard let busiest = sameHost.max(by: { $0.openRequests < $1.openRequests }),
                  let easy = busiest.shedConnection() else { return }
            multi.remove(easy)
            proceed(busiest, busiest.stopped(easy))
        }
    }

    /// Takes handles the transfer gave up off the network; false when that ended the transfer.
    private func stop(_ handles: [CurlEasy], of transfer: any EngineTransfer) -> Bool {
        for easy in handles {
            multi.remove(easy)
            if case let .conclude(ending) = transfer.stopped(easy) {
                conclude(transfer, ending)
                return false
            }
        }
        return true
    }

    /// Goes on after a change: new requests start, the transfer concludes, or it goes on as a stream.
    func proceed(_ transfer: any EngineTransfer, _ next: TransferNext) {
        switch next {
        case .keepGoing: addNewHandles(of: transfer)
        case let .conclude(ending): conclude(transfer, ending)
        case let .becomeStream(playlist): becomeStream(transfer, playlist)
        }
    }

    /// The first answer was a playlist: the task goes on as a stream in the same attempt.
    private func becomeStream(_ transfer: any EngineTransfer, _ playlist: FetchedPlaylist) {
        let id = transfer.request.id
        for easy in transfer.closeAll() { multi.remove(easy) }
        transfers[id] = nil
        countConnections()
        continuation.yield(.connections([id: 0]))
        run(transfer.request, attempt: transfer.attempt, playlist: playlist)
    }

    /// Tells the budget how many connections share the overall limit (before new buffers, and as a transfer ends).
    func countConnections() {
        budget.expectedConnections = max(1, transfers.values.reduce(0) { $0 + $1.expectedConnections })
    }

    /// Adds the requests a transfer decided on; one that cannot start ends like a failed one.
    private func addNewHandles(of transfer: any EngineTransfer) {
        countConnections()
        while true {
            let (handles, next) = transfer.takeNewHandles()
            if case .conclude = next { return proceed(transfer, next) }
            var refused = false
            for easy in handles {
                do {
                    try multi.add(easy)
                } catch {
                    refused = true
                    let next = transfer.couldNotStart(easy, error)
                    if case .conclude = next { return proceed(transfer, next) }
                }
            }
            // A refused request may have made others in its place.
            guard refused else { break }
        }
        let count = transfer.openRequests
        if count != transfer.bookkeeping.lastConnectionCount {
            transfer.bookkeeping.lastConnectionCount = count
            continuation.yield(.connections([transfer.request.id: count]))
        }
    }

    private func finished(easy: CurlEasy, result: CurlResult) {
        guard let transfer = easy.receiver as? any EngineTransfer, transfers[transfer.request.id] === transfer else { return }
        multi.remove(easy)
        switch transfer.finished(easy, result: result) {
        case .follows:
            do {
                try multi.add(easy)
            } catch {
                proceed(transfer, transfer.couldNotStart(easy, error))
            }
        case let .ended(next, host):
            proceed(transfer, next)
            shareRoom(on: host)
        }
    }

    /// The host has room again: transfers there that run below `-s` take it, busiest last.
    private func shareRoom(on host: String) {
        let candidates = transfers.values.filter { $0.uses(host) }.sorted { $0.openRequests < $1.openRequests }
        for transfer in candidates where hosts.room(for: host) > 0 && transfers[transfer.request.id] === transfer {
            proceed(transfer, transfer.grow())
        }
    }

    // MARK: - Ending a transfer

    /// Takes the transfer off the network at once, then syncs, verifies and publishes on the disk worker.
    func conclude(_ transfer: any EngineTransfer, _ ending: TransferEnding) {
        let id = transfer.request.id
        guard transfers[id] === transfer else { return }
        for easy in transfer.closeAll() { multi.remove(easy) }
        budget.forget(id)
        transfers[id] = nil
        countConnections()
        janitor.closingBegan(id, part: transfer.partPath)
        if let position = transfer.progress(seconds: nil).position { continuation.yield(.progress([id: position])) }
        disk.close(transfer.closingWork(ending), for: id)
    }
}
