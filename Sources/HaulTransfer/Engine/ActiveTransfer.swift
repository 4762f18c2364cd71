import CCurl
import Foundation
import HaulCore

/// One running download on the transfer thread: its easy handle, its part file and its counters.
///
/// Confined to the transfer thread. libcurl calls back into it through an unretained pointer; the
/// engine keeps it alive in its table until after the handle left the multi handle.
final class ActiveTransfer {
    let request: TransferRequest
    /// Distinguishes attempts of the same task, so late disk results of an old attempt are ignored.
    let attempt: Int
    let easy = CurlEasy()
    let directory: DownloadDirectory
    let host: String
    private let emit: (TransferEvent) -> Void
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    private(set) var fileName: String?
    private(set) var writer: FileWriter?
    private(set) var head = ResponseHead()
    /// Bytes of the current content in the part file.
    private(set) var position: Int64 = 0
    /// Bytes known to be synced.
    var durable: Int64 = 0
    private(set) var total: Int64?
    private(set) var requestedOffset: Int64 = 0
    private(set) var acceptingBody = false
    private(set) var alreadyComplete = false
    /// The reason this attempt must end, set by a callback (which then makes libcurl abort) or by the engine.
    var failure: DownloadError?
    /// Bumped on every truncation, so a sync started before it cannot record stale bytes.
    private(set) var epoch = 0
    var lastReported: Int64 = -1
    var lastCheckpoint: ContinuousClock.Instant = .now
    var lastDiskCheck: ContinuousClock.Instant = .now
    var syncInFlight = false

