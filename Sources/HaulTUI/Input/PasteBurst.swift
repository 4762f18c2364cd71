/// Keys that arrive together while the add prompt is open are a paste, not typing: terminals without bracketed
/// paste deliver pasted text as keys, and its letters must not act on the list (a pasted `p` paused a task); its
/// line breaks end URLs, which the prompt adds line by line.
public enum PasteBurst {
    /// Keys in one read from which a burst counts as a paste: a person types one key per read (or two with key
    /// repeat), a paste many.
    public static let minimumKeys = 3

    /// Whether `keys`, read at once while the prompt is open, are a paste.
    public static func isPaste(_ keys: [KeyPress]) -> Bool {
        keys.count >= minimumKeys
    }

    /// The text of a pasted burst: characters as they are, Enter as a line break (the prompt takes each line as a
    /// URL), Tab as a tab; keys that are no text are dropped.
    public static func text(of keys: [KeyPress]) -> String {
        var text = ""
        for key in keys {
            switch key {
            case let .character(character): text.append(character)
            case let .paste(pasted): text += pasted
            case .enter: text += "\n"
            case .tab: text += "\t"
            default: break
            }
        }
        return text
    }
}
