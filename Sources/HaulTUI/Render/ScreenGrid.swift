/// The renderer's output: width × height cells, each a grapheme and a colour role.
///
/// A grapheme wider than one cell sits in its first cell and the cells it covers hold continuations
/// (width 0), the way the terminal will draw it. Writing over half of a wide grapheme blanks the
/// other half, so the grid never holds a broken character. Text that does not fit is cut, never
/// wrapped.
public struct ScreenGrid: Sendable, Equatable {
    public struct Cell: Sendable, Equatable {
        public var character: Character
        /// Cells the character covers; 0 for the continuation cells of a wide character.
        public var width: UInt8
        public var role: ColorRole
        /// Part of the selected row: the painter lays `row.selected` over the role's style.
        public var selected: Bool

        public static let blank = Cell(character: " ", width: 1, role: .text, selected: false)
    }

    public let width: Int
    public let height: Int
    public private(set) var cells: [Cell]

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    public subscript(row: Int, column: Int) -> Cell { cells[row * width + column] }

    /// True when `row` holds the same cells in `other`, a grid of the same size.
    public func rowMatches(_ row: Int, in other: ScreenGrid) -> Bool {
        guard other.width == width, other.height == height, row >= 0, row < height else { return false }
        let cells = row * width..<(row + 1) * width
        return self.cells[cells] == other.cells[cells]
    }

    /// Writes `text` from `column`, stopping before `limit` (default: the right edge). Control characters
    /// become U+FFFD; zero-width graphemes are skipped; a wide grapheme that would cross the limit
    /// leaves blanks instead. Returns the column after the last cell written.
    @discardableResult
    public mutating func write(_ text: String, row: Int, column: Int, role: ColorRole, limit: Int? = nil) -> Int {
        guard row >= 0, row < height else { return column }
        let end = min(limit ?? width, width)
        var x = column
        for character in text {
            if x >= end { break }
            let shown = DisplayWidth.sanitized(character)
            let cells = DisplayWidth.of(shown)
            if cells == 0 { continue }
            if x < 0 {
                x += cells
                continue
            }
            if x + cells > end {
                fill(row: row, from: x, to: end, role: role)
                return end
            }
            put(shown, width: cells, row: row, column: x, role: role)
            x += cells
        }
        return x
    }

    /// Writes one character at a position (a glyph or a bar cell).
    public mutating func write(_ character: Character, row: Int, column: Int, role: ColorRole) {
        write(String(character), row: row, column: column, role: role)
    }

    /// Fills columns `from..<to` of a row with `character`.
    public mutating func fill(row: Int, from: Int, to: Int, character: Character = " ", role: ColorRole) {
        guard row >= 0, row < height else { return }
        var x = max(0, from)
        let end = min(to, width)
        let cells = max(1, DisplayWidth.of(character))
        while x + cells <= end {
            put(character, width: cells, row: row, column: x, role: role)
            x += cells
        }
        while x < end {
            put(" ", width: 1, row: row, column: x, role: role)
            x += 1
        }
    }

    /// Marks every cell of a row as part of the selection.
    public mutating func markSelected(row: Int) {
        guard row >= 0, row < height else { return }
        for index in (row * width)..<((row + 1) * width) { cells[index].selected = true }
    }

    /// Takes cells `from..<to` of a row out of the selection (a dialog drawn over the selected row).
    public mutating func unmarkSelected(row: Int, from: Int, to: Int) {
        guard row >= 0, row < height else { return }
        for column in max(0, from)..<max(max(0, from), min(to, width)) { cells[row * width + column].selected = false }
    }

    /// The text of one line, exactly `width` cells wide.
    public func line(_ row: Int) -> String {
        var text = ""
        for column in 0..<width where self[row, column].width > 0 { text.append(self[row, column].character) }
        return text
    }

    /// Every line as text (trailing spaces removed unless `keepTrailingSpaces`), for tests and logs.
    public func lines(keepTrailingSpaces: Bool = false) -> [String] {
        (0..<height).map { row in
            let text = line(row)
            guard !keepTrailingSpaces else { return text }
            var trimmed = Substring(text)
            while trimmed.last == " " { trimmed = trimmed.dropLast() }
            return String(trimmed)
        }
    }

    /// The role of each cell of a line (continuation cells repeat their character's role).
    public func roles(_ row: Int) -> [ColorRole] { (0..<width).map { self[row, $0].role } }

    private mutating func put(_ character: Character, width span: Int, row: Int, column: Int, role: ColorRole) {
        let base = row * width
        // Blank what is left of a wide character whose first cell is overwritten or that this one half-covers.
        for offset in 0..<max(1, span) { clearWide(at: column + offset, row: row) }
        let selected = cells[base + column].selected
        cells[base + column] = Cell(character: character, width: UInt8(span), role: role, selected: selected)
        for offset in 1..<max(1, span) {
            cells[base + column + offset] = Cell(character: " ", width: 0, role: role, selected: selected)
        }
    }

    /// If `column` belongs to a wide character, turn every cell of that character into blanks.
    private mutating func clearWide(at column: Int, row: Int) {
        guard column < width else { return }
        let base = row * width
        var start = column
        while start > 0, cells[base + start].width == 0 { start -= 1 }
        let span = Int(cells[base + start].width)
        guard span > 1 || start != column else { return }
        for x in start..<min(width, start + max(span, 1)) {
            cells[base + x] = Cell(character: " ", width: 1, role: cells[base + x].role, selected: cells[base + x].selected)
        }
    }
}
