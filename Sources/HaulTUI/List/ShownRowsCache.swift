import HaulCore

/// Keeps the rows the list shows, and the queue's figures (`QueueFigures`), between keys and snapshots, so that
/// neither costs the whole queue.
///
/// A key in the filter: the search text of each row is made once per snapshot (less, for rows that did not change),
/// and a filter that grows by a character narrows the rows it already found instead of testing every task again.
/// A snapshot whose rows were only patched since the last one (`QueueSnapshot.revision`: the running tasks' figures
/// moved, nothing was added, removed, moved or changed state): the patched rows' references are made again, and
/// unless one of them changed (a task learnt its name) the lines stand and only their groups' figures move, by the
/// patched tasks' shares (`GroupSummary.replace`).
/// Owned by the interactive loop; a value.
public struct ShownRowsCache: Sendable {
    private var search: (sequence: UInt64, value: RowSearch)?
    /// The groups of one snapshot, their figures, and each row's share in them: what a new filter, order or open group
    /// reads again of the same snapshot, made once for it.
    private var groupIndex: (epoch: UInt64, sequence: UInt64, value: GroupIndex, shares: [GroupSummary.Share])?
    private var last: Last?
    private var refs: Refs?
    private var figures: Figures?
    /// Bumped whenever the lines or the rows' references change: what a `UIContext` is made of. Live figures alone
    /// (bytes, speeds, a group's summed progress) leave it as it is.
    public private(set) var version: UInt64 = 0
    /// Rows whose reference, line, share or figures were worked out, since the cache was made: what a frame costs,
    /// counted.
    public private(set) var rowsVisited = 0
    /// Times the groups of a snapshot were worked out (`GroupIndex`, with every group's figures): once per snapshot.
    public private(set) var groupsMade = 0
    /// Times the rows' search text was made (`RowSearch`): once per snapshot the filter or the name order reads.
    public private(set) var searchesMade = 0

    /// The rows shown for one snapshot and view, and what it takes to move their groups' figures.
    fileprivate struct Last: Sendable {
        var epoch: UInt64
        var sequence: UInt64
        var filter: String
        var sort: SortOrder
        var expanded: Set<String>
        var refsVersion: UInt64
        var rows: ShownRows
        /// Each row's share in its group's figures as last counted, by row index; empty when no group is shown.
        var shares: [GroupSummary.Share]
        /// The shown group of each row, by row index (-1 for none); empty when no group is shown.
        var groupOfRow: [Int32]
    }

    /// What every row's reference is made of, as a fingerprint by row index (`UIContext.RowRef.fingerprint`), and the
    /// snapshot they stand for: 8 bytes a row, not a reference (a context makes the references it reads, `RowList`).
    fileprivate struct Refs: Sendable {
        var epoch: UInt64
        var sequence: UInt64
        var values: [Int]
        /// Bumped when a reference changes.
        var version: UInt64
    }

    /// The queue's figures, and each row's share in them as last counted, for one set of rows.
    fileprivate struct Figures: Sendable {
        var epoch: UInt64
        var sequence: UInt64
        var value: QueueFigures
        var shares: [QueueFigures.Share]
    }

    public init() {}

    /// The queue's figures for the header and the title: counted once per set of rows, then moved by the patched rows.
    public mutating func figures(_ snapshot: QueueSnapshot) -> QueueFigures {
        let revision = snapshot.revision
        if let figures, figures.sequence == snapshot.sequence, figures.epoch == revision.epoch { return figures.value }
        if var kept = figures, kept.epoch == revision.epoch {
            figures = nil  // so the shares below change in place
            for index in revision.patched {
                rowsVisited += 1
                let share = QueueFigures.Share(snapshot.rows[index])
                kept.value.replace(kept.shares[index], with: share)
                kept.shares[index] = share
            }
            kept.sequence = snapshot.sequence
            figures = kept
            return kept.value
        }
        rowsVisited += snapshot.rows.count
        let made = Figures(
            epoch: revision.epoch, sequence: snapshot.sequence, value: QueueFigures(rows: snapshot.rows),
            shares: snapshot.rows.map(QueueFigures.Share.init))
        figures = made
        return made.value
    }

    /// The version of the rows' references for `snapshot`: it moves when a row's reference would read otherwise (a
    /// row came, went, moved, changed state, or a patched row learnt its name), worked out once per set of rows, then
    /// again only for the patched rows.
    public mutating func referencesVersion(_ snapshot: QueueSnapshot) -> UInt64 {
        if let refs, refs.sequence == snapshot.sequence, refs.epoch == snapshot.revision.epoch { return refs.version }
        if var kept = refs, kept.epoch == snapshot.revision.epoch {
            refs = nil  // so the patches below change the kept array in place
            var changed = false
            for index in snapshot.revision.patched {
                rowsVisited += 1
                let fingerprint = UIContext.RowRef.fingerprint(snapshot.rows[index])
                if kept.values[index] != fingerprint {
                    kept.values[index] = fingerprint
                    changed = true
                }
            }
            if changed {
                version += 1
                kept.version = version
            }
            kept.sequence = snapshot.sequence
            refs = kept
            return kept.version
        }
        rowsVisited += snapshot.rows.count
        version += 1
        refs = Refs(
            epoch: snapshot.revision.epoch, sequence: snapshot.sequence, values: snapshot.rows.map(UIContext.RowRef.fingerprint),
            version: version)
        return version
    }

