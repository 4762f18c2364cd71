import CCurl
import Foundation
import HaulCore

/// One running download on the transfer thread: its easy handle, its part file and its counters.
///
/// Confined to the transfer thread. libcurl calls back into it through an unretained pointer; the
/// engine keeps it alive in its table until after the handle left the multi handle.
final class ActiveTransfer {
    /// Where the attempt stands.
    enum Phase: Equatable {
        /// No final response head yet.
        case awaitingResponse
        /// The final head was accepted: body bytes go into the part file.
        case receiving
        /// A 416 at the file's end: the part file already holds every byte.
        case alreadyComplete
        /// The final file is in place from a run that died before recording it: nothing to fetch.
        case publishedEarlier
        /// The attempt must end for this reason (set by a callback, which then makes libcurl abort, or by the engine).
        case failed(DownloadError)
    }

    let request: TransferRequest
    /// Distinguishes attempts of the same task, so late disk results of an old attempt are ignored.
    let attempt: Int
    let easy = CurlEasy()
    let directory: DownloadDirectory
    let host: String
    let emit: (TransferEvent) -> Void
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    private(set) var phase = Phase.awaitingResponse
    private(set) var fileName: String?
    private(set) var writer: FileWriter?
    private(set) var head = ResponseHead()
    /// Bytes of the current content in the part file.
    private(set) var position: Int64 = 0
    /// Bytes known to be synced.
    var durable: Int64 = 0
    private(set) var total: Int64?
    /// Where the request asks the body to start (sent as a Range when above 0).
    private(set) var requestedOffset: Int64 = 0
    /// Bumped on every truncation, so a sync started before it cannot record stale bytes.
    private(set) var epoch = 0
    var lastReported: Int64 = -1
    var lastCheckpoint: ContinuousClock.Instant = .now
    var lastDiskCheck: ContinuousClock.Instant = .now
    var syncInFlight = false

    /// Part files (full paths) of this engine's transfers; owned by the transfer thread.
    private let partsInUse: PartRegistry

    init(
        request: TransferRequest, attempt: Int, partsInUse: PartRegistry, emit: @escaping (TransferEvent) -> Void
    ) throws(DownloadError) {
        self.request = request
        self.attempt = attempt
        self.partsInUse = partsInUse
        self.emit = emit
        host = URLValidation.host(of: request.url)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        directory = try DownloadDirectory(path: request.directory)
        let point = ResumePoint.decide(
            fileName: request.fileName, recordedBytes: request.resumeFrom, expectedTotal: request.expectedTotal,
            partSize: request.fileName.flatMap { directory.regularFileSize(PartialFilePath.partName(for: $0)) },
            finalFileSize: request.fileName.flatMap { directory.regularFileSize($0) })
        switch point {
        case let .publishedEarlier(total):
            fileName = request.fileName
            position = total
            durable = total
            phase = .publishedEarlier
        case .undecided:
            try checkFreeSpace(needed: nil)
        case let .continuePart(offset, truncate):
            try checkFreeSpace(needed: nil)
            guard let name = request.fileName else { return }
            let writer = try directory.openPart(of: name)
            if truncate { try writer.truncate(to: offset) }
            fileName = name
            self.writer = writer
            partsInUse.paths.insert(writer.path)
            position = offset
            durable = offset
            requestedOffset = offset
        }
    }

    deinit {
        // The part file stays registered until the engine's closing work on it is done (`.concluded`).
        writer?.close()
        errorBuffer.deallocate()
    }

    /// Ends the attempt for `error` at the next chance (the engine concludes it, or a callback aborts).
    func fail(_ error: DownloadError) { phase = .failed(error) }

    // MARK: - Response (transfer thread, inside curl_multi_perform)

    func onHeaderLine(_ bytes: UnsafeRawBufferPointer) -> Int {
        if head.feed(bytes: bytes), !head.isInformational, !head.isFollowedRedirect {
            decide()
        }
        return bytes.count
    }

