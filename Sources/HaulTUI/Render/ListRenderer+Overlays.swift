import HaulCore

extension ListRenderer {
    /// A box drawn over the list: help, details or the remove question.
    /// Boxes stay above the footer, which names the keys that answer them.
    func drawOverlay(_ overlay: ListViewModel.Overlay, layout: ScreenLayout, glyphs: GlyphSet, into grid: inout ScreenGrid) {
        let height = layout.footer ?? grid.height
        switch overlay {
        case let .help(help): drawHelp(help, height: height, glyphs: glyphs, into: &grid)
        case let .details(details): drawDetails(details, height: height, glyphs: glyphs, into: &grid)
        case let .confirm(confirm): drawConfirm(confirm, height: height, glyphs: glyphs, into: &grid)
        }
    }

    /// One line inside a box: runs of text in roles.
    typealias BoxLine = [Segment]

    /// How far the open help or details box scrolls on this screen, nil when neither is open: what the
    /// reducer needs to keep `UIState.helpScroll` and `detailsScroll` inside the content.
    public func overlayScroll(_ model: ListViewModel, layout: ScreenLayout) -> OverlayScroll? {
        let height = layout.footer ?? layout.height
        switch model.overlay {
        case let .help(help)?: return planHelp(help, width: layout.width, height: height).scroll
        // Glyphs change no line count: any set plans the same scroll.
        case let .details(details)?: return planDetails(details, width: layout.width, height: height, glyphs: .ascii).scroll
        case .confirm?, nil: return nil
        }
    }

    /// A box whose content can be longer than the screen: where it goes and its columns of lines,
    /// which scroll together.
    struct ScrollBox {
        struct Column {
            var x: Int
            var limit: Int
            var lines: [BoxLine]
        }

        var title: String
        /// Whose keys the hints name.
        var scope: KeyBinding.Scope
        var x: Int
        var y: Int
        var width: Int
        var height: Int
        var columns: [Column]

        /// Content lines that fit inside the border.
        var inner: Int { max(0, height - 2) }

        var scroll: OverlayScroll {
            let rows = columns.map(\.lines.count).max() ?? 0
            return OverlayScroll(page: inner, maxOffset: rows - inner)
        }
    }

    func planHelp(_ help: HelpViewModel, width gridWidth: Int, height: Int) -> ScrollBox {
        let keysWidth = help.sections.flatMap(\.entries).map { DisplayWidth.of($0.keys) }.max() ?? 0
        var lines: [BoxLine] = []
        for section in help.sections {
            if !lines.isEmpty { lines.append([]) }
            lines.append([(section.title, .dialogTitle)])
            for entry in section.entries {
                lines.append([(DisplayWidth.fitted(entry.keys, to: keysWidth), .dialogKey), ("  " + entry.text, .dialog)])
            }
        }
        var contentWidth = lines.map(width).max() ?? 0
        let innerHeight = max(1, height - 2)
        var columnLines: [[BoxLine]] = [lines]
        let half = (gridWidth - 1) / 2 - 3
        if lines.count > innerHeight, half >= 36 {
            // Two columns, each cut to fit, so that a short but wide screen needs less scrolling.
            // Break between sections near the middle, so a section is not split across columns.
            contentWidth = min(contentWidth, half)
            let middle = (lines.count + 1) / 2
            let breaks = lines.indices.filter { lines[$0].isEmpty }
            let split = breaks.min { abs($0 - middle) < abs($1 - middle) } ?? middle
            columnLines = [Array(lines[..<split]), Array(lines[split...].drop { $0.isEmpty })]
        }
        var boxWidth = min(gridWidth, columnLines.count * (contentWidth + 3) + 1)
        // A cell or two of list beside the box reads as part of it (`│s`): the box takes them.
        if gridWidth - boxWidth <= 2 { boxWidth = gridWidth }
        let boxHeight = min(height, (columnLines.map(\.count).max() ?? 0) + 2)
        let origin = (x: max(0, (gridWidth - boxWidth) / 2), y: max(0, (height - boxHeight) / 2))
        let columns = columnLines.enumerated().map { index, content in
            let x = origin.x + 2 + index * (contentWidth + 3)
            return ScrollBox.Column(x: x, limit: min(origin.x + boxWidth - 2, x + contentWidth), lines: content)
        }
        return ScrollBox(title: help.title, scope: .help, x: origin.x, y: origin.y, width: boxWidth, height: boxHeight, columns: columns)
    }

