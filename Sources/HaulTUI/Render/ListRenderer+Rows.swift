extension ListRenderer {
    /// One task row, laid out by `RowLayout`; a row with a problem shows the error and its hint
    /// instead of the bar and figures.
    func drawRow(_ row: RowViewModel, layout: RowLayout, glyphs: GlyphSet, line: Int, into grid: inout ScreenGrid) {
        // A tag the name's room cannot hold (`seg 120/480 ×4` at 80 columns) takes the bar's room: the bar goes first.
        let tag = row.connections.isEmpty || row.problem != nil ? 0 : 1 + DisplayWidth.of(row.connections)
        let layout = tag > layout.nameWidth / 2 && layout.barWidth > 0 ? layout.withoutBar : layout
        if row.isSelected {
            grid.markSelected(row: line)
            grid.write(glyphs.marker, row: line, column: 0, role: .rowMarker)
        }
        grid.write(row.glyph, row: line, column: 1, role: row.stateRole)
        if row.isMarked { grid.write(glyphs.mark, row: line, column: 2, role: .rowMark) }
        // The connection count takes the end of the name's room, so the other columns never move.
        let count = row.connections.isEmpty || row.problem != nil ? "" : " " + row.connections
        let countWidth = DisplayWidth.of(count) <= layout.nameWidth / 2 ? DisplayWidth.of(count) : 0
        let nameEnd = grid.write(
            DisplayWidth.truncated(row.name, to: layout.nameWidth - countWidth), row: line, column: RowLayout.leadColumns, role: .rowName)
        if countWidth > 0 {
            grid.write(count, row: line, column: max(nameEnd, RowLayout.leadColumns + layout.nameWidth - countWidth), role: .columnSpeed)
        }

        if let problem = row.problem {
            drawProblem(problem, from: layout.afterName + 1, line: line, into: &grid)
            return
        }
        var x = layout.afterName
        if layout.barWidth > 0 {
            x += 1
            for (character, role) in ProgressBar.cells(row.fill, width: layout.barWidth, glyphs: glyphs) {
                grid.write(character, row: line, column: x, role: role)
                x += 1
            }
        }
        if layout.showsPercent {
            let percent = layout.barWidth == 0 ? row.spinner.map { String($0) } ?? row.percent : row.percent
            x = writeRight(percent, end: x + RowLayout.percentColumns, columns: RowLayout.percentColumns - 1, row: line, role: .columnPercent, into: &grid)
        }
        if layout.showsSize {
            x = writeRight(row.size, end: x + RowLayout.sizeColumns, columns: RowLayout.sizeColumns - 1, row: line, role: .columnSize, into: &grid)
        }
        if layout.showsSpeed {
            x = writeRight(row.speed, end: x + RowLayout.speedColumns, columns: RowLayout.speedColumns - 1, row: line, role: row.speedRole, into: &grid)
        }
        if layout.showsEta {
            writeRight(row.eta, end: x + RowLayout.etaColumns, columns: RowLayout.etaColumns - 1, row: line, role: .columnEta, into: &grid)
        }
    }

    /// `HTTP 404 Not Found from example.org — press p to retry`: the error is cut first, the hint last.
    func drawProblem(_ problem: RowViewModel.Problem, from column: Int, line: Int, into grid: inout ScreenGrid) {
        let available = grid.width - column
        guard available > 0 else { return }
        let hint = " — " + problem.hint
        let shortHint = " " + problem.shortHint
        let minimumText = 10
        if available >= DisplayWidth.of(hint) + minimumText {
            let text = DisplayWidth.truncated(problem.text, to: available - DisplayWidth.of(hint))
            let x = grid.write(text, row: line, column: column, role: .rowError)
            grid.write(hint, row: line, column: x, role: .rowHint)
        } else if available >= DisplayWidth.of(shortHint) + 4 {
            let text = DisplayWidth.truncated(problem.text, to: available - DisplayWidth.of(shortHint))
            let x = grid.write(text, row: line, column: column, role: .rowError)
            grid.write(shortHint, row: line, column: x, role: .rowHint)
        } else {
            grid.write(DisplayWidth.truncated(problem.shortHint, to: available), row: line, column: column, role: .rowHint)
        }
    }
}
