import Foundation
import GRDB
import HaulCore

/// One row of the `task` table, column for column; converts to and from `DownloadTask`.
///
/// The row keeps the stored forms: the checksum as `sha-256=HEX` text and the headers as a JSON
/// array of strings. Conversion to a `DownloadTask` checks both and throws
/// `StoreError.unreadableValue` rather than guessing.
struct TaskRecord: Equatable {
    var id: Int64?
    var url: String
    var directory: String
    var requestedName: String?
    var fileName: String?
    var state: TaskState
    var position: Int64
    var bytesDone: Int64
    var totalBytes: Int64?
    var etag: String?
    var lastModified: String?
    /// The `Server` header and the link's host the validators came with (`RemoteValidators`).
    var validatorServer: String?
    var validatorHost: String?
    var attempts: Int
    var lastError: String?
    /// `sha-256=HEX`, as `Checksum.description` writes it.
    var checksum: String?
    /// A JSON array of `K: V` strings; `[]` when there are none.
    var headers: String
    var createdAt: Date
    var finishedAt: Date?
    /// `LinkChange`'s raw value while a replaced link is unconfirmed.
    var linkChange: String?
    /// A JSON array of earlier links; `[]` when there are none.
    var linkHistory: String
    /// `RequestOptions` as a JSON object; nil when none are set.
    var requestOptions: String?
    /// A JSON array of the cookies servers set (Netscape lines); `[]` when there are none.
    var cookies: String = "[]"
    /// A JSON array of mirror links; `[]` when there are none.
    var mirrors: String = "[]"
    /// A JSON array of `{"url", "reason"}` objects; `[]` when no link was dropped.
    var droppedLinks: String = "[]"
    /// `StreamInfo` as a JSON object for a stream task; nil for a file.
    var stream: String?
    /// `TaskKind`'s raw value once the first answer decided it; nil before.
    var kind: String?
    /// `WebPage` as a JSON object for a task whose link came from a web page (or a page kept as a file); nil otherwise.
    var page: String?
    /// The group a task was added in (a playlist page's videos); nil for a task on its own.
    var groupName: String?

    enum Columns {
        static let id = Column("id")
        static let url = Column("url")
        static let directory = Column("directory")
        static let requestedName = Column("requestedName")
        static let fileName = Column("fileName")
        static let state = Column("state")
        static let position = Column("position")
        static let bytesDone = Column("bytesDone")
        static let totalBytes = Column("totalBytes")
        static let etag = Column("etag")
        static let lastModified = Column("lastModified")
        static let validatorServer = Column("validatorServer")
        static let validatorHost = Column("validatorHost")
        static let attempts = Column("attempts")
        static let lastError = Column("lastError")
        static let checksum = Column("checksum")
        static let headers = Column("headers")
        static let createdAt = Column("createdAt")
        static let finishedAt = Column("finishedAt")
        static let linkChange = Column("linkChange")
        static let linkHistory = Column("linkHistory")
        static let requestOptions = Column("requestOptions")
        static let cookies = Column("cookies")
        static let mirrors = Column("mirrors")
        static let droppedLinks = Column("droppedLinks")
        static let stream = Column("stream")
        static let kind = Column("kind")
        static let page = Column("page")
        static let groupName = Column("groupName")
    }
}

// MARK: - DownloadTask conversion

extension TaskRecord {
    /// The row for an existing task: every field, id included.
    init(_ task: DownloadTask) {
        self.init(
            id: task.id.rawValue, url: task.url, directory: task.directory,
            requestedName: task.requestedName, fileName: task.fileName, state: task.state,
            position: task.position, bytesDone: task.bytesDone, totalBytes: task.totalBytes,
            etag: task.validators.etag, lastModified: task.validators.lastModified,
            validatorServer: task.validators.server, validatorHost: task.validators.host,
            attempts: task.attempts, lastError: task.lastError, checksum: task.checksum?.description,
            headers: Self.encodeStrings(task.headers), createdAt: task.createdAt, finishedAt: task.finishedAt,
            linkChange: task.linkChange?.rawValue, linkHistory: Self.encodeStrings(task.linkHistory),
            requestOptions: Self.encodeOptions(task.requestOptions), cookies: Self.encodeStrings(task.cookies),
            mirrors: Self.encodeStrings(task.mirrors), droppedLinks: Self.encodeDropped(task.droppedLinks),
            stream: task.stream.flatMap(Self.encodeStream), kind: task.kind?.rawValue,
            page: task.page.flatMap(Self.encodeJSON), groupName: task.group)
    }

