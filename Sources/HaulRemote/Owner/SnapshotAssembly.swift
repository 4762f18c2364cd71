import HaulCore

/// A whole snapshot built from the owner's `haul.rows` pages (the owner holds that snapshot while they are read,
/// `ListingPin`): an attached list shows the first page at once and the rest once read, and never decodes the
/// queue as one answer (100,000 rows as one answer took the list 7.7 s and 307 MiB).
///
/// Pure: it takes pages and says whether each followed; `OwnerClient.readRest(of:)` asks for them.
public struct SnapshotAssembly: Sendable {
    /// The snapshot's figures without rows (`RowsPage.shell`).
    private let shell: QueueSnapshot
    /// The rows read so far, in the snapshot's order.
    private var rows: [QueueSnapshot.Row]
    /// Rows in the whole snapshot.
    public let total: Int

    /// The start of a whole snapshot from its first page; nil when the page is not one with the snapshot's figures
    /// (an owner older than this list sends none).
    public init?(first page: RowsPage) {
        guard page.from == 0, let shell = page.shell, shell.sequence == page.sequence, page.rows.count <= page.total
        else { return nil }
        self.shell = shell
        total = page.total
        rows = []
        rows.reserveCapacity(page.rows.count)
        append(page.rows)
    }

    /// A snapshot already whole.
    public init(whole snapshot: QueueSnapshot) {
        shell = snapshot.shell
        rows = snapshot.rows
        total = rows.count
    }

    public var sequence: UInt64 { shell.sequence }
    public var isWhole: Bool { rows.count == total }
    /// How many rows were read.
    public var count: Int { rows.count }
    /// Where the next page begins; nil once every row is read.
    public var next: Int? { isWhole ? nil : rows.count }

    /// Takes the page that follows the rows read; false, taking nothing, when it does not follow them (a page of
    /// another snapshot: the owner let this one go, or a second listing took its place) or brings nothing.
    public mutating func take(_ page: RowsPage) -> Bool {
        guard page.sequence == sequence, page.total == total, page.from == rows.count, !page.rows.isEmpty,
              rows.count + page.rows.count <= total
        else { return false }
        if rows.capacity < total { rows.reserveCapacity(total) }
        append(page.rows)
        return true
    }

    /// Appends `page`, each task holding one copy of the directory and the details it shares with the task before it
    /// (tasks added together have equal ones), as the store's reader does: decoded, each row held copies of its own.
    private mutating func append(_ page: [QueueSnapshot.Row]) {
        for var row in page {
            if let previous = rows.last?.task {
                if row.task.directory == previous.directory { row.task.directory = previous.directory }
                row.task.shareDetails(with: previous)
            }
            rows.append(row)
        }
    }

    /// The snapshot as read so far: its figures and the rows read (counted again from them while it is not whole).
    public var snapshot: QueueSnapshot {
        var snapshot = shell
        snapshot.rows = rows
        snapshot.rowsToCome = total - rows.count
        return snapshot
    }

    /// What the list's banner says while rows are still read.
    public var progressNote: String { "reading the queue from the background haul: \(rows.count) of \(total) tasks" }
}
