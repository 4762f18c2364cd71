import FaultServer
import Foundation
import HaulCore
import HaulTestSupport
import HaulTransfer
import Testing

/// Drives the real libcurl engine and collects its events, with bounded waits.
final class EngineHarness: Sendable {
    let driver = CurlTransferDriver()
    private let log = EventLog()
    private let collector: Task<Void, Never>

    init() {
        let driver = driver
        let log = log
        collector = Task.detached {
            for await event in driver.events { log.append(event) }
        }
    }

    deinit {
        driver.send(.shutdown)
        collector.cancel()
    }

    var events: [TransferEvent] { log.all }

    func start(_ request: TransferRequest) { driver.send(.start(request)) }

    /// Waits for the task's `finished` event and returns its outcome.
    func outcome(of id: TaskID, timeout: Duration = .seconds(20)) async throws -> TransferOutcome {
        try await eventuallyValue("finished event of task \(id)", timeout: timeout) { () -> TransferOutcome? in
            for event in self.events {
                if case let .finished(eventID, outcome) = event, eventID == id { return outcome }
            }
            return nil
        }
    }

    /// Waits for the task to end and returns its error and durable bytes; records an issue (and returns nil)
    /// when it ended any other way.
    func failure(
        of id: TaskID, timeout: Duration = .seconds(20), sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (error: DownloadError, durable: Int64)? {
        let outcome = try await outcome(of: id, timeout: timeout)
        guard case let .failed(error, durable) = outcome else {
            Issue.record("task \(id) was expected to fail, it ended \(outcome)", sourceLocation: sourceLocation)
            return nil
        }
        return (error, durable)
    }

    /// The latest live position reported for the task.
    func position(of id: TaskID) -> Int64? {
        var last: Int64?
        for event in events {
            if case let .progress(batch) = event, let position = batch[id] { last = position }
        }
        return last
    }

    func responses(of id: TaskID) -> [ResponseSummary] {
        events.compactMap { event in
            if case let .responded(eventID, summary) = event, eventID == id { return summary }
            return nil
        }
    }

    func checkpoints(of id: TaskID) -> [Int64] {
        events.compactMap { event in
            if case let .checkpoint(eventID, bytes) = event, eventID == id { return bytes }
            return nil
        }
    }
}

func request(
    _ id: Int64, url: String, directory: String, fileName: String? = nil, resumeFrom: Int64 = 0,
    expectedTotal: Int64? = nil, validators: RemoteValidators = RemoteValidators(), checksum: Checksum? = nil,
    options: TransferOptions = TransferOptions(stallTimeout: 5, diskReserve: 0, checkpointInterval: 0.2, split: 1)
) -> TransferRequest {
    TransferRequest(
        id: TaskID(id), url: url, directory: directory, fileName: fileName, requestedName: nil,
        resumeFrom: resumeFrom, expectedTotal: expectedTotal, validators: validators, checksum: checksum,
        headers: [], options: options)
}

func contents(_ path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map { [UInt8]($0) }
}

func listing(_ directory: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
}

/// Every event the engine emitted, in order.
final class EventLog: Sendable {
    private let events = PthreadMutex<[TransferEvent]>([])

    func append(_ event: TransferEvent) { events.withLock { $0.append(event) } }

    var all: [TransferEvent] { events.withLock { $0 } }
}
