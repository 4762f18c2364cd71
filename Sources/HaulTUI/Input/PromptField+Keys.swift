/// The editing keys every text line of the list takes alike (the add and link prompts, the filter), as readline
/// binds them.
extension PromptField {
    /// Applies `key` when it is an editing key; false when it is not one (the caller decides what it means).
    public mutating func edit(_ key: KeyPress) -> Bool {
        switch key {
        case let .character(character): insert(String(character))
        case let .paste(text): insert(text)
        case .backspace, .control("h"): deleteBackward()
        case .delete, .control("d"): deleteForward()
        case .left, .control("b"): moveLeft()
        case .right, .control("f"): moveRight()
        case .home, .control("a"): moveToStart()
        case .end, .control("e"): moveToEnd()
        case .control("u"): deleteToStart()
        case .control("w"): deleteWordBackward()
        default: return false
        }
        return true
    }
}
