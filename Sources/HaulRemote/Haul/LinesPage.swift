import HaulCore
import HaulReport

/// The answer to `haul.lines`: what `haul list` prints for a page of a snapshot's rows, formatted by the owner, so the
/// CLI writes text and decodes no task (100,000 tasks decoded took the CLI over 2 s of CPU).
public struct LinesPage: Sendable, Codable {
    /// The snapshot the page is from (`RowsPage.sequence`).
    public var sequence: UInt64
    /// Rows in that snapshot.
    public var total: Int
    /// Where the next page begins in the snapshot (rows of another state than the one asked for give no line).
    public var next: Int
    /// What the schedule does now (`QueueSnapshot.schedule`).
    public var schedule: String?
    /// How many lines `text` holds.
    public var count: Int
    /// The lines, each ended by a newline.
    public var text: String

    public init(sequence: UInt64, total: Int, next: Int, schedule: String?, count: Int, text: String) {
        self.sequence = sequence
        self.total = total
        self.next = next
        self.schedule = schedule
        self.count = count
        self.text = text
    }

    /// What `haul list` prints in `format` for `snapshot`'s rows in `range`.
    public init(_ snapshot: QueueSnapshot, rows range: Range<Int>, format: QueueListing.Format) {
        var text = ""
        var count = 0
        for row in snapshot.rows[range] {
            guard let line = QueueListing.line(row, format) else { continue }
            text += line
            text += "\n"
            count += 1
        }
        self.init(
            sequence: snapshot.sequence, total: snapshot.rows.count, next: range.upperBound, schedule: snapshot.schedule,
            count: count, text: text)
    }
}
