extension ListRenderer {
    /// The headings over the rows, from the rows' own `RowLayout`; the sorted column's heading carries a mark.
    /// After the Name heading come an order no column shows, the kept filter and the marks count: they may take the
    /// Progress heading's room, never a figure's heading.
    func drawColumnHeader(_ header: ListViewModel.ColumnHeader, layout: RowLayout, glyphs: GlyphSet, line: Int, into grid: inout ScreenGrid) {
        grid.fill(row: line, from: 0, to: grid.width, role: .columnHeading)
        let columns = layout.columns
        let sortedShown = columns.contains { $0.sort == header.sort }
        var notes: [String] = []
        if header.sort != .queue, !sortedShown { notes.append("by \(header.sort.title)") }
        if let filter = header.filter { notes.append("/" + filter + (header.matches.map { " (\($0))" } ?? "")) }
        if header.marked > 0 { notes.append("\(header.marked) marked") }
        let figures = columns.first(where: \.alignRight)?.cells.lowerBound ?? grid.width
        var taken = 0
        for column in columns {
            let sorted = column.sort == header.sort
            let title = column.title + (sorted ? String(glyphs.sorted) : "")
            let role: ColorRole = sorted ? .columnSorted : .columnHeading
            if column.alignRight {
                writeRight(title, end: column.cells.upperBound, columns: column.cells.count - 1, row: line, role: role, into: &grid)
                continue
            }
            guard column.cells.lowerBound >= taken else { continue }
            taken = grid.write(title, row: line, column: column.cells.lowerBound, role: role, limit: column.cells.upperBound)
            guard column.sort == .name else { continue }
            for note in notes {
                let room = figures - taken - 3
                guard room > 1 else { break }
                taken = grid.write("  " + DisplayWidth.truncated(note, to: room), row: line, column: taken, role: .columnSorted, limit: figures)
            }
            if taken > column.cells.upperBound { taken += 1 }
        }
    }
}
