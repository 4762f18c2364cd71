import HaulCore

/// The answer to `haul.rows`: a page of a snapshot's rows, so `haul list` through a running haul reads the queue a
/// page at a time (100,000 rows as one answer took the CLI 304 MiB to decode).
public struct RowsPage: Sendable, Codable {
    /// Most rows a page holds.
    public static let maxRows = 5_000
    /// The snapshot the page is from; the next page asked with it comes from the same snapshot while the owner
    /// still holds it (`ListingPin`).
    public var sequence: UInt64
    /// Rows in that snapshot.
    public var total: Int
    /// Where the page's first row is in the snapshot.
    public var from: Int
    /// What the schedule does now (`QueueSnapshot.schedule`).
    public var schedule: String?
    public var rows: [QueueSnapshot.Row]
    /// The snapshot's other figures (counts, caps, schedule, warning) and no row: on the first page (`from` 0) from an
    /// owner that sends them, so an attached list builds the whole snapshot from pages (`SnapshotAssembly`).
    public var shell: QueueSnapshot?
    /// Whether the rows are sent packed (`PackedRows`), as an attached list asks: an owner older than that sends them
    /// keyed, and they are read either way.
    public var packsRows = false

    enum CodingKeys: String, CodingKey {
        case sequence, total, from, schedule, rows, shell
        case packedRows = "packed"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sequence = try container.decode(UInt64.self, forKey: .sequence)
        total = try container.decode(Int.self, forKey: .total)
        from = try container.decode(Int.self, forKey: .from)
        schedule = try container.decodeIfPresent(String.self, forKey: .schedule)
        shell = try container.decodeIfPresent(QueueSnapshot.self, forKey: .shell)
        if let packed = try container.decodeIfPresent(PackedRows.self, forKey: .packedRows) {
            rows = packed.rows
            packsRows = true
        } else {
            rows = try container.decode([QueueSnapshot.Row].self, forKey: .rows)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sequence, forKey: .sequence)
        try container.encode(total, forKey: .total)
        try container.encode(from, forKey: .from)
        try container.encodeIfPresent(schedule, forKey: .schedule)
        try container.encodeIfPresent(shell, forKey: .shell)
        if packsRows {
            try container.encode(PackedRows(rows), forKey: .packedRows)
        } else {
            try container.encode(rows, forKey: .rows)
        }
    }

    public init(sequence: UInt64, total: Int, from: Int, schedule: String?, rows: [QueueSnapshot.Row]) {
        self.sequence = sequence
        self.total = total
        self.from = from
        self.schedule = schedule
        self.rows = rows
    }
}
