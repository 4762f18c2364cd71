import HaulCore

/// How many terminal cells text takes, and how to cut it to fit, the way ncursesw will draw it.
///
/// ncursesw places each scalar by glibc's `wcwidth`, so a cell grid only lines up with the screen if
/// it measures the same way. HaulTUI cannot import C, so the widths come from a table generated
/// from glibc (`DisplayWidth+Table.swift`) and checked against it by a test. A grapheme's width is
/// the sum of its scalars' widths, as ncursesw counts it: a ZWJ sequence of two emoji takes 4 cells,
/// a combining mark adds nothing, VS16 adds nothing.
///
/// Control characters (C0, DEL, C1) are not printable: `sanitized(_:)` replaces them with U+FFFD
/// so a name or a server's reason phrase can never move the cursor or start an escape sequence.
/// Unassigned scalars (glibc says -1) count as 1; the painter swaps them for U+FFFD too.
public enum DisplayWidth {
    static let replacement: Character = "\u{FFFD}"
    static let ellipsis: Character = "…"

    /// Cells one scalar takes: 0, 1 or 2. Control characters count 0 (they are sanitized before drawing).
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if scalar.isControlCharacter { return 0 }
        if value < 0x300 { return 1 }  // ASCII, Latin-1 and Latin Extended: no zero-width or wide scalars below U+0300
        if contains(zeroWidthRanges, value) { return 0 }
        if value >= 0x1100, contains(wideRanges, value) { return 2 }
        return 1
    }

    /// Cells one grapheme takes: the sum over its scalars, as ncursesw adds them up.
    public static func of(_ character: Character) -> Int {
        if let ascii = character.asciiValue { return Unicode.Scalar(ascii).isControlCharacter ? 0 : 1 }
        var total = 0
        for scalar in character.unicodeScalars { total += of(scalar) }
        return total
    }

    /// Cells a string takes.
    public static func of(_ text: some StringProtocol) -> Int {
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    /// The grapheme to draw: U+FFFD for anything holding a control character, else the grapheme itself.
    public static func sanitized(_ character: Character) -> Character {
        if let ascii = character.asciiValue { return Unicode.Scalar(ascii).isControlCharacter ? replacement : character }
        return character.unicodeScalars.contains(where: \.isControlCharacter) ? replacement : character
    }

    /// `text` cut to at most `width` cells at a grapheme boundary, ending in `…` when something was cut.
    public static func truncated(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        if of(text) <= width { return text }
        var result = ""
        var used = 0
        for character in text {
            let cells = of(sanitized(character))
            if used + cells > width - 1 { break }
            result.append(character)
            used += cells
        }
        result.append(ellipsis)
        return result
    }

    /// `text` truncated to `width` cells, then padded with spaces to exactly `width` cells.
    public static func fitted(_ text: String, to width: Int, alignment: Alignment = .left) -> String {
        let cut = truncated(text, to: width)
        let padding = String(repeating: " ", count: max(0, width - of(cut)))
        return alignment == .left ? cut + padding : padding + cut
    }

    /// The last graphemes of `text` that fit in `width` cells (for a prompt that scrolls with its cursor).
    public static func suffix(_ text: Substring, fitting width: Int) -> Substring {
        var used = 0
        var start = text.endIndex
        while start > text.startIndex {
            let previous = text.index(before: start)
            let cells = of(text[previous])
            if used + cells > width { break }
            used += cells
            start = previous
        }
        return text[start...]
    }

    public enum Alignment: Sendable { case left, right }

    /// Binary search in a flat list of inclusive (first, last) pairs sorted by `first`.
    static func contains(_ ranges: [UInt32], _ value: UInt32) -> Bool {
        var low = 0
        var high = ranges.count / 2 - 1
        while low <= high {
            let middle = (low + high) / 2
            if value < ranges[middle * 2] {
                high = middle - 1
            } else if value > ranges[middle * 2 + 1] {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }
}
