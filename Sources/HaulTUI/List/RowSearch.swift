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

    private struct Source: Sendable {
        var id: TaskID
        var name: String
        var url: String
    }

    public init(_ snapshot: QueueSnapshot, reusing previous: RowSearch? = nil) {
        var names: [String] = []
        var links: [String] = []
        var sources: [Source] = []
        names.reserveCapacity(snapshot.rows.count)
        links.reserveCapacity(snapshot.rows.count)
        sources.reserveCapacity(snapshot.rows.count)
        for (index, row) in snapshot.rows.enumerated() {
            let source = Source(id: row.task.id, name: row.task.displayName, url: row.task.url)
            sources.append(source)
            if let previous, previous.sources.indices.contains(index), previous.sources[index].id == source.id,
               previous.sources[index].name == source.name, previous.sources[index].url == source.url {
                names.append(previous.names[index])
                links.append(previous.links[index])
            } else {
                names.append(source.name.lowercased())
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
