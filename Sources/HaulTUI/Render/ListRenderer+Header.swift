extension ListRenderer {
    /// The header line: what the schedule does to the queue and the cap that holds are kept longest (they explain a
    /// queue that does not move); the long counts and the free disk space go first when the screen is narrow.
    func drawHeader(_ header: ListViewModel.Header, glyphs: GlyphSet, row: Int, into grid: inout ScreenGrid) {
        let title: [Segment] = [("haul", .headerTitle), ("  ", .header)]
        var words: [Segment] = []
        for (index, count) in header.counts.enumerated() {
            if index > 0 { words.append((glyphs.separator, .headerCounts)) }
            words.append(("\(count.number) \(count.word)", count.role))
        }
        var short: [Segment] = []
        for (index, count) in header.counts.enumerated() {
            if index > 0 { short.append((" ", .headerCounts)) }
            short.append(("\(count.glyph)\(count.number)", count.role))
        }
        let note = { (text: String?, after: String) -> [Segment] in text.map { [(after, .headerCounts), ($0, .stateWaiting)] } ?? [] }
        let speed: Segment = ("\(glyphs.download) \(header.speed)", .headerSpeed)
        let cap = { (text: String?) -> [Segment] in text.map { [(" ", .header), ($0, .headerSpeed)] } ?? [] }
        let disk: [Segment] = header.freeDisk.map { [("   ", .header), ("disk \($0) free", .headerDisk)] } ?? []
        let compactDisk: [Segment] = header.freeDiskCompact.map { [("  ", .header), ("\($0) free", .headerDisk)] } ?? []
        let longNote = note(header.schedule, glyphs.separator)
        let shortNote = note(header.scheduleShort, "  ")
        // Richest first: the note and the cap's reason outlast the long counts and the disk space.
        let rights = [[speed] + cap(header.cap) + disk, [speed] + cap(header.cap) + compactDisk, [speed] + cap(header.cap)]
        var candidates: [([Segment], [Segment])] = []
        for right in rights { for left in [title + words + longNote, title + short + longNote] { candidates.append((left, right)) } }
        candidates += [
            (title + short + longNote, [speed] + cap(header.capShort)),
            (title + short + shortNote, [speed] + cap(header.capShort)),
            (short + shortNote, [speed] + cap(header.capShort)),
            (short + shortNote, [speed]),
            (title + short, []),
            (short + shortNote, []),
        ]
        let available = grid.width - 2
        let chosen = candidates.first { left, right in
            width(left) + (right.isEmpty ? 0 : 2 + width(right)) <= available
        } ?? (short, [])
        grid.fill(row: row, from: 0, to: grid.width, role: .header)
        draw(chosen.0, row: row, column: 1, limit: grid.width, into: &grid)
        if !chosen.1.isEmpty { draw(chosen.1, row: row, column: grid.width - 1 - width(chosen.1), limit: grid.width, into: &grid) }
    }
}
