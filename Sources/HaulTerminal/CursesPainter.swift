import CNcursesw
import HaulTUI

/// Copies a `ScreenGrid` to the screen: the only code that draws with curses.
///
/// Each frame erases the window and writes runs of cells that share a style, then `wnoutrefresh` +
/// `doupdate`, so curses sends only what changed since the last frame. It never clears the screen
/// on a timer (that would repaint everything and flicker). Runs on the key-loop thread.
struct CursesPainter {
    let window: UnsafeMutablePointer<WINDOW>
    let theme: Theme
    var colors: ColorPairCache

    init(window: UnsafeMutablePointer<WINDOW>, theme: Theme, colors: ColorPairCache) {
        self.window = window
        self.theme = theme
        self.colors = colors
    }

    mutating func paint(_ grid: ScreenGrid) {
        werase(window)
        for row in 0..<grid.height {
            var column = 0
            while column < grid.width {
                let first = grid[row, column]
                let start = column
                var text = ""
                while column < grid.width {
                    let cell = grid[row, column]
                    if cell.role != first.role || cell.selected != first.selected { break }
                    if cell.width > 0 { text += Self.drawable(cell) }
                    column += 1
                }
                let (attributes, pair) = colors.attributes(for: theme.style(for: first.role, selected: first.selected))
                _ = wattr_set(window, attributes, pair, nil)
                // Writing the bottom-right cell returns ERR (the cursor cannot advance); the cell is drawn anyway.
                _ = mvwaddstr(window, Int32(row), Int32(start), text)
            }
        }
        _ = wattr_set(window, 0, 0, nil)
        wnoutrefresh(window)
        doupdate()
    }

    /// The cell's character as curses will draw it in the cell's width: a grapheme whose width glibc
    /// measures differently (an unassigned scalar, say) becomes U+FFFD padded to the same width.
    static func drawable(_ cell: ScreenGrid.Cell) -> String {
        if cell.character.isASCII { return String(cell.character) }
        var total: Int32 = 0
        for scalar in cell.character.unicodeScalars {
            let width = CNcursesw_wcwidth(wchar_t(bitPattern: scalar.value))
            if width < 0 { return String(repeating: "\u{FFFD}", count: 1) + String(repeating: " ", count: Int(cell.width) - 1) }
            total += width
        }
        if total == Int32(cell.width) { return String(cell.character) }
        return "\u{FFFD}" + String(repeating: " ", count: max(0, Int(cell.width) - 1))
    }
}
