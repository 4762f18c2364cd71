/// Draws a progress bar into cells: a fill for known sizes, a moving block while the size is unknown.
public enum ProgressBar {
    /// What a bar shows.
    public enum Fill: Sendable, Equatable {
        /// Done fraction, 0…1.
        case fraction(Double)
        /// Size unknown and bytes arriving: a block that moves with `phase` (one step per frame).
        case activity(phase: Int)
        /// Size unknown, nothing arriving: an empty track.
        case unknown
    }

    /// The block width of the activity indicator.
    static let blockWidth = 3

    /// `width` cells of glyph and role for `fill`. Whole cells only: 100 % needs every byte.
    public static func cells(_ fill: Fill, width: Int, glyphs: GlyphSet) -> [(Character, ColorRole)] {
        guard width > 0 else { return [] }
        var cells = Array(repeating: (glyphs.barRemaining, ColorRole.barRemaining), count: width)
        switch fill {
        case let .fraction(value):
            let clamped = value.isFinite ? min(max(value, 0), 1) : 0
            let done = clamped >= 1 ? width : min(width - 1, Int((clamped * Double(width)).rounded(.down)))
            for index in 0..<done { cells[index] = (glyphs.barDone, .barDone) }
        case let .activity(phase):
            let block = min(blockWidth, width)
            let travel = width - block
            let period = max(1, 2 * travel)
            let step = ((phase % period) + period) % period
            let start = step <= travel ? step : period - step
            for index in start..<(start + block) { cells[index] = (glyphs.barDone, .barActivity) }
        case .unknown:
            break
        }
        return cells
    }
}
