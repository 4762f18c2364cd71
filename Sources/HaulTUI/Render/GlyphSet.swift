/// The symbols the screen draws with: Unicode for UTF-8 terminals, ASCII when the locale cannot show more.
///
/// Every state has its own glyph and the bar has two distinct fills, so the list stays readable with
/// no colour at all (monochrome theme, NO_COLOR).
public struct GlyphSet: Sendable, Equatable {
    public var running: Character
    public var waiting: Character
    public var retrying: Character
    public var paused: Character
    public var failed: Character
    public var completed: Character
    public var barDone: Character
    public var barRemaining: Character
    /// Bytes being fetched now, in a segment map.
    public var barInFlight: Character
    /// Marks the selected row in its first column.
    public var marker: Character
    public var rule: Character
    public var download: String
    public var separator: String
    /// Box drawing: top-left, top-right, bottom-left, bottom-right, horizontal, vertical.
    public var box: [Character]
    /// Spinner frames for a running task of unknown size when the bar is not shown.
    public var spinner: [Character]
    /// In a box's border when its content goes on above or below what it shows.
    public var moreAbove: String
    public var moreBelow: String
    /// Beside a marked row's state glyph.
    public var mark: Character = "*"
    /// After the heading of the column the list is sorted by.
    public var sorted: Character = "v"
    /// Before a group's name: closed (its tasks hidden) and open.
    public var groupClosed: Character = "+"
    public var groupOpen: Character = "-"

    public static let unicode = GlyphSet(
        running: "▶", waiting: "·", retrying: "↻", paused: "⏸", failed: "✗", completed: "✓",
        barDone: "█", barRemaining: "░", barInFlight: "▒", marker: "›", rule: "─", download: "↓", separator: " · ",
        box: ["┌", "┐", "└", "┘", "─", "│"], spinner: ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"],
        moreAbove: "↑ more", moreBelow: "↓ more", mark: "*", sorted: "▾", groupClosed: "▸", groupOpen: "▾")

    public static let ascii = GlyphSet(
        running: ">", waiting: ".", retrying: "~", paused: "=", failed: "x", completed: "+",
        barDone: "#", barRemaining: "-", barInFlight: "=", marker: ">", rule: "-", download: "v", separator: ", ",
        box: ["+", "+", "+", "+", "-", "|"], spinner: ["|", "/", "-", "\\"],
        moreAbove: "^ more", moreBelow: "v more")
}
