import HaulCore

extension ShownRows {
    /// These rows for a filter that extends the one they were made with (`needle` starts with it): a subset of them,
    /// in the same order, with no task tested that was already left out; equal to what `ListView.shown` makes afresh.
    /// A group keeps all its tasks while its name matches, else those of its shown tasks that match; a group left
    /// with none goes.
    func narrowed(to needle: [UInt8], search: RowSearch) -> ShownRows {
        var result = self
        // Each group's new number, nil for a group that goes.
        var renumbered: [Int?] = []
        result.groups = []
        for group in groups {
            var group = group
            if !RowSearch.contains(Array(group.name.lowercased().utf8), needle) {
                group.shown = group.shown.filter { search.matches($0, needle) }
            }
            renumbered.append(group.shown.isEmpty ? nil : result.groups.count)
            if !group.shown.isEmpty { result.groups.append(group) }
        }
        func narrow(_ lines: [ShownLine]) -> [ShownLine] {
            let top = lines.compactMap { line -> ShownLine? in
                switch line {
                case let .task(index): search.matches(index, needle) ? line : nil
                case let .group(number): renumbered[number].map { .group($0) }
                case .member: nil  // made again beneath their group's row
                }
            }
            return groups.isEmpty ? top : ListView.expanding(top, groups: result.groups)
        }
        result.downloading = narrow(downloading)
        result.completed = narrow(completed)
        return result
    }
}
