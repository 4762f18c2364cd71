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
    /// Each row's lowercased name and link as UTF-8, NUL between them: what a filter key searches, byte by byte (a
    /// `String.contains` per row costs more than the whole frame).
    private let haystacks: [[UInt8]]
    /// What `names` and `links` were made from, to reuse them for the next snapshot.
    private let sources: [Source]

    /// What a row's name and link come from (the name is worked out only when these change: it may parse the link).
    private struct Source: Sendable, Equatable {
        var id: TaskID
        var fileName: String?
        var requestedName: String?
        var url: String
    }

    public init(_ snapshot: QueueSnapshot, reusing previous: RowSearch? = nil) {
        var names: [String] = []
        var links: [String] = []
        var sources: [Source] = []
        var haystacks: [[UInt8]] = []
        haystacks.reserveCapacity(snapshot.rows.count)
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
                haystacks.append(previous.haystacks[index])
            } else {
                names.append(task.displayName.lowercased())
                links.append(URLValidation.redacted(source.url).lowercased())
                haystacks.append(Array(names[index].utf8) + [0] + Array(links[index].utf8))
            }
        }
        self.names = names
        self.links = links
        self.sources = sources
        self.haystacks = haystacks
    }

    /// The text a filter searches for: lowercased, as UTF-8.
    public static func needle(_ filter: String) -> [UInt8] { Array(filter.lowercased().utf8) }

    /// True when the row at `index` has `needle` (from `RowSearch.needle`) in its name or link.
    public func matches(_ index: Int, _ needle: [UInt8]) -> Bool {
        Self.contains(haystacks[index], needle)
    }

    /// Whether `needle` occurs in `haystack`: a scan for its first byte, then a compare (UTF-8 keeps a character's
    /// bytes together, so a byte match is a text match).
    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first else { return true }
        let count = needle.count
        guard haystack.count >= count else { return false }
        return haystack.withUnsafeBufferPointer { hay in
            needle.withUnsafeBufferPointer { wanted in
                var start = 0
                let last = hay.count - count
                while start <= last {
                    if hay[start] == first {
                        var offset = 1
                        while offset < count, hay[start + offset] == wanted[offset] { offset += 1 }
                        if offset == count { return true }
                    }
                    start += 1
                }
                return false
            }
        }
    }
}