    /// Part files (full paths) of this engine's transfers; owned by the transfer thread.
    private let partsInUse: PartRegistry
    /// The file was already published by an earlier run that died before recording it: nothing to fetch.
    private(set) var publishedEarlier = false

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
        if let name = request.fileName, let total = request.expectedTotal,
           directory.regularFileSize(PartialFilePath.partName(for: name)) == nil,
           directory.regularFileSize(name) == total {
            // Renamed into place, then the process died before the database heard of it.
            fileName = name
            position = total
            durable = total
            publishedEarlier = true
            return
        }
        try checkFreeSpace(needed: nil)
        if let name = request.fileName {
            // An earlier attempt decided the name: continue its part file from the durable byte.
            let writer = try directory.openPart(of: name)
            let onDisk = try writer.size()
            let resumeAt = max(0, min(request.resumeFrom, onDisk))
            if onDisk != resumeAt { try writer.truncate(to: resumeAt) }
            fileName = name
            self.writer = writer
            partsInUse.paths.insert(writer.path)
            position = resumeAt
            durable = resumeAt
            requestedOffset = resumeAt
        }
    }

    deinit {
        // The part file stays registered until the engine's closing work on it is done (`.concluded`).
        writer?.close()
        errorBuffer.deallocate()
    }

    /// Sets every option on the easy handle. Callbacks and `CURLINFO_PRIVATE` get an unretained pointer
    /// to `self`, which the engine's table keeps alive until the handle has left the multi handle.
    func configure() throws(CurlError) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        let options = request.options
        try easy.set(CURLOPT_URL, request.url)
        try easy.set(CURLOPT_PROTOCOLS_STR, "http,https")
        try easy.set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        try easy.set(CURLOPT_NOSIGNAL, true)
        try easy.set(CURLOPT_FOLLOWLOCATION, true)
        try easy.set(CURLOPT_MAXREDIRS, 10)
        try easy.set(CURLOPT_CONNECTTIMEOUT, options.connectTimeout)
        try easy.set(CURLOPT_LOW_SPEED_LIMIT, 1)
        try easy.set(CURLOPT_LOW_SPEED_TIME, options.stallTimeout)
        // 256 KiB reads are cheapest; with a rate limit, smaller reads keep libcurl from bursting past it.
        let buffer = options.rateLimit.map { Int(max(16 << 10, min(256 << 10, $0 / 8))) } ?? 256 << 10
        try easy.set(CURLOPT_BUFFERSIZE, buffer)
        try easy.set(CURLOPT_TCP_KEEPALIVE, true)
        try easy.set(CURLOPT_USERAGENT, "haul/0.1")
        try easy.set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
        if let limit = options.rateLimit { try easy.set(CURLOPT_MAX_RECV_SPEED_LARGE, offset: limit) }
        if let ca = options.caCertificate { try easy.set(CURLOPT_CAINFO, ca) }
        var headers = request.headers
        if requestedOffset > 0 {
            try easy.set(CURLOPT_RANGE, "\(requestedOffset)-")
            if let ifRange = request.validators.ifRangeValue { headers.append("If-Range: \(ifRange)") }
        }
        if !headers.isEmpty { try easy.setHeaders(headers) }
        try easy.set(CURLOPT_HEADERFUNCTION, callback: headerCallback)
        try easy.set(CURLOPT_HEADERDATA, pointer: context)
        try easy.set(CURLOPT_WRITEFUNCTION, callback: bodyCallback)
        try easy.set(CURLOPT_WRITEDATA, pointer: context)
        try easy.set(CURLOPT_PRIVATE, pointer: context)
    }

    /// The transfer an easy handle belongs to, through `CURLINFO_PRIVATE`.
    static func owner(of easy: UnsafeMutableRawPointer) -> ActiveTransfer? {
        var context: UnsafeMutableRawPointer?
        guard CCurl_easy_getinfo_pointer(easy, CURLINFO_PRIVATE, &context) == CURLE_OK, let context else { return nil }
        return Unmanaged<ActiveTransfer>.fromOpaque(context).takeUnretainedValue()
    }

    // MARK: - Callbacks (transfer thread, inside curl_multi_perform)

    func onHeaderLine(_ bytes: UnsafeRawBufferPointer) -> Int {
        if head.feed(bytes: bytes), !head.isInformational, !head.isFollowedRedirect {
            decide()
        }
        return bytes.count
    }

    func onBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard failure == nil else { return 0 }
        guard acceptingBody, let writer else {
            if alreadyComplete { return bytes.count }  // a 416's small body: not ours
            failure = .serverLied("body data arrived before a complete response head")
            return 0
        }
        if let total, position + Int64(bytes.count) > total {
            failure = .serverLied("sent more than the \(total) bytes it announced")
            return 0
        }
        do {
            try writer.write(bytes, at: position)
        } catch {
            failure = error
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
                acceptingBody = true
            case let .restart(total, reason):
                try startOver()
                self.total = total
                restartReason = reason
                acceptingBody = true
            case let .alreadyComplete(total):
                self.total = total
                alreadyComplete = true
            case let .reject(error):
                failure = error
                return
            case let .discardAndRetry(error):
                if writer != nil { try startOver() }
                failure = error
                return
            }
            if let total { try checkFreeSpace(needed: total - position) }
        } catch {
            failure = error
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
            let (name, writer) = try directory.reservePart(
                for: chooseName(), inUse: partsInUse.paths, heldElsewhere: request.namesHeldElsewhere)
            fileName = name
            self.writer = writer
            partsInUse.paths.insert(writer.path)
        }
        epoch += 1
        position = 0
        // Recording 0 needs no sync: the database may never claim more than the file holds.
        if durable != 0 || request.resumeFrom != 0 { emit(.checkpoint(request.id, durableBytes: 0)) }
        durable = 0
    }

    /// `-o`, else Content-Disposition, else the URL's last segment (as given, then after redirects), sanitised.
    private func chooseName() -> String {
        if let requested = request.requestedName.flatMap(SafeFileName.sanitize) { return requested }
        if let disposition = head["content-disposition"],
           let name = ContentDisposition.fileName(from: disposition).flatMap(SafeFileName.sanitize) {
            return name
        }
        if let name = SafeFileName.fromURL(request.url) { return name }
        if let effective = easy.info(string: CURLINFO_EFFECTIVE_URL), let name = SafeFileName.fromURL(effective) {
            return name
        }
        return SafeFileName.fallback(for: request.url)
    }

    /// Fails with `lowDiskSpace` when free space is under the reserve (or under what the rest of the file needs).
    func checkFreeSpace(needed: Int64?) throws(DownloadError) {
        guard let free = directory.freeBytes() else { return }
        let reserve = request.options.diskReserve
        let rest = max(0, needed ?? 0)
        if free < reserve + rest {
            throw .lowDiskSpace(path: request.directory, freeBytes: free, neededBytes: rest, reserveBytes: reserve)
        }
    }

    // MARK: - Outcome

    enum Ending: Sendable {
        case paused
        case failed(DownloadError)
        case complete
    }

    /// How the attempt ended, given libcurl's result code (nil when the engine stops it).
    func ending(for result: CURLcode?) -> Ending {
        if let failure { return .failed(failure) }
        guard let result else { return .paused }
        guard result == CURLE_OK else { return .failed(error(for: result)) }
        if alreadyComplete { return .complete }
        guard acceptingBody else { return .failed(.serverLied("the connection ended without a usable response")) }
        if let total, position != total { return .failed(.sizeMismatch(expected: total, actual: position)) }
        return .complete
    }

    private func error(for code: CURLcode) -> DownloadError {
        let detail = String(cString: errorBuffer)
        let message = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
        switch code {
        case CURLE_UNSUPPORTED_PROTOCOL:
            let effective = easy.info(string: CURLINFO_EFFECTIVE_URL) ?? request.url
            let scheme = URLComponents(string: effective)?.scheme?.lowercased() ?? effective
            // On an http(s) URL this means the answer was not HTTP at all (a garbage status line).
            guard scheme == "http" || scheme == "https" else { return .unsupportedScheme(scheme) }
            return .serverLied("the answer from \(host) is not valid HTTP (\(message))")
        case CURLE_URL_MALFORMAT:
            return .invalidURL(request.url)
        case CURLE_TOO_MANY_REDIRECTS:
            return .tooManyRedirects(host: host)
        case CURLE_OPERATION_TIMEDOUT where head.status != 0:
            return .stalled(seconds: request.options.stallTimeout, host: host)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH:
            return .tls(message: message, host: host)
        default:
            return .network(code: Int(code.rawValue), message: message, host: host)
        }
    }
}

/// The part files this engine's transfers hold, so a new transfer never takes over a sibling's empty part file.
///
/// Owned and used by the transfer thread only.
final class PartRegistry {
    var paths: Set<String> = []
}

/// `CURLOPT_HEADERFUNCTION`: one header line of any response.
let headerCallback: curl_write_callback = { data, size, count, context in
    let transfer = Unmanaged<ActiveTransfer>.fromOpaque(context!).takeUnretainedValue()
    return transfer.onHeaderLine(UnsafeRawBufferPointer(start: data, count: size * count))
}

/// `CURLOPT_WRITEFUNCTION`: body bytes of the final response; returning less than given aborts the transfer.
let bodyCallback: curl_write_callback = { data, size, count, context in
    let transfer = Unmanaged<ActiveTransfer>.fromOpaque(context!).takeUnretainedValue()
    return transfer.onBody(UnsafeRawBufferPointer(start: data, count: size * count))
}
