import HaulCore

/// How the list is looked at: the filter, the order and the marked tasks. A value owned by `UIState`; it
/// never changes the queue (sorting does not change what runs next, a filter hides nothing from the controller).
public struct ListView: Sendable, Equatable {
    /// Rows whose name or link contain this (case-insensitively) are shown; empty shows every row.
    public var filter = ""
    public var sort = SortOrder.queue
    /// Tasks marked with `m`: space, `x`, `e` and `+`/`-` act on them when any is marked. Marks survive a filter.
    public var marks: Set<TaskID> = []

    public init(filter: String = "", sort: SortOrder = .queue, marks: Set<TaskID> = []) {
        self.filter = filter
        self.sort = sort
        self.marks = marks
    }

    /// True when the filter or the order hides or moves a row.
    public var isQueueOrder: Bool { sort == .queue }

    /// The rows each list shows, in screen order, as indices into `snapshot.rows`.
    /// - Parameter search: the snapshot's `RowSearch`, when the caller keeps one; built here otherwise.
    public func shown(in snapshot: QueueSnapshot, search: RowSearch? = nil) -> ShownRows {
        var downloading: [Int] = []
        var completed: [Int] = []
        let rows = snapshot.rows
        let needsSearch = !filter.isEmpty || sort == .name
        let search = needsSearch ? (search ?? RowSearch(snapshot)) : nil
        let needle = RowSearch.needle(filter)
        var totalDownloading = 0
        for index in rows.indices {
            let unfinished = rows[index].task.state.isUnfinished
            if unfinished { totalDownloading += 1 }
            if let search, !search.matches(index, needle) { continue }
            if unfinished { downloading.append(index) } else { completed.append(index) }
        }
        if sort != .queue {
            let names = search?.names ?? []
            let order = sort
            downloading.sort { order.precedes($0, $1, rows: rows, names: names) }
            completed.sort { order.precedes($0, $1, rows: rows, names: names) }
        }
        return ShownRows(
            downloading: downloading, completed: completed, totalDownloading: totalDownloading,
            totalCompleted: rows.count - totalDownloading)
    }
}

/// The rows of both lists after the filter and the order, as indices into a snapshot's rows.
public struct ShownRows: Sendable, Equatable {
    public var downloading: [Int]
    public var completed: [Int]
    /// How many rows each list has before the filter.
    public var totalDownloading: Int
    public var totalCompleted: Int

    public init(downloading: [Int], completed: [Int], totalDownloading: Int, totalCompleted: Int) {
        self.downloading = downloading
        self.completed = completed
        self.totalDownloading = totalDownloading
        self.totalCompleted = totalCompleted
    }

    public func indices(_ list: UIState.ListKind) -> [Int] { list == .downloading ? downloading : completed }
    public func total(_ list: UIState.ListKind) -> Int { list == .downloading ? totalDownloading : totalCompleted }
}
