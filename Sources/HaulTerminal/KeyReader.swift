import CNcursesw
import HaulTUI

/// What one read from the terminal gave.
enum TerminalEvent: Equatable {
    case key(KeyPress)
    case resize
    /// The left button went down at a cell; the loop tells a click from a double click (`ClickTracker`).
    case mousePress(line: Int, column: Int)
    /// Nothing arrived before the timeout.
    case idle
}

/// Reads wide-character keys with a timeout and turns curses key codes into `KeyPress` values.
/// Bracketed paste (`ESC [200~ … ESC [201~`) arrives as one `.paste`. Runs on the key-loop thread.
struct KeyReader {
    let window: UnsafeMutablePointer<WINDOW>
    /// The largest paste kept, in characters; the rest is dropped.
    static let pasteLimit = 64 * 1024

    /// Waits up to `milliseconds` (0: do not wait) for the next key.
    func next(waitingMilliseconds milliseconds: Int32) -> TerminalEvent {
        wtimeout(window, milliseconds)
        var code: wint_t = 0
        let result = wget_wch(window, &code)
        if result == KEY_CODE_YES { return functionKey(Int32(code)) }
        guard result == OK else { return .idle }
        return character(UInt32(code))
    }

    func functionKey(_ code: Int32) -> TerminalEvent {
        switch code {
        case KEY_RESIZE: return .resize
        case KEY_UP: return .key(.up)
        case KEY_DOWN: return .key(.down)
        case KEY_LEFT: return .key(.left)
        case KEY_RIGHT: return .key(.right)
        case KEY_PPAGE: return .key(.pageUp)
        case KEY_NPAGE: return .key(.pageDown)
        case KEY_HOME: return .key(.home)
        case KEY_END: return .key(.end)
        case KEY_ENTER: return .key(.enter)
        case KEY_BACKSPACE: return .key(.backspace)
        case KEY_DC: return .key(.delete)
        case KEY_IC: return .key(.insert)
        case KEY_BTAB: return .key(.backTab)
        case (KEY_F0 + 1)...(KEY_F0 + 24): return .key(.function(Int(code - KEY_F0)))
        default: return .idle
        }
    }

    func character(_ value: UInt32) -> TerminalEvent {
        switch value {
        case 9: return .key(.tab)
        case 10, 13: return .key(.enter)
        case 8, 127: return .key(.backspace)
        case 27: return escape()
        case 1...26: return .key(.control(Character(Unicode.Scalar(UInt8(value) + 96))))
        case 0...31: return .idle
        default:
            guard let scalar = Unicode.Scalar(value) else { return .idle }
            return .key(.character(Character(scalar)))
        }
    }

    /// After ESC: a bracketed paste if `[200~` follows at once, a mouse report if `[<` does, else a plain Esc (what
    /// followed is put back).
    func escape() -> TerminalEvent {
        let marker: [UInt32] = Array("[200~".unicodeScalars.map(\.value))
        var seen: [UInt32] = []
        for expected in marker {
            let next = rawCharacter(waiting: 0)
            if seen.count == 1, next == UInt32(UInt8(ascii: "<")) { return mouseReport() }
            guard next == expected else {
                // Put back what was read, last first, so it is read again in order.
                for value in (seen + (next.map { [$0] } ?? [])).reversed() { _ = unget_wch(wchar_t(bitPattern: value)) }
                return .key(.escape)
            }
            seen.append(expected)
        }
        return .key(.paste(readPaste()))
    }

    /// The rest of an SGR mouse report after `ESC [<`: `button ; column ; line` (from 1) and `M` for a press,
    /// `m` for a release. A left press or the wheel is an event; anything else (releases, other buttons, a report
    /// cut short) is idle.
    func mouseReport() -> TerminalEvent {
        var numbers: [Int] = [0]
        while let value = rawCharacter(waiting: 10), numbers.count <= 3 {
            switch value {
            case 48...57: numbers[numbers.count - 1] = min(numbers[numbers.count - 1] * 10 + Int(value - 48), 1 << 20)
            case 59: numbers.append(0)
            case 77, 109:
                guard value == 77, numbers.count == 3, numbers[1] > 0, numbers[2] > 0 else { return .idle }
                let (line, column) = (numbers[2] - 1, numbers[1] - 1)
                switch numbers[0] {
                case 0: return .mousePress(line: line, column: column)
                case 64: return .key(.mouse(MouseEvent(.wheelUp, line: line, column: column)))
                case 65: return .key(.mouse(MouseEvent(.wheelDown, line: line, column: column)))
                default: return .idle
                }
            default: return .idle
            }
        }
        return .idle
    }

    /// Reads until `ESC [201~`, with a short wait per character so a paste cut short cannot hang the loop.
    func readPaste() -> String {
        let end: [UInt32] = [27] + "[201~".unicodeScalars.map(\.value)
        var values: [UInt32] = []
        while let value = rawCharacter(waiting: 100) {
            values.append(value)
            if values.count >= end.count, Array(values.suffix(end.count)) == end {
                values.removeLast(end.count)
                break
            }
        }
        var text = ""
        for value in values.prefix(Self.pasteLimit) {
            if let scalar = Unicode.Scalar(value) { text.unicodeScalars.append(scalar) }
        }
        return text
    }

    /// One character, or nil after `milliseconds`; a function key read here (F10 right after Esc) is put back for
    /// the next read, never lost.
    func rawCharacter(waiting milliseconds: Int32) -> UInt32? {
        wtimeout(window, milliseconds)
        var code: wint_t = 0
        let result = wget_wch(window, &code)
        if result == KEY_CODE_YES { _ = ungetch(Int32(code)) }
        return result == OK ? UInt32(code) : nil
    }
}
