import Foundation
import HaulCore
import HaulReport

/// Typed calls to the owner of the engine over its Unix socket (`haul.*` methods): what the CLI and the
/// attached list use.
public struct OwnerClient: Sendable {
    let client: RemoteClient

    /// - Parameter maxResponseBytes: the largest answer taken (a page of rows is far below the default).
    public init(socketPath: String, timeout: Duration = .seconds(30), maxResponseBytes: Int = 64 << 20) {
        client = RemoteClient(socketPath: socketPath, timeout: timeout, maxResponseBytes: maxResponseBytes)
    }

    public var socketPath: String { client.socketPath }

    /// The owner's process id; throws `RemoteClientError.noOwner` when nobody listens.
    public func processID() async throws -> Int32 {
        let result = try await call("haul.info", [JSONValue]())
        guard let pid = result.objectValue?["pid"]?.integerValue else { throw OwnerCallError.unexpected("haul.info") }
        return Int32(clamping: pid)
    }

    /// Carries out commands as one batch in the owner; one result each.
    public func perform(_ commands: [QueueCommand]) async throws -> [CommandResult] {
        let result = try await call("haul.perform", [try JSONValue.encoding(commands)])
        return try result.decoded(as: [CommandResult].self)
    }

    /// The owner's latest snapshot.
    public func snapshot() async throws -> QueueSnapshot {
        try await snapshotCall([:], client: client)
    }

    /// Rows `from..<from + limit` of the owner's snapshot `sequence` while it holds it for a listing, else of its
    /// latest (`haul.rows`); `packed` asks for them as `PackedRows`.
    public func rows(from: Int, limit: Int, sequence: UInt64? = nil, packed: Bool = false) async throws -> RowsPage {
        var options: [String: JSONValue] = ["from": .int(Int64(from)), "limit": .int(Int64(limit))]
        if let sequence { options["sequence"] = .int(Int64(clamping: sequence)) }
        if packed { options["packed"] = .bool(true) }
        return try await decodedCall("haul.rows", options, client: client)
    }

    /// The first `limit` rows of the owner's latest snapshot as the start of a whole one, which the owner keeps for
    /// this caller's next `snapshotChange` (a delta from it); nil when the owner is older than this client (its pages
    /// carry no figures, or it has no pages).
    public func firstPage(limit: Int) async throws -> SnapshotAssembly? {
        let options: [String: JSONValue] = ["from": 0, "limit": .int(Int64(limit)), "follow": .bool(true), "packed": .bool(true)]
        do {
            return SnapshotAssembly(first: try await decodedCall("haul.rows", options, client: client))
        } catch OwnerCallError.refused {
            return nil
        }
    }

    /// Reads the rest of `assembly` a page of `pageSize` at a time (the next page is asked while this one is taken),
    /// calling `progress` after each; false when a page did not follow (the owner no longer holds that snapshot).
    public func readRest(
        of assembly: inout SnapshotAssembly, pageSize: Int = RowsPage.maxRows,
        progress: (SnapshotAssembly) -> Void = { _ in }
    ) async throws -> Bool {
        let sequence = assembly.sequence
        var ahead: Task<RowsPage, any Error>? = assembly.next.map { next in
            Task { [self] in try await rows(from: next, limit: pageSize, sequence: sequence, packed: true) }
        }
        while let asked = ahead {
            let page = try await asked.value
            guard assembly.take(page) else { return false }
            ahead = assembly.next.map { next in
                Task { [self] in try await rows(from: next, limit: pageSize, sequence: sequence, packed: true) }
            }
            progress(assembly)
        }
        return true
    }

    /// The owner's latest snapshot, whole, read a page at a time (from an owner older than this client, as one
    /// answer); kept by the owner for this caller's next `snapshotChange`.
    public func wholeSnapshot(pageSize: Int = RowsPage.maxRows) async throws -> QueueSnapshot {
        // A second listing can take the owner's hold of the snapshot between two pages: begin again, a few times.
        for _ in 0..<3 {
            guard var assembly = try await firstPage(limit: pageSize) else { break }
            if try await readRest(of: &assembly, pageSize: pageSize) { return assembly.snapshot }
        }
        return try await snapshot()
    }

    /// Every row of one snapshot, in its order, handed to `body` a page at a time as read (the next page is read
    /// while `body` takes this one): a listing holds two pages, never the queue.
    public func forEachRow(pageSize: Int = 1_000, _ body: (QueueSnapshot.Row) -> Void) async throws {
        var page = try await rows(from: 0, limit: pageSize)
        while true {
            let next = page.from + page.rows.count
            let ahead: Task<RowsPage, any Error>? = page.rows.isEmpty || next >= page.total ? nil
                : Task { [self, sequence = page.sequence] in try await rows(from: next, limit: pageSize, sequence: sequence) }
            for row in page.rows { body(row) }
            guard let ahead else { return }
            page = try await ahead.value
        }
    }

    /// What `haul list` prints in `format` for rows `from..<from + limit` of the owner's snapshot `sequence` while it
    /// holds it for a listing, else of its latest (`haul.lines`).
    public func lines(
        from: Int, limit: Int, sequence: UInt64? = nil, format: QueueListing.Format
    ) async throws -> LinesPage {
        var options: [String: JSONValue] = [
            "from": .int(Int64(from)), "limit": .int(Int64(limit)), "format": try JSONValue.encoding(format),
        ]
        if let sequence { options["sequence"] = .int(Int64(clamping: sequence)) }
        return try await decodedCall("haul.lines", options, client: client)
    }

