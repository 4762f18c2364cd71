/// Lays out a `ListViewModel` into a `ScreenGrid`: header, list names, rows, status line, footer and
/// any open dialog. Pure: the same model and size always give the same grid. Works from 1 to any
/// number of columns; below about 40 it keeps the glyph, the name and as many figures as fit.
public struct ListRenderer: Sendable {
    public init() {}

    public func render(_ model: ListViewModel, layout: ScreenLayout) -> ScreenGrid {
        var grid = ScreenGrid(width: layout.width, height: layout.height)
        guard layout.width > 0, layout.height > 0 else { return grid }
        let glyphs = model.glyphs
        if let line = layout.header { drawHeader(model.header, glyphs: glyphs, row: line, into: &grid) }
        if let line = layout.topRule { drawTabs(model.tabs, glyphs: glyphs, row: line, into: &grid) }
        let rowLayout = RowLayout(width: layout.width)
        if let line = layout.columnHeader { drawColumnHeader(model.columns, layout: rowLayout, glyphs: glyphs, line: line, into: &grid) }
        for (offset, row) in model.rows.enumerated() where offset < layout.list.count {
            drawRow(row, layout: rowLayout, glyphs: glyphs, line: layout.list.lowerBound + offset, into: &grid)
        }
        if let empty = model.emptyText, let line = layout.list.first {
            grid.write(empty, row: line, column: min(3, layout.width - 1), role: .empty)
        }
        if let line = layout.bottomRule { grid.fill(row: line, from: 0, to: layout.width, character: glyphs.rule, role: .rule) }
        if let warning = model.warning, let line = layout.bottomRule ?? layout.topRule {
            drawBanner(warning, row: line, into: &grid)
        }
        if let line = layout.status { drawStatus(model.status, row: line, into: &grid) }
        if let line = layout.footer {
            if let message = model.footerMessage {
                grid.write(DisplayWidth.truncated(message.text, to: layout.width - 2), row: line, column: 1, role: message.isError ? .messageError : .message)
            } else {
                drawFooter(model.footer, row: line, into: &grid)
            }
        }
        if let overlay = model.overlay { drawOverlay(overlay, layout: layout, glyphs: glyphs, into: &grid) }
        return grid
    }

    /// One line across the screen with a warning, cut to the width (never wrapped).
    func drawBanner(_ warning: String, row: Int, into grid: inout ScreenGrid) {
        grid.fill(row: row, from: 0, to: grid.width, role: .bannerWarning)
        let oneLine = warning.map { $0.isNewline || $0 == "\t" ? " " : DisplayWidth.sanitized($0) }
        let text = "warning: " + String(oneLine)
        grid.write(DisplayWidth.truncated(text, to: max(0, grid.width - 2)), row: row, column: 1, role: .bannerWarning, limit: grid.width)
    }

    // MARK: Header

    /// A run of text in one role.
    typealias Segment = (text: String, role: ColorRole)

    func drawTabs(_ tabs: [ListViewModel.Tab], glyphs: GlyphSet, row: Int, into grid: inout ScreenGrid) {
        grid.fill(row: row, from: 0, to: grid.width, character: glyphs.rule, role: .rule)
        let titles = ListTabs.titles(tabs, width: grid.width)
        for ((tab, title), cells) in zip(zip(tabs, titles), ListTabs.ranges(titles)) {
            grid.write(title, row: row, column: cells.lowerBound, role: tab.isActive ? .tabActive : .tab)
        }
    }

    // MARK: Status line and footer

    func drawStatus(_ status: ListViewModel.StatusLine, row: Int, into grid: inout ScreenGrid) {
        switch status {
        case let .info(left, right):
            let rightWidth = DisplayWidth.of(right)
            let x = grid.write(left, row: row, column: 1, role: .status)
            if x + 2 + rightWidth <= grid.width - 1 {
                grid.write(right, row: row, column: grid.width - 1 - rightWidth, role: .status)
            }
        case let .message(text, isError):
            grid.write(DisplayWidth.truncated(text, to: grid.width - 2), row: row, column: 1, role: isError ? .messageError : .message)
        case let .prompt(label, field):
            drawPrompt(label: label, field: field, row: row, into: &grid)
        }
    }

    /// The prompt scrolls so that the cursor stays in view; the cursor is a cell in `prompt.cursor`.
    func drawPrompt(label: String, field: PromptField, row: Int, into grid: inout ScreenGrid) {
        let start = grid.write(DisplayWidth.truncated(label, to: max(0, grid.width / 3)), row: row, column: 1, role: .promptLabel)
        let available = grid.width - 1 - start
        guard available > 1 else { return }
        let before = Substring(String(field.characters[..<field.cursor]))
        let shownBefore = DisplayWidth.suffix(before, fitting: available - 1)
        var x = grid.write(String(shownBefore), row: row, column: start, role: .prompt)
        let after = field.characters[field.cursor...]
        let cursorCharacter = after.first.map { DisplayWidth.sanitized($0) } ?? " "
        let cursorWidth = max(1, DisplayWidth.of(cursorCharacter))
        if x + cursorWidth <= grid.width - 1 {
            grid.write(String(cursorCharacter), row: row, column: x, role: .promptCursor)
            x += cursorWidth
            grid.write(String(after.dropFirst()), row: row, column: x, role: .prompt, limit: grid.width - 1)
        }
    }

    func drawFooter(_ items: [FooterItem], row: Int, into grid: inout ScreenGrid) {
        var shown = items
        func needed(_ items: [FooterItem]) -> Int {
            items.reduce(0) { $0 + DisplayWidth.of($1.keys) + 1 + DisplayWidth.of($1.label) } + max(0, items.count - 1) * 2
        }
        while needed(shown) > grid.width - 1, !shown.isEmpty {
            if let index = shown.lastIndex(where: { !$0.essential }) { shown.remove(at: index) } else { shown.removeLast() }
        }
        if shown.isEmpty, let first = items.first(where: \.essential) ?? items.first { shown = [first] }
        var x = 1
        for (index, item) in shown.enumerated() {
            if index > 0 { x += 2 }
            x = grid.write(item.keys, row: row, column: x, role: .footerKey)
            x = grid.write(" " + item.label, row: row, column: x, role: .footerLabel)
        }
    }

    // MARK: Helpers

    func width(_ segments: [Segment]) -> Int { segments.reduce(0) { $0 + DisplayWidth.of($1.text) } }

    @discardableResult
    func draw(_ segments: [Segment], row: Int, column: Int, limit: Int, into grid: inout ScreenGrid) -> Int {
        var x = column
        for segment in segments { x = grid.write(segment.text, row: row, column: x, role: segment.role, limit: limit) }
        return x
    }

    /// Writes `text` right-aligned so that it ends just before `end`, in a field of `columns` cells.
    @discardableResult
    func writeRight(_ text: String, end: Int, columns: Int, row: Int, role: ColorRole, into grid: inout ScreenGrid) -> Int {
        let cut = DisplayWidth.truncated(text, to: columns)
        let start = end - DisplayWidth.of(cut)
        grid.write(cut, row: row, column: start, role: role, limit: end)
        return end
    }
}
