import HaulCore

/// The text being typed on the prompt line, with a cursor; edits are by grapheme so UTF-8 input
/// and combining sequences stay whole.
public struct PromptField: Sendable, Equatable {
    public private(set) var characters: [Character]
    /// Cursor position: 0 is before the first grapheme, `characters.count` after the last.
    public private(set) var cursor: Int
    /// The task whose link the prompt edits; nil for the add prompt.
    public var linkOf: TaskID?
    /// The marked tasks that all get the link typed here; empty unless `e` was pressed with marks.
    public var linksOf: [TaskID] = []

    public init(_ text: String = "", linkOf: TaskID? = nil, linksOf: [TaskID] = []) {
        self.linksOf = linksOf
        characters = Array(text)
        cursor = characters.count
        self.linkOf = linkOf
    }

    public var text: String { String(characters) }

    /// Inserts text at the cursor; line breaks and tabs from a paste become spaces, other control characters are dropped.
    public mutating func insert(_ text: String) {
        var cleaned: [Character] = []
        for character in text {
            if character == "\n" || character == "\r\n" || character == "\r" || character == "\t" {
                cleaned.append(" ")
            } else if !character.unicodeScalars.contains(where: \.isControlCharacter) {
                cleaned.append(character)
            }
        }
        characters.insert(contentsOf: cleaned, at: cursor)
        cursor += cleaned.count
    }

    public mutating func deleteBackward() {
        guard cursor > 0 else { return }
        characters.remove(at: cursor - 1)
        cursor -= 1
    }

    public mutating func deleteForward() {
        guard cursor < characters.count else { return }
        characters.remove(at: cursor)
    }

    /// Ctrl-W: deletes the word before the cursor and the spaces after it.
    public mutating func deleteWordBackward() {
        var start = cursor
        while start > 0, characters[start - 1] == " " { start -= 1 }
        while start > 0, characters[start - 1] != " " { start -= 1 }
        characters.removeSubrange(start..<cursor)
        cursor = start
    }

    /// Ctrl-U: deletes everything before the cursor.
    public mutating func deleteToStart() {
        characters.removeSubrange(0..<cursor)
        cursor = 0
    }

    public mutating func moveLeft() { cursor = max(0, cursor - 1) }
    public mutating func moveRight() { cursor = min(characters.count, cursor + 1) }
    public mutating func moveToStart() { cursor = 0 }
    public mutating func moveToEnd() { cursor = characters.count }
}