    /// What `haul list` prints in `format` for every row of one snapshot, handed to `body` a page of lines at a time
    /// as read (the next page is read while `body` takes this one); how many lines there were.
    public func forEachLines(
        pageSize: Int = 2_000, format: QueueListing.Format, _ body: (LinesPage) -> Void
    ) async throws -> Int {
        var page: LinesPage
        do {
            page = try await lines(from: 0, limit: pageSize, format: format)
        } catch OwnerCallError.refused {
            // An owner older than `haul.lines` (running since before an upgrade): its snapshot, formatted here.
            let snapshot = try await snapshot()
            let whole = LinesPage(snapshot, rows: snapshot.rows.indices, format: format)
            if whole.count > 0 { body(whole) }
            return whole.count
        }
        var count = 0
        while true {
            let next = page.next
            let ahead: Task<LinesPage, any Error>? = next >= page.total ? nil
                : Task { [self, sequence = page.sequence] in
                    try await lines(from: next, limit: pageSize, sequence: sequence, format: format)
                }
            if page.count > 0 { body(page) }
            count += page.count
            guard let ahead else { return count }
            page = try await ahead.value
            // A page that moved nowhere (the owner no longer holds the snapshot, and the latest is shorter) ends it.
            guard page.next > next else { return count }
        }
    }

    /// The first snapshot newer than `sequence` as what changed since then (the owner, pid `owner`, served
    /// that one lately), else whole; waiting up to `wait`. With `pages` (rows a page), the owner sends no whole
    /// snapshot, nor a delta of more rows than a page, but the latest one's sequence: the caller reads it with
    /// `wholeSnapshot(pageSize:)`.
    public func snapshotChange(
        after sequence: UInt64, owner: Int32, pages: Int? = nil, wait: Duration = .seconds(10)
    ) async throws -> SnapshotAnswer {
        var options: [String: JSONValue] = [
            "after": .int(Int64(clamping: sequence)), "timeout": .int(wait.milliseconds), "delta": .bool(true),
            "owner": .int(Int64(owner)),
        ]
        if let pages { options["pages"] = .int(Int64(pages)) }
        let answer: SnapshotAnswer = try await snapshotCall(
            options, client: RemoteClient(socketPath: client.socketPath, timeout: wait + .seconds(5)))
        guard answer.full != nil || answer.delta != nil || (pages != nil && answer.sequence != nil) else {
            throw OwnerCallError.unexpected("haul.snapshot")
        }
        return answer
    }

    /// `haul.snapshot` with `options`, read straight into `Result`: it can hold ten thousand rows.
    private func snapshotCall<Result: Decodable>(_ options: [String: JSONValue], client: RemoteClient) async throws -> Result {
        try await decodedCall("haul.snapshot", options, client: client)
    }

    /// `method` with `options`, its answer read straight into `Result` (no `JSONValue` tree of rows first).
    private func decodedCall<Result: Decodable>(
        _ method: String, _ options: [String: JSONValue], client: RemoteClient
    ) async throws -> Result {
        let body = RPCDispatcher.encode(["jsonrpc": "2.0", "id": 1, "method": .string(method), "params": [.object(options)]])
        let (_, answer) = try await client.post(body)
        // Decoded from the answer's own bytes, not a copy of them (a snapshot of 10,000 rows is megabytes).
        let response = try answer.withUnsafeBytes { bytes throws -> SnapshotResponse<Result> in
            guard let base = bytes.baseAddress else { throw OwnerCallError.unexpected("haul.snapshot") }
            let borrowed = Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: bytes.count, deallocator: .none)
            return try JSONDecoder().decode(SnapshotResponse<Result>.self, from: borrowed)
        }
        if let error = response.error { throw OwnerCallError.refused(error.message) }
        guard let result = response.result else { throw OwnerCallError.unexpected(method) }
        return result
    }

    /// Asks the owner to read its settings file again and apply what can change live.
    public func reloadSettings() async throws -> SettingsReloadAnswer {
        try await call("haul.reload", [JSONValue]()).decoded(as: SettingsReloadAnswer.self)
    }

    /// Asks the owner to save its state and exit.
    public func shutdown() async throws {
        _ = try await call("haul.shutdown", [JSONValue]())
    }

    private func call(_ method: String, _ params: [JSONValue]) async throws -> JSONValue {
        try await Self.call(client, method, params)
    }

    private static func call(_ client: RemoteClient, _ method: String, _ params: [JSONValue]) async throws -> JSONValue {
        let body = RPCDispatcher.encode(["jsonrpc": "2.0", "id": 1, "method": .string(method), "params": .array(params)])
        let (_, answer) = try await client.post(body)
        let response = try JSONValue.parse(answer)
        if let error = response.objectValue?["error"]?.objectValue {
            throw OwnerCallError.refused(error["message"]?.stringValue ?? "error")
        }
        guard let result = response.objectValue?["result"] else { throw OwnerCallError.unexpected(method) }
        return result
    }
}

/// An answer to `haul.snapshot` or `haul.rows`, decoded in one pass.
private struct SnapshotResponse<Result: Decodable>: Decodable {
    struct ErrorBody: Decodable { var message: String }
    var result: Result?
    var error: ErrorBody?
}

/// A call the owner answered with an error.
public enum OwnerCallError: Error, CustomStringConvertible {
    case refused(String)
    case unexpected(String)

    public var description: String {
        switch self {
        case let .refused(message): "the running haul refused: \(message)"
        case let .unexpected(method): "the running haul gave an unexpected answer to \(method)"
        }
    }
}

extension Duration {
    /// Whole milliseconds.
    var milliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }
}