    /// The task this row stores; throws when a stored value cannot be read back.
    func task() throws(StoreError) -> DownloadTask {
        guard let id else { preconditionFailure("a task row read from the database has an id") }
        let taskID = TaskID(id)
        /// A stored text read back, or the error naming its column.
        func read<T>(_ text: String, _ column: String, _ parse: (String) -> T?) throws(StoreError) -> T {
            guard let value = parse(text) else { throw .unreadableValue(taskID: taskID, column: column, value: text) }
            return value
        }
        let parsedChecksum = try checksum.map { text throws(StoreError) in try read(text, "checksum", Checksum.init(parsing:)) }
        let parsedHeaders = try read(headers, "headers", Self.decodeStrings)
        let parsedLinkChange = try linkChange.map { text throws(StoreError) in try read(text, "linkChange", LinkChange.init(rawValue:)) }
        let parsedHistory = try read(linkHistory, "linkHistory", Self.decodeStrings)
        let parsedMirrors = try read(mirrors, "mirrors", Self.decodeStrings)
        let parsedDropped = try read(droppedLinks, "droppedLinks", Self.decodeDropped)
        var task = DownloadTask(
            id: taskID, url: url, directory: directory, requestedName: requestedName, fileName: fileName,
            state: state, position: position, bytesDone: bytesDone, totalBytes: totalBytes,
            validators: RemoteValidators(etag: etag, lastModified: lastModified, server: validatorServer, host: validatorHost), attempts: attempts,
            lastError: lastError, checksum: parsedChecksum, headers: parsedHeaders,
            createdAt: createdAt, finishedAt: finishedAt)
        task.linkChange = parsedLinkChange
        task.linkHistory = parsedHistory
        if let requestOptions { task.requestOptions = try read(requestOptions, "requestOptions", Self.decodeOptions) }
        task.cookies = try read(cookies, "cookies", Self.decodeStrings)
        task.mirrors = parsedMirrors
        task.droppedLinks = parsedDropped
        if let stream { task.stream = try read(stream, "stream", Self.decodeStream) }
        if let kind { task.kind = try read(kind, "kind", TaskKind.init(rawValue:)) }
        if let page { task.page = try read(page, "page", { Self.decodeJSON($0) as WebPage? }) }
        task.group = groupName
        return task
    }

    /// A JSON array (`[]` for none: the column's default, written without the encoder).
    static func encodeList<T: Encodable>(_ items: [T]) -> String {
        if items.isEmpty { return "[]" }
        // Encoding strings and plain structs of strings cannot fail.
        return encodeJSON(items) ?? "[]"
    }

    static func decodeList<T: Decodable>(_ text: String) -> [T]? {
        text == "[]" ? [] : decodeJSON(text)
    }

    static func encodeJSON<T: Encodable>(_ value: T) -> String? {
        (try? JSONEncoder().encode(value)).map { String(decoding: $0, as: UTF8.self) }
    }

    static func decodeJSON<T: Decodable>(_ text: String) -> T? {
        try? JSONDecoder().decode(T.self, from: Data(text.utf8))
    }

    /// A list of strings (headers, earlier links, cookies, mirrors) as a JSON array.
    static func encodeStrings(_ strings: [String]) -> String { encodeList(strings) }
    static func decodeStrings(_ text: String) -> [String]? { decodeList(text) }

    /// Request options as a JSON object, nil when none are set.
    static func encodeOptions(_ options: RequestOptions) -> String? { options.isEmpty ? nil : encodeJSON(options) }
    static func decodeOptions(_ text: String) -> RequestOptions? { decodeJSON(text) }

    /// Dropped links as a JSON array of `{"url", "reason"}` objects.
    static func encodeDropped(_ dropped: [DroppedLink]) -> String { encodeList(dropped) }
    static func decodeDropped(_ text: String) -> [DroppedLink]? { decodeList(text) }

    /// A stream's `StreamInfo` as a JSON object.
    static func encodeStream(_ info: StreamInfo) -> String? { encodeJSON(info) }
    static func decodeStream(_ text: String) -> StreamInfo? { decodeJSON(text) }
}

// MARK: - Bulk reads

extension TaskRecord {
    /// Every column in the order `init(positional:)` reads them.
    static let selection = """
        id, url, directory, requestedName, fileName, state, position, bytesDone, totalBytes, etag, lastModified,
        attempts, lastError, checksum, headers, createdAt, finishedAt, linkChange, linkHistory, requestOptions, cookies,
        mirrors, droppedLinks, stream, validatorServer, validatorHost, kind, page, groupName
        """

