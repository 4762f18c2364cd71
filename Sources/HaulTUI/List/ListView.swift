import HaulCore

/// How the list is looked at: the filter, the order and the marked tasks. A value owned by `UIState`; it
/// never changes the queue (sorting does not change what runs next, a filter hides nothing from the controller).
public struct ListView: Sendable, Equatable {
    /// Rows whose name or link contain this (case-insensitively) are shown; empty shows every row.
    public var filter = ""
    public var sort = SortOrder.queue
    /// Tasks marked with `m`: space, `x`, `e` and `+`/`-` act on them when any is marked. Marks survive a filter.
    public var marks: Set<TaskID> = []
    /// The names of the groups shown expanded (their tasks beneath their row). Screen state only: never stored.
    public var expanded: Set<String> = []

    public init(filter: String = "", sort: SortOrder = .queue, marks: Set<TaskID> = [], expanded: Set<String> = []) {
        self.filter = filter
        self.sort = sort
        self.marks = marks
        self.expanded = expanded
    }

    /// True when the filter or the order hides or moves a row.
    public var isQueueOrder: Bool { sort == .queue }

    /// The rows each list shows, in screen order: tasks, and a row for each group of two or more tasks (DESIGN §12)
    /// standing where its first task stands, its tasks beneath it when it is expanded.
    ///
    /// A group is in the Downloading list while any of its tasks is unfinished. The filter keeps a group when its
    /// name or any of its tasks matches (an expanded group then shows the tasks that match, or all when its name
    /// does); the order sorts the top-level rows, and a group's tasks keep queue order.
    /// - Parameter search: the snapshot's `RowSearch`, when the caller keeps one; built here otherwise.
    /// - Parameter groups: the snapshot's `GroupIndex`, when the caller keeps one; built here otherwise.
    public func shown(in snapshot: QueueSnapshot, search: RowSearch? = nil) -> ShownRows {
        shown(in: snapshot, search: search, groups: nil)
    }

    func shown(in snapshot: QueueSnapshot, search: RowSearch?, groups index: GroupIndex?) -> ShownRows {
        var downloading: [ShownLine] = []
        var completed: [ShownLine] = []
        var groups: [ShownGroup] = []
        let rows = snapshot.rows
        let index = index ?? GroupIndex(rows)
        let needsSearch = !filter.isEmpty || sort == .name
        let search = needsSearch ? (search ?? RowSearch(snapshot)) : nil
        let needle = RowSearch.needle(filter)
        var totalDownloading = 0
        for row in rows.indices {
            if let number = index.group(ofRow: row) {
                let group = index.groups[number]
                // A group's row stands where its first task stands.
                guard group.members[0] == row else { continue }
                let unfinished = index.unfinished[number]
                if unfinished { totalDownloading += group.members.count }
                var kept = group.members
                if let search, !needle.isEmpty, !RowSearch.contains(Array(group.name.lowercased().utf8), needle) {
                    kept = kept.filter { search.matches($0, needle) }
                    if kept.isEmpty { continue }
                }
                groups.append(ShownGroup(
                    name: group.name, members: group.members, shown: kept, isExpanded: expanded.contains(group.name),
                    summary: index.summaries[number]))
                if unfinished { downloading.append(.group(groups.count - 1)) } else { completed.append(.group(groups.count - 1)) }
                continue
            }
            let unfinished = rows[row].task.state.isUnfinished
            if unfinished { totalDownloading += 1 }
            if let search, !search.matches(row, needle) { continue }
            if unfinished { downloading.append(.task(row)) } else { completed.append(.task(row)) }
        }
        if sort != .queue {
            let order = SortOrder.LineOrder(sort, rows: rows, names: search?.names ?? [], groups: groups)
            downloading.sort(by: order.precedes)
            completed.sort(by: order.precedes)
        }
        if !groups.isEmpty {
            downloading = Self.expanding(downloading, groups: groups)
            completed = Self.expanding(completed, groups: groups)
        }
        return ShownRows(
            downloading: downloading, completed: completed, totalDownloading: totalDownloading,
            totalCompleted: rows.count - totalDownloading, groups: groups)
    }

    /// `lines` with each expanded group's shown tasks beneath its row.
    static func expanding(_ lines: [ShownLine], groups: [ShownGroup]) -> [ShownLine] {
        var result: [ShownLine] = []
        result.reserveCapacity(lines.count)
        for line in lines {
            result.append(line)
            if case let .group(number) = line, groups[number].isExpanded {
                result += groups[number].shown.map { .member($0, group: number) }
            }
        }
        return result
    }
}

/// The rows of both lists after the filter and the order, as indices into a snapshot's rows.
public struct ShownRows: Sendable, Equatable {
    public var downloading: [ShownLine]
    public var completed: [ShownLine]
    /// The groups the lines' group rows and members refer to.
    public var groups: [ShownGroup] = []
    /// How many rows each list has before the filter.
    public var totalDownloading: Int
    public var totalCompleted: Int

    public init(downloading: [ShownLine], completed: [ShownLine], totalDownloading: Int, totalCompleted: Int, groups: [ShownGroup] = []) {
        self.groups = groups
        self.downloading = downloading
        self.completed = completed
        self.totalDownloading = totalDownloading
        self.totalCompleted = totalCompleted
    }

    public func lines(_ list: UIState.ListKind) -> [ShownLine] { list == .downloading ? downloading : completed }
    /// How many tasks a list shows: a group's row counts its tasks, the tasks beneath it nothing more.
    public func taskCount(_ list: UIState.ListKind) -> Int {
        lines(list).reduce(0) { count, line in
            switch line {
            case .task: count + 1
            case let .group(number): count + groups[number].shown.count
            case .member: count
            }
        }
    }
    public func total(_ list: UIState.ListKind) -> Int { list == .downloading ? totalDownloading : totalCompleted }
}
