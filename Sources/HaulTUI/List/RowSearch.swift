import HaulCore

/// What the filter and the name sort read of each row, computed once per snapshot: the lowercased name and
/// link (credentials taken out, so a filter never matches a password). With 10,000 tasks a key in the filter
/// then costs one substring test per row, not a lowercasing of every name.
///
/// Built by the interactive loop when a snapshot arrives, reusing the previous snapshot's entries for rows whose
/// name and link did not change; a value, so tests build it from any snapshot.
public struct RowSearch: Sendable {
    /// Lowercased display names, by index in `QueueSnapshot.rows`.
    public let names: [String]
    /// Lowercased links without credentials, by index in `QueueSnapshot.rows`.
    public let links: [String]
    /// What `names` and `links` were made from, to reuse them for the next snapshot.
    private let sources: [Source]

    /// What a row's name and link come from (the name is worked out only when these change: it may parse the link).
    private struct Source: Sendable, Equatable {
        var id: TaskID
        var fileName: String?
        var requestedName: String?
        var url: String
    }

    /// - Parameter refs: the rows' `RowRef`s by index, when the caller keeps them: their names are not worked out again.
    public init(_ snapshot: QueueSnapshot, reusing previous: RowSearch? = nil, refs: [UIContext.RowRef]? = nil) {
        var names: [String] = []
        var links: [String] = []
        var sources: [Source] = []
        names.reserveCapacity(snapshot.rows.count)
        links.reserveCapacity(snapshot.rows.count)
        sources.reserveCapacity(snapshot.rows.count)
        for (index, row) in snapshot.rows.enumerated() {
            let task = row.task
            let source = Source(id: task.id, fileName: task.fileName, requestedName: task.requestedName, url: task.url)
            sources.append(source)
            if let previous, previous.sources.indices.contains(index), previous.sources[index] == source {
                names.append(previous.names[index])
                links.append(previous.links[index])
            } else {
                names.append((refs?[index].name ?? task.displayName).lowercased())
                links.append(URLValidation.redacted(source.url).lowercased())
            }
        }
        self.names = names
        self.links = links
        self.sources = sources
    }

    /// True when the row at `index` has `needle` (already lowercased) in its name or link.
    public func matches(_ index: Int, _ needle: String) -> Bool {
        needle.isEmpty || names[index].contains(needle) || links[index].contains(needle)
    }
}