    func onBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        switch phase {
        case .receiving: break
        case .alreadyComplete: return bytes.count  // a 416's small body: not ours
        case .failed, .publishedEarlier: return 0
        case .awaitingResponse:
            phase = .failed(.serverLied("body data arrived before a complete response head"))
            return 0
        }
        guard let writer else { return 0 }
        if let total, position + Int64(bytes.count) > total {
            phase = .failed(.serverLied("sent more than the \(total) bytes it announced"))
            return 0
        }
        do {
            try writer.write(bytes, at: position)
        } catch {
            phase = .failed(error)
            return 0
        }
        position += Int64(bytes.count)
        return bytes.count
    }

    /// Reads the final response head and sets the part file up for its body.
    private func decide() {
        let verdict = ResumeCheck.verdict(
            head: head, requestedOffset: requestedOffset, expectedTotal: request.expectedTotal,
            storedValidators: request.validators, host: host)
        var restartReason: String?
        do {
            switch verdict {
            case let .append(offset, total):
                position = offset
                self.total = total
                phase = .receiving
            case let .restart(total, reason):
                try startOver()
                self.total = total
                restartReason = reason
                phase = .receiving
            case let .alreadyComplete(total):
                self.total = total
                phase = .alreadyComplete
            case let .reject(error):
                phase = .failed(error)
                return
            case let .discardAndRetry(error):
                if writer != nil { try startOver() }
                phase = .failed(error)
                return
            }
            if let total { try checkFreeSpace(needed: total - position) }
        } catch {
            phase = .failed(error)
            return
        }
        guard let fileName else { return }
        let validators = RemoteValidators(etag: head["etag"], lastModified: head["last-modified"])
        emit(.responded(request.id, ResponseSummary(
            fileName: fileName, totalBytes: total, validators: validators, offset: position,
            restartReason: restartReason, httpStatus: head.status)))
    }

    /// Empties the part file (reserving one first when the name is not decided yet); records 0 durable bytes.
    private func startOver() throws(DownloadError) {
        if let writer {
            try writer.truncate(to: 0)
        } else {
            let name = FileNameChoice.choose(
                requested: request.requestedName, contentDisposition: head["content-disposition"], url: request.url,
                effectiveURL: { self.easy.info(string: CURLINFO_EFFECTIVE_URL) })
            let (reserved, writer) = try directory.reservePart(
                for: name, inUse: partsInUse.paths, heldElsewhere: request.namesHeldElsewhere)
            fileName = reserved
            self.writer = writer
            partsInUse.paths.insert(writer.path)
        }
        epoch += 1
        position = 0
        // Recording 0 needs no sync: the database may never claim more than the file holds.
        if durable != 0 || request.resumeFrom != 0 { emit(.checkpoint(request.id, durableBytes: 0)) }
        durable = 0
    }

    // MARK: - Disk checks (transfer thread, about once a second)

    /// Fails with `lowDiskSpace` when free space is under the reserve (or under what the rest of the file needs).
    func checkFreeSpace(needed: Int64?) throws(DownloadError) {
        guard let free = directory.freeBytes() else { return }
        let reserve = request.options.diskReserve
        let rest = max(0, needed ?? 0)
        if free < reserve + rest {
            throw .lowDiskSpace(path: request.directory, freeBytes: free, neededBytes: rest, reserveBytes: reserve)
        }
    }

    /// Fails with `partFileRemoved` when the part file lost its last link (deleted, or its folder removed):
    /// writing on would fill a file nobody can reach.
    func checkPartFileLinked() throws(DownloadError) {
        guard let writer, writer.linkCount() == 0 else { return }
        throw .partFileRemoved(path: writer.path)
    }

    // MARK: - Outcome

    enum Ending: Sendable {
        case paused
        case failed(DownloadError)
        case complete
    }

    /// How the attempt ended, given libcurl's result code (nil when the engine stops it).
    func ending(for result: CURLcode?) -> Ending {
        if case let .failed(error) = phase { return .failed(error) }
        guard let result else { return .paused }
        guard result == CURLE_OK else {
            return .failed(DownloadError(
                curlCode: result, detail: String(cString: errorBuffer), url: request.url,
                effectiveURL: easy.info(string: CURLINFO_EFFECTIVE_URL), host: host, responseSeen: head.status != 0,
                stallTimeout: request.options.stallTimeout))
        }
        switch phase {
        case .alreadyComplete, .publishedEarlier:
            return .complete
        case .awaitingResponse, .failed:
            return .failed(.serverLied("the connection ended without a usable response"))
        case .receiving:
            if let total, position != total { return .failed(.sizeMismatch(expected: total, actual: position)) }
            return .complete
        }
    }
}

/// The part files this engine's transfers hold, so a new transfer never takes over a sibling's empty part file.
///
/// Owned and used by the transfer thread only.
final class PartRegistry {
    var paths: Set<String> = []
}