    func planDetails(_ details: DetailsViewModel, width gridWidth: Int, height: Int, glyphs: GlyphSet) -> ScrollBox {
        let boxWidth = min(gridWidth, 100)
        let labelWidth = (details.fields.map { DisplayWidth.of($0.label) }.max() ?? 0) + 2
        let valueWidth = max(1, boxWidth - 4 - labelWidth)
        var lines: [BoxLine] = [[(details.title, .dialogTitle)], []]
        for field in details.fields {
            let wrapped = wrap(field.value, width: valueWidth, maxLines: 4)
            if let map = field.map {
                // The map takes the value's whole width; the value follows as its caption.
                lines.append([(DisplayWidth.fitted(field.label, to: labelWidth), .dialogLabel)] + mapLine(map, width: valueWidth, glyphs: glyphs))
                for part in wrapped { lines.append([(String(repeating: " ", count: labelWidth), .dialogLabel), (part, .dialog)]) }
                continue
            }
            for (index, part) in wrapped.enumerated() {
                let label = index == 0 ? DisplayWidth.fitted(field.label, to: labelWidth) : String(repeating: " ", count: labelWidth)
                lines.append([(label, .dialogLabel), (part, .dialog)])
            }
        }
        let boxHeight = min(height, lines.count + 2)
        let origin = (x: max(0, (gridWidth - boxWidth) / 2), y: max(0, (height - boxHeight) / 2))
        let column = ScrollBox.Column(x: origin.x + 2, limit: origin.x + boxWidth - 2, lines: lines)
        return ScrollBox(title: "details", scope: .details, x: origin.x, y: origin.y, width: boxWidth, height: boxHeight, columns: [column])
    }

    func drawHelp(_ help: HelpViewModel, height: Int, glyphs: GlyphSet, into grid: inout ScreenGrid) {
        draw(planHelp(help, width: grid.width, height: height), offset: help.scroll, glyphs: glyphs, into: &grid)
    }

    /// A segment map as runs of glyphs: done like a bar's done part, in flight in the activity colour,
    /// waiting like a bar's rest.
    func mapLine(_ map: SegmentMap, width: Int, glyphs: GlyphSet) -> BoxLine {
        var line: BoxLine = []
        var run: (cell: SegmentCell, count: Int)?
        func flush() {
            guard let run else { return }
            let look: (Character, ColorRole) = switch run.cell {
            case .done: (glyphs.barDone, .barDone)
            case .inFlight: (glyphs.barInFlight, .barActivity)
            case .waiting: (glyphs.barRemaining, .barRemaining)
            }
            line.append((String(repeating: look.0, count: run.count), look.1))
        }
        for cell in map.cells(width: width) {
            if run?.cell == cell { run?.count += 1 } else { flush(); run = (cell, 1) }
        }
        flush()
        return line
    }

    func drawDetails(_ details: DetailsViewModel, height: Int, glyphs: GlyphSet, into grid: inout ScreenGrid) {
        draw(planDetails(details, width: grid.width, height: height, glyphs: glyphs), offset: details.scroll, glyphs: glyphs, into: &grid)
    }

    /// Draws the content from `offset` (clamped to the content) and says in the border when there is more
    /// above (top border) or below (bottom border, with the key that pages down).
    func draw(_ box: ScrollBox, offset: Int, glyphs: GlyphSet, into grid: inout ScreenGrid) {
        let scroll = box.scroll
        let first = scroll.clamped(offset)
        let above: BoxLine = first > 0 ? [(glyphs.moreAbove, .dialogBorder)] : []
        var below: BoxLine = []
        if first < scroll.maxOffset {
            below = [(glyphs.moreBelow, .dialogBorder)]
            if let key = KeyBinding.binding(for: .scrollPageDown, in: box.scope)?.keys.first {
                below += [("  ", .dialogBorder), (key.label, .dialogKey)]
            }
        }
        drawBox(
            title: box.title, x: box.x, y: box.y, width: box.width, height: box.height, glyphs: glyphs, into: &grid,
            topHint: above, bottomHint: below)
        for column in box.columns {
            let shown = Array(column.lines.dropFirst(first).prefix(box.inner))
            drawLines(shown, x: column.x, y: box.y + 1, limit: column.limit, maxLines: box.inner, into: &grid)
        }
    }

    func drawConfirm(_ confirm: ConfirmViewModel, height: Int, glyphs: GlyphSet, into grid: inout ScreenGrid) {
        var choices: BoxLine = []  // on one line when they fit, else one per line
        for (index, choice) in confirm.choices.enumerated() {
            if index > 0 { choices.append(("   ", .dialog)) }
            choices += [(choice.keys, .dialogKey), (" " + choice.label, .dialog)]
        }
        let room = max(1, grid.width - 4)
        var lines: [BoxLine] = []
        for (index, line) in confirm.lines.enumerated() {
            let role: ColorRole = index == 0 ? .dialogTitle : .dialog
            lines += wrap(line, width: room, maxLines: index == 0 ? 1 : 3).map { [($0, role)] }
        }
        if let warning = confirm.warning {
            lines += wrap(warning, width: room, maxLines: 3).map { [($0, .dialogWarning)] }
        }
        let choiceLines: [BoxLine] = width(choices) <= room
            ? [choices] : confirm.choices.map { [($0.keys, .dialogKey), (" " + $0.label, .dialog)] }
        // On a short screen the choices stay (the footer repeats them) and the explanation goes first.
        while lines.count > 1, lines.count + choiceLines.count + 2 > height { lines.removeLast() }
        if lines.count + 1 + choiceLines.count + 2 <= height { lines.append([]) }
        lines += choiceLines
        let contentWidth = max(lines.map(width).max() ?? 0, DisplayWidth.of(confirm.title) + 2)
        let boxWidth = min(grid.width, contentWidth + 4)
        let boxHeight = min(height, lines.count + 2)
        let origin = (x: max(0, (grid.width - boxWidth) / 2), y: max(0, (height - boxHeight) / 2))
        drawBox(title: confirm.title, x: origin.x, y: origin.y, width: boxWidth, height: boxHeight, glyphs: glyphs, into: &grid)
        drawLines(lines, x: origin.x + 2, y: origin.y + 1, limit: origin.x + boxWidth - 2, maxLines: boxHeight - 2, into: &grid)
    }

