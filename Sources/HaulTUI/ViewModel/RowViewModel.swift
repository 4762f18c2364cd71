import HaulCore

/// One task row as plain text and roles: everything formatted, nothing left to compute when drawing.
public struct RowViewModel: Sendable, Equatable, Identifiable {
    /// A row that cannot go on by itself: the error and the key that helps.
    public struct Problem: Sendable, Equatable {
        public var text: String
        /// `press p to retry`.
        public var hint: String
        /// The short form for narrow rows: `p: retry`.
        public var shortHint: String
    }

    public var id: TaskID
    public var isSelected: Bool
    /// Marked with `m`: space, `x` and `+`/`-` act on the marked rows.
    public var isMarked = false
    public var glyph: Character
    public var stateRole: ColorRole
    public var name: String
    public var fill: ProgressBar.Fill
    /// `55.2%`, or `—` when the size is unknown.
    public var percent: String
    /// `552.0M/1.0G`, `12.0M/—`, `—/—`.
    public var size: String
    /// A speed while running (`4.1 MiB/s`, `—` before the first sample), else a state word.
    public var speed: String
    public var speedRole: ColorRole
    /// `2m11s`, `—`, or empty when not running.
    public var eta: String
    /// Set for failed rows, and for paused rows that carry an error (disk full).
    public var problem: Problem?
    /// A spinner frame shown instead of the percent when the size is unknown and the bar is hidden.
    public var spinner: Character?
    /// `×4` while a download runs over several connections, `seg 120/480` for a stream (`seg 120/480 ×4`
    /// while it runs over several); empty otherwise. Drawn at the end of the name's room.
    public var connections: String = ""
}