    /// The rows of `snapshot` as `view` shows them.
    public mutating func shown(_ snapshot: QueueSnapshot, view: ListView) -> ShownRows {
        let needle = view.filter.lowercased()
        let refsVersion = referencesVersion(snapshot)
        if var kept = last, kept.sort == view.sort, kept.expanded == view.expanded {
            if kept.sequence == snapshot.sequence, kept.epoch == snapshot.revision.epoch {
                if kept.filter == needle { return kept.rows }
                // Longer text that starts with the last one matches a subset of what it matched, in the same order.
                if !kept.filter.isEmpty, needle.hasPrefix(kept.filter), let search = search?.value {
                    let rows = kept.rows.narrowed(to: RowSearch.needle(needle), search: search)
                    remember(rows, of: snapshot, filter: needle, view: view, refsVersion: refsVersion, shares: kept.shares)
                    return rows
                }
            } else if kept.epoch == snapshot.revision.epoch, kept.filter == needle, kept.refsVersion == refsVersion,
                      !view.sort.readsLiveFigures {
                // The same tasks in the same order and states, named as before: the lines stand.
                last = nil  // so the groups' figures below change in place
                kept.moveGroupFigures(to: snapshot, visited: &rowsVisited)
                kept.sequence = snapshot.sequence
                last = kept
                return kept.rows
            }
        }
        let rowSearch = !needle.isEmpty || view.sort == .name ? search(of: snapshot) : nil
        rowsVisited += snapshot.rows.count
        let groups = groups(of: snapshot)
        let rows = view.shown(in: snapshot, search: rowSearch, groups: groups.value)
        let shares = rows.groups.isEmpty ? [] : groups.shares
        remember(rows, of: snapshot, filter: needle, view: view, refsVersion: refsVersion, shares: shares)
        return rows
    }


    /// The search text of `snapshot`'s rows (`RowSearch`), made from the last one's where rows did not change.
    private mutating func search(of snapshot: QueueSnapshot) -> RowSearch {
        if let search, search.sequence == snapshot.sequence { return search.value }
        searchesMade += 1
        let made = RowSearch(snapshot, reusing: search?.value)
        search = (snapshot.sequence, made)
        return made
    }

    /// Makes the search text of `snapshot`'s rows when none was made yet, so the filter's first key or the name order
    /// does not make it for 100,000 tasks then: the interactive loop calls this when no key came for a tick. Later
    /// snapshots' search text is made from it when the filter asks (rows that did not change are not worked out again).
    public mutating func prepareSearch(_ snapshot: QueueSnapshot) {
        guard search == nil, !snapshot.rows.isEmpty else { return }
        _ = search(of: snapshot)
    }


    /// The groups of `snapshot` (`GroupIndex`) and each row's share in them, made once per snapshot.
    private mutating func groups(of snapshot: QueueSnapshot) -> (value: GroupIndex, shares: [GroupSummary.Share]) {
        if let kept = groupIndex, kept.epoch == snapshot.revision.epoch, kept.sequence == snapshot.sequence {
            return (kept.value, kept.shares)
        }
        groupsMade += 1
        let index = GroupIndex(snapshot.rows)
        let shares = index.isEmpty ? [] : snapshot.rows.map(GroupSummary.Share.init)
        groupIndex = (snapshot.revision.epoch, snapshot.sequence, index, shares)
        return (index, shares)
    }

    private mutating func remember(
        _ rows: ShownRows, of snapshot: QueueSnapshot, filter: String, view: ListView, refsVersion: UInt64,
        shares: [GroupSummary.Share]
    ) {
        var groupOfRow: [Int32] = rows.groups.isEmpty ? [] : Array(repeating: -1, count: snapshot.rows.count)
        for (number, group) in rows.groups.enumerated() {
            for index in group.members { groupOfRow[index] = Int32(number) }
        }
        version += 1
        last = Last(
            epoch: snapshot.revision.epoch, sequence: snapshot.sequence, filter: filter, sort: view.sort,
            expanded: view.expanded, refsVersion: refsVersion, rows: rows, shares: shares, groupOfRow: groupOfRow)
    }
}

extension ShownRowsCache.Last {
    /// Moves each group's figures by the patched tasks' shares in `snapshot` (of the same epoch).
    fileprivate mutating func moveGroupFigures(to snapshot: QueueSnapshot, visited: inout Int) {
        guard !groupOfRow.isEmpty else { return }
        for index in snapshot.revision.patched {
            let number = Int(groupOfRow[index])
            guard number >= 0 else { continue }
            visited += 1
            let share = GroupSummary.Share(snapshot.rows[index])
            rows.groups[number].summary.replace(shares[index], with: share)
            shares[index] = share
        }
    }
}

extension SortOrder {
    /// True when the order follows figures that move while a task runs (its size, progress, speed or time left), so
    /// the same tasks may stand in another order a second later.
    var readsLiveFigures: Bool {
        switch self {
        case .queue, .name, .added: false
        case .size, .progress, .speed, .timeLeft: true
        }
    }
}
