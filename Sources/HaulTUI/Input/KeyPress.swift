/// A key as a value, independent of ncurses codes: what `KeyReader` produces and the binding table matches.
public enum KeyPress: Hashable, Sendable {
    /// A printable character, including space.
    case character(Character)
    /// Ctrl with a letter: `.control("u")` for Ctrl-U.
    case control(Character)
    case up, down, left, right
    case pageUp, pageDown, home, end
    case enter, escape, tab, backTab, backspace, delete, insert
    case function(Int)
    /// Text the terminal delivered as one bracketed paste.
    case paste(String)
    /// A click or the wheel (`--no-mouse` turns these off).
    case mouse(MouseEvent)

    /// How the key is written in the footer and the help screen.
    public var label: String {
        switch self {
        case .character(" "): return "space"
        case let .character(character): return String(character)
        case let .control(letter): return "^" + letter.uppercased()
        case .up: return "↑"
        case .down: return "↓"
        case .left: return "←"
        case .right: return "→"
        case .pageUp: return "PgUp"
        case .pageDown: return "PgDn"
        case .home: return "Home"
        case .end: return "End"
        case .enter: return "Enter"
        case .escape: return "Esc"
        case .tab: return "Tab"
        case .backTab: return "S-Tab"
        case .backspace: return "Bksp"
        case .delete: return "Del"
        case .insert: return "Ins"
        case let .function(number): return "F\(number)"
        case .paste: return "paste"
        case .mouse: return "mouse"
        }
    }
}