    /// The columns of `selection` that make a task's details (`DownloadTask.Details`: what tasks added together share),
    /// by position; `init(fieldsOf:)` leaves them at their defaults.
    static let detailColumns = [13, 14, 17, 18, 19, 20, 21, 22, 23, 27, 28]

    /// A row of `SELECT \(selection)`, read by position: loading a queue of thousands at start-up
    /// should not look every column up by name.
    init(positional row: Row) {
        self.init(
            id: row[0], url: row[1], directory: row[2], requestedName: row[3], fileName: row[4], state: row[5],
            position: row[6], bytesDone: row[7], totalBytes: row[8], etag: row[9], lastModified: row[10],
            validatorServer: row[24], validatorHost: row[25], attempts: row[11], lastError: row[12], checksum: row[13], headers: row[14],
            createdAt: Date(storedValue: row[15]) ?? Date(timeIntervalSince1970: 0),
            finishedAt: Date(storedValue: row[16]), linkChange: row[17], linkHistory: row[18], requestOptions: row[19],
            cookies: row[20], mirrors: row[21], droppedLinks: row[22], stream: row[23],
            kind: row[26], page: row[27], groupName: row[28])
    }
}

// MARK: - GRDB

extension TaskRecord: FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "task"

    init(row: Row) throws {
        id = try row.decode(forColumn: Columns.id)
        url = try row.decode(forColumn: Columns.url)
        directory = try row.decode(forColumn: Columns.directory)
        requestedName = try row.decode(forColumn: Columns.requestedName)
        fileName = try row.decode(forColumn: Columns.fileName)
        state = try row.decode(forColumn: Columns.state)
        position = try row.decode(forColumn: Columns.position)
        bytesDone = try row.decode(forColumn: Columns.bytesDone)
        totalBytes = try row.decode(forColumn: Columns.totalBytes)
        etag = try row.decode(forColumn: Columns.etag)
        lastModified = try row.decode(forColumn: Columns.lastModified)
        validatorServer = try row.decode(forColumn: Columns.validatorServer)
        validatorHost = try row.decode(forColumn: Columns.validatorHost)
        attempts = try row.decode(forColumn: Columns.attempts)
        lastError = try row.decode(forColumn: Columns.lastError)
        checksum = try row.decode(forColumn: Columns.checksum)
        headers = try row.decode(forColumn: Columns.headers)
        createdAt = Date(storedValue: row[Columns.createdAt]) ?? Date(timeIntervalSince1970: 0)
        finishedAt = Date(storedValue: row[Columns.finishedAt])
        linkChange = try row.decode(forColumn: Columns.linkChange)
        linkHistory = try row.decode(forColumn: Columns.linkHistory)
        requestOptions = try row.decode(forColumn: Columns.requestOptions)
        cookies = try row.decode(forColumn: Columns.cookies)
        mirrors = try row.decode(forColumn: Columns.mirrors)
        droppedLinks = try row.decode(forColumn: Columns.droppedLinks)
        stream = try row.decode(forColumn: Columns.stream)
        kind = try row.decode(forColumn: Columns.kind)
        page = try row.decode(forColumn: Columns.page)
        groupName = try row.decode(forColumn: Columns.groupName)
    }

    func encode(to container: inout PersistenceContainer) {
        container[Columns.id] = id
        container[Columns.url] = url
        container[Columns.directory] = directory
        container[Columns.requestedName] = requestedName
        container[Columns.fileName] = fileName
        container[Columns.state] = state
        container[Columns.position] = position
        container[Columns.bytesDone] = bytesDone
        container[Columns.totalBytes] = totalBytes
        container[Columns.etag] = etag
        container[Columns.lastModified] = lastModified
        container[Columns.validatorServer] = validatorServer
        container[Columns.validatorHost] = validatorHost
        container[Columns.attempts] = attempts
        container[Columns.lastError] = lastError
        container[Columns.checksum] = checksum
        container[Columns.headers] = headers
        container[Columns.createdAt] = createdAt.storedValue
        container[Columns.finishedAt] = finishedAt?.storedValue
        container[Columns.linkChange] = linkChange
        container[Columns.linkHistory] = linkHistory
        container[Columns.requestOptions] = requestOptions
        container[Columns.cookies] = cookies
        container[Columns.mirrors] = mirrors
        container[Columns.droppedLinks] = droppedLinks
        container[Columns.stream] = stream
        container[Columns.kind] = kind
        container[Columns.page] = page
        container[Columns.groupName] = groupName
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
