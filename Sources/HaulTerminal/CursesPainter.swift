import CNcursesw
import HaulTUI

/// Copies a `ScreenGrid` to the screen: the only code that draws with curses.
///
/// Each frame writes again only the rows that differ from the frame before (a running download moves a row or two
/// of a screenful), each as runs of cells that share a style, then `wnoutrefresh` + `doupdate`, so curses sends only
/// what changed. After a resize, or when told to (`repaintAll`), the window is erased and every row written. It
/// never clears the screen on a timer (that would repaint everything and flicker). Runs on the key-loop thread.
struct CursesPainter {
    let window: UnsafeMutablePointer<WINDOW>
    let theme: Theme
    var colors: ColorPairCache
    /// The terminal's character set is not UTF-8 (`LANG=C`): curses cannot draw other characters there.
    let asciiOnly: Bool

    init(window: UnsafeMutablePointer<WINDOW>, theme: Theme, colors: ColorPairCache, asciiOnly: Bool = false) {
        self.window = window
        self.theme = theme
        self.colors = colors
        self.asciiOnly = asciiOnly
    }

    /// The grid last written to the window; nil when the window must be written whole.
    private var painted: ScreenGrid?

    /// The next frame writes every row (after a resize: curses may have changed the window's cells).
    mutating func repaintAll() { painted = nil }

    mutating func paint(_ grid: ScreenGrid) {
        let last = painted.flatMap { $0.width == grid.width && $0.height == grid.height ? $0 : nil }
        if last == nil { werase(window) }
        for row in 0..<grid.height {
            if let last {
                if grid.rowMatches(row, in: last) { continue }
                _ = wattr_set(window, 0, 0, nil)
                _ = wmove(window, Int32(row), 0)
                _ = wclrtoeol(window)
            }
            var column = 0
            while column < grid.width {
                let first = grid[row, column]
                let start = column
                var text = ""
                while column < grid.width {
                    let cell = grid[row, column]
                    if cell.role != first.role || cell.selected != first.selected { break }
                    if cell.width > 0 { text += Self.drawable(cell, asciiOnly: asciiOnly) }
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
        painted = grid
    }

    /// One-cell symbols the list uses, drawn as the ASCII character that looks most like them.
    static let asciiLookAlikes: [Character: String] = [
        "—": "-", "–": "-", "…": ".", "·": ".", "↓": "v", "↑": "^", "→": ">", "←": "<", "×": "x", "✓": "+", "✗": "x",
    ]

    /// The cell's character as curses will draw it in the cell's width: a grapheme whose width glibc
    /// measures differently (an unassigned scalar, say) becomes U+FFFD padded to the same width. On a terminal
    /// that is not UTF-8 every other character becomes `?` padded to its width, so the ASCII parts of a name
    /// stay and the columns after it line up.
    static func drawable(_ cell: ScreenGrid.Cell, asciiOnly: Bool = false) -> String {
        if cell.character.isASCII { return String(cell.character) }
        if asciiOnly {
            let fallback = Self.asciiLookAlikes[cell.character] ?? "?"
            return fallback + String(repeating: " ", count: max(0, Int(cell.width) - 1))
        }
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
