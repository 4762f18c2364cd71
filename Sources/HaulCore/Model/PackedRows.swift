import Foundation

/// Rows as `haul.rows` sends them to an attached list when it asks for them packed: each row one JSON array of its
/// fields in a fixed order (no key per field), and the details tasks added together share (request options,
/// headers, group, …) and directory once per run of rows that share them, each row naming its set by number. A keyed
/// row is about 410 bytes of JSON, and decoding it builds a table of its keys; a packed one is under 40 % of that,
/// read in order. Decoded, the rows equal the rows encoded, and rows of one set hold one copy of their details.
public struct PackedRows: Sendable, Equatable, Codable {
    public var rows: [QueueSnapshot.Row]

    public init(_ rows: [QueueSnapshot.Row]) { self.rows = rows }

    enum CodingKeys: String, CodingKey {
        /// One task per set of details, whole: the details are taken from it.
        case details
        case rows
    }

    public func encode(to encoder: any Encoder) throws {
        var exemplars: [DownloadTask] = []
        var sets: [Int] = []
        sets.reserveCapacity(rows.count)
        for row in rows {
            if let last = exemplars.last, last.storage.value.details == row.task.storage.value.details {
                sets.append(exemplars.count - 1)
            } else {
                exemplars.append(row.task)
                sets.append(exemplars.count - 1)
            }
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(exemplars, forKey: .details)
        var list = container.nestedUnkeyedContainer(forKey: .rows)
        for (row, set) in zip(rows, sets) {
            var fields = list.nestedUnkeyedContainer()
            try Self.encode(row, details: set, of: exemplars[set], into: &fields)
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let exemplars = try container.decode([DownloadTask].self, forKey: .details)
        var list = try container.nestedUnkeyedContainer(forKey: .rows)
        rows = []
        rows.reserveCapacity(list.count ?? 0)
        while !list.isAtEnd {
            var fields = try list.nestedUnkeyedContainer()
            rows.append(try Self.decode(&fields, exemplars: exemplars))
        }
    }

    /// The fields in the order `decode` reads them; the directory null when it is the exemplar's.
    private static func encode(
        _ row: QueueSnapshot.Row, details set: Int, of exemplar: DownloadTask, into fields: inout UnkeyedEncodingContainer
    ) throws {
        let task = row.task.storage.value
        try fields.encode(set)
        try fields.encode(task.id.rawValue)
        try fields.encode(task.url)
        try fields.encodeOptional(task.directory == exemplar.directory ? nil : task.directory)
        try fields.encodeOptional(task.requestedName)
        try fields.encodeOptional(task.fileName)
        try fields.encode(row.task.state)
        try fields.encode(task.position)
        try fields.encode(task.bytesDone)
        try fields.encodeOptional(task.totalBytes)
        try fields.encodeOptional(task.validators == RemoteValidators() ? nil : task.validators)
        try fields.encode(task.attempts)
        try fields.encodeOptional(task.lastError)
        try fields.encode(task.createdAt)
        try fields.encodeOptional(task.finishedAt)
        try fields.encodeOptional(task.kind)
        try fields.encode(row.bytesReceived)
        try fields.encodeOptional(row.speed)
        try fields.encodeOptional(row.eta)
        try fields.encodeOptional(row.retryAt)
        try fields.encode(row.isStalled)
        try fields.encode(row.connections)
        try fields.encodeOptional(row.segmentMap)
        try fields.encodeOptional(row.rateLimit)
        try fields.encode(row.split)
    }

    private static func decode(_ fields: inout UnkeyedDecodingContainer, exemplars: [DownloadTask]) throws -> QueueSnapshot.Row {
        let set = try fields.decode(Int.self)
        guard exemplars.indices.contains(set) else {
            throw DecodingError.dataCorruptedError(in: fields, debugDescription: "no set of details \(set)")
        }
        let id = TaskID(try fields.decode(Int64.self))
        let url = try fields.decode(String.self)
        let directory = try fields.decodeIfPresent(String.self) ?? exemplars[set].directory
        let requestedName = try fields.decodeIfPresent(String.self)
        let fileName = try fields.decodeIfPresent(String.self)
        let state = try fields.decode(TaskState.self)
        let position = try fields.decode(Int64.self)
        let bytesDone = try fields.decode(Int64.self)
        let totalBytes = try fields.decodeIfPresent(Int64.self)
        let validators = try fields.decodeIfPresent(RemoteValidators.self) ?? RemoteValidators()
        let attempts = try fields.decode(Int32.self)
        let lastError = try fields.decodeIfPresent(String.self)
        let createdAt = try fields.decode(Date.self)
        let finishedAt = try fields.decodeIfPresent(Date.self)
        let kind = try fields.decodeIfPresent(TaskKind.self)
        let task = DownloadTask(
            fields: DownloadTask.Fields(
                id: id, url: url, directory: directory, requestedName: requestedName, fileName: fileName, position: position,
                bytesDone: bytesDone, validators: validators, lastError: lastError, createdAt: createdAt,
                details: exemplars[set].storage.value.details, totalBytes: totalBytes, kind: kind, attempts: attempts,
                finishedAt: finishedAt),
            state: state)
        var row = QueueSnapshot.Row(task: task, bytesReceived: try fields.decode(Int64.self))
        row.speed = try fields.decodeIfPresent(Double.self)
        row.eta = try fields.decodeIfPresent(Double.self)
        row.retryAt = try fields.decodeIfPresent(Date.self)
        row.isStalled = try fields.decode(Bool.self)
        row.connections = try fields.decode(Int.self)
        row.segmentMap = try fields.decodeIfPresent(SegmentMap.self)
        row.rateLimit = try fields.decodeIfPresent(RateLimit.self)
        row.split = try fields.decode(Int.self)
        return row
    }
}

extension DownloadTask {
    /// A task of these fields, as decoded from a packed row.
    init(fields: Fields, state: TaskState) {
        storage = CopyOnWrite(fields)
        self.state = state
    }
}

extension UnkeyedEncodingContainer {
    /// The value, or null: a packed row keeps every field's place.
    mutating func encodeOptional<Value: Encodable>(_ value: Value?) throws {
        if let value { try encode(value) } else { try encodeNil() }
    }
}
