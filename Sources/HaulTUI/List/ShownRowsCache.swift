import HaulCore

/// Keeps the rows the list shows between keys, so that typing a filter over 10,000 tasks costs little: the
/// search text of each row is made once per snapshot (less, for rows that did not change), and a filter that
/// grows by a character narrows the rows it already found instead of testing every task again.
/// Owned by the interactive loop; a value.
public struct ShownRowsCache: Sendable {
    private var search: (sequence: UInt64, value: RowSearch)?
    private var last: (sequence: UInt64, filter: String, sort: SortOrder, expanded: Set<String>, rows: ShownRows)?
    private var refs: (sequence: UInt64, value: [UIContext.RowRef])?

    public init() {}

    /// Every row's `RowRef` by index, made once per snapshot.
    public mutating func rowRefs(_ snapshot: QueueSnapshot) -> [UIContext.RowRef] {
        if let refs, refs.sequence == snapshot.sequence { return refs.value }
        let made = UIContext.RowRef.all(snapshot)
        refs = (snapshot.sequence, made)
        return made
    }

    /// The rows of `snapshot` as `view` shows them.
    public mutating func shown(_ snapshot: QueueSnapshot, view: ListView) -> ShownRows {
        let needle = view.filter.lowercased()
        if let last, last.sequence == snapshot.sequence, last.sort == view.sort, last.expanded == view.expanded {
            if last.filter == needle { return last.rows }
            // Longer text that starts with the last one matches a subset of what it matched, in the same order.
            if !last.filter.isEmpty, needle.hasPrefix(last.filter), let search = search?.value {
                let rows = last.rows.narrowed(to: RowSearch.needle(needle), search: search)
                self.last = (snapshot.sequence, needle, view.sort, view.expanded, rows)
                return rows
            }
        }
        var rowSearch: RowSearch?
        if !needle.isEmpty || view.sort == .name {
            if let search, search.sequence == snapshot.sequence {
                rowSearch = search.value
            } else {
                let made = RowSearch(snapshot, reusing: search?.value, refs: rowRefs(snapshot))
                search = (snapshot.sequence, made)
                rowSearch = made
            }
        }
        let rows = view.shown(in: snapshot, search: rowSearch)
        last = (snapshot.sequence, needle, view.sort, view.expanded, rows)
        return rows
    }
}