    /// A bordered box with its title in the top border, cleared inside. Hints go at the right end of the
    /// top and bottom borders, framed by a space each side; the title gives way to the top hint.
    func drawBox(
        title: String, x: Int, y: Int, width: Int, height: Int, glyphs: GlyphSet, into grid: inout ScreenGrid,
        topHint: BoxLine = [], bottomHint: BoxLine = []
    ) {
        guard width >= 2, height >= 2 else { return }
        let box = glyphs.box
        for line in y..<(y + height) {
            grid.unmarkSelected(row: line, from: x, to: x + width)
            grid.fill(row: line, from: x, to: x + width, role: .dialog)
            grid.write(box[5], row: line, column: x, role: .dialogBorder)
            grid.write(box[5], row: line, column: x + width - 1, role: .dialogBorder)
        }
        grid.fill(row: y, from: x + 1, to: x + width - 1, character: box[4], role: .dialogBorder)
        grid.fill(row: y + height - 1, from: x + 1, to: x + width - 1, character: box[4], role: .dialogBorder)
        for (column, line, corner) in [(x, y, box[0]), (x + width - 1, y, box[1]), (x, y + height - 1, box[2]), (x + width - 1, y + height - 1, box[3])] {
            grid.write(corner, row: line, column: column, role: .dialogBorder)
        }
        // "─ hint ─┐": the hint with a space each side, one rule cell before the corner.
        func hintStart(_ hint: BoxLine) -> Int? {
            guard !hint.isEmpty else { return nil }
            let start = x + width - 3 - self.width(hint)
            return start > x + 1 ? start : nil
        }
        let top = hintStart(topHint)
        let titleRoom = (top.map { $0 - 1 } ?? x + width - 2) - (x + 2) - 2
        if titleRoom > 0 {
            grid.write(" " + DisplayWidth.truncated(title, to: titleRoom) + " ", row: y, column: x + 2, role: .dialogTitle, limit: x + width - 2)
        }
        for (line, hint, start) in [(y, topHint, top), (y + height - 1, bottomHint, hintStart(bottomHint))] {
            guard let start else { continue }
            draw([(" ", .dialogBorder)] + hint + [(" ", .dialogBorder)], row: line, column: start - 1, limit: x + width - 1, into: &grid)
        }
    }

    func drawLines(_ lines: [BoxLine], x: Int, y: Int, limit: Int, maxLines: Int, into grid: inout ScreenGrid) {
        for (index, line) in lines.prefix(max(0, maxLines)).enumerated() {
            let isLastShown = index == maxLines - 1 && lines.count > maxLines
            if isLastShown {
                grid.write("…", row: y + index, column: x, role: .dialog, limit: limit)
            } else {
                var column = x
                for segment in line {
                    let cut = DisplayWidth.truncated(segment.text, to: max(0, limit - column))
                    column = grid.write(cut, row: y + index, column: column, role: segment.role, limit: limit)
                }
            }
        }
    }

    /// Wraps `text` into lines of at most `width` cells, between words where it can and inside a word
    /// (a URL) where it must; the last kept line ends in `…` if text was left over.
    func wrap(_ text: String, width: Int, maxLines: Int) -> [String] {
        guard width > 0, maxLines > 0 else { return [] }
        var lines: [String] = []
        var current = ""
        var used = 0
        func breakLine() {
            while current.last == " " { current.removeLast() }
            lines.append(current)
            current = ""
            used = 0
        }
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            let wordWidth = DisplayWidth.of(word)
            let gap = current.isEmpty ? 0 : 1
            if used + gap + wordWidth <= width {
                if gap == 1 { current.append(" ") }
                current += word
                used += gap + wordWidth
                continue
            }
            if !current.isEmpty, wordWidth <= width {
                breakLine()
                current = String(word)
                used = wordWidth
                continue
            }
            // A word longer than the line: cut it by grapheme.
            if gap == 1, used + 1 < width {
                current.append(" ")
                used += 1
            }
            for character in word {
                let cells = DisplayWidth.of(DisplayWidth.sanitized(character))
                if used + cells > width { breakLine() }
                current.append(character)
                used += cells
            }
        }
        if !current.isEmpty || lines.isEmpty { breakLine() }
        guard lines.count > maxLines else { return lines }
        var kept = Array(lines.prefix(maxLines))
        kept[maxLines - 1] = DisplayWidth.truncated(kept[maxLines - 1] + "……", to: width)
        return kept
    }
}
