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
    /// Every row's lowercased name and link as UTF-8, NUL between them, one row after another in one buffer: what a
    /// filter key searches, byte by byte (a `String.contains` per row costs more than the whole frame). One buffer,
    /// not an array or a string per row: 10,000 rows hold their text and 10,000 offsets.
    private let text: [UInt8]
    /// Where each row's text starts in `text`, by row index; one more at the end.
    private let starts: [Int32]
    /// What the texts were made from, to reuse them for the next snapshot.
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
        var sources: [Source] = []
        var text: [UInt8] = []
        var starts: [Int32] = [0]
        names.reserveCapacity(snapshot.rows.count)
        sources.reserveCapacity(snapshot.rows.count)
        starts.reserveCapacity(snapshot.rows.count + 1)
        // Room for the text at once, at what a row's name and link take (or what the last search held): no regrowing.
        text.reserveCapacity(previous.map { $0.text.count + $0.text.count / 8 } ?? snapshot.rows.count * 64)
        for (index, row) in snapshot.rows.enumerated() {
            let task = row.task
            let source = Source(id: task.id, fileName: task.fileName, requestedName: task.requestedName, url: task.url)
            sources.append(source)
            if let previous, previous.sources.indices.contains(index), previous.sources[index] == source {
                names.append(previous.names[index])
                text += previous.haystack(index)
            } else {
                let name = Self.lowercased(task.displayName)
                names.append(name)
                text += name.utf8
                text.append(0)
                Self.appendLowercased(URLValidation.redacted(source.url), to: &text)
            }
            starts.append(Int32(clamping: text.count))
        }
        self.names = names
        self.sources = sources
        self.text = text
        self.starts = starts
    }

    /// `text` lowercased: as it is when it holds no capital and no byte outside ASCII (a name taken from a link mostly).
    static func lowercased(_ text: String) -> String {
        text.utf8.allSatisfy { $0 < 0x80 && !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) } ? text : text.lowercased()
    }

    /// Appends `text` lowercased, as UTF-8: byte by byte when it is ASCII (as `lowercased()` would), else lowercased.
    static func appendLowercased(_ text: String, to buffer: inout [UInt8]) {
        guard text.utf8.allSatisfy({ $0 < 0x80 }) else {
            buffer += text.lowercased().utf8
            return
        }
        buffer += text.utf8.lazy.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 | 0x20 : $0 }
    }

    /// The row at `index`'s text: its name, NUL, its link.
    private func haystack(_ index: Int) -> ArraySlice<UInt8> { text[Int(starts[index])..<Int(starts[index + 1])] }

    /// The text a filter searches for: lowercased, as UTF-8.
    public static func needle(_ filter: String) -> [UInt8] { Array(filter.lowercased().utf8) }

    /// True when the row at `index` has `needle` (from `RowSearch.needle`) in its name or link.
    public func matches(_ index: Int, _ needle: [UInt8]) -> Bool {
        Self.contains(haystack(index), needle)
    }

    /// Whether `needle` occurs in `haystack`: a scan for its first byte, then a compare (UTF-8 keeps a character's
    /// bytes together, so a byte match is a text match).
    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool { contains(haystack[...], needle) }

    static func contains(_ haystack: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
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
