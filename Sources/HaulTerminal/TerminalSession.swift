import CNcursesw
import Glibc
import HaulCore

/// Owns curses for one interactive run: takes the terminal, and gives it back on every path.
///
/// `open()` sets the character locale, checks that stdin and stdout are terminals, starts curses with
/// `newterm` (which, unlike `initscr`, returns NULL on an unusable TERM instead of exiting), and sets
/// cbreak, noecho, keypad, a hidden cursor, a 25 ms Esc delay, default-background colours, bracketed
/// paste, and the crash handler that calls `endwin()` before the previous handler runs. `close()`
/// undoes all of it and is safe to call twice; `deinit` calls it too.
///
/// Not Sendable: curses is not thread-safe, so the session lives and dies on the thread that runs the
/// key loop.
final class TerminalSession {
    let screen: OpaquePointer
    let window: UnsafeMutablePointer<WINDOW>
    /// Whether the terminal has colours at all.
    let hasColors: Bool
    /// Whether `use_default_colors` worked, so -1 means the terminal's own foreground/background.
    let hasDefaultColors: Bool
    /// Whether the locale's character set is UTF-8 (else ASCII glyphs are drawn).
    let isUTF8: Bool
    private var stderrCapture: StderrCapture?
    private var isOpen = true

    /// Installed once per process: a second install would record the handler itself as "previous"
    /// and chain to itself forever.
    private static let installCrashRestore: Void = CNcursesw_install_crash_restore()

    private static let bracketedPasteOn = "\u{1B}[?2004h"
    private static let bracketedPasteOff = "\u{1B}[?2004l"
    /// Button presses and the wheel, reported in SGR form (`ESC [ < b ; x ; y M`), which has no column limit.
    private static let mouseOn = "\u{1B}[?1000h\u{1B}[?1006h"
    private static let mouseOff = "\u{1B}[?1006l\u{1B}[?1000l"
    /// Whether this session asked the terminal for mouse reports.
    private(set) var reportsMouse = false

    private init(
        screen: OpaquePointer, window: UnsafeMutablePointer<WINDOW>, hasColors: Bool, hasDefaultColors: Bool,
        isUTF8: Bool, stderrCapture: StderrCapture?
    ) {
        self.screen = screen
        self.window = window
        self.hasColors = hasColors
        self.hasDefaultColors = hasDefaultColors
        self.isUTF8 = isUTF8
        self.stderrCapture = stderrCapture
    }

    /// Takes the terminal. Throws `TerminalUnavailable` when stdin/stdout are not terminals or TERM is unusable.
    /// - Parameter mouse: ask the terminal to report clicks and the wheel (`KeyReader` reads them as `.mouse`).
    static func open(mouse: Bool = false) throws(TerminalUnavailable) -> TerminalSession {
        CharacterLocale.adopt()
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw TerminalUnavailable(reason: "stdin or stdout is not a terminal")
        }
        let term = getenv("TERM").map { String(cString: $0) } ?? ""
        guard !term.isEmpty, term != "dumb" else {
            throw TerminalUnavailable(reason: term.isEmpty ? "TERM is not set" : "TERM=dumb cannot move the cursor")
        }
        guard let screen = CNcursesw_newterm_stdio() else {
            throw TerminalUnavailable(reason: "TERM=\(term) is not a terminal type this system knows")
        }
        set_term(screen)
        guard let window = CNcursesw_stdscr() else {
            endwin()
            delscreen(screen)
            throw TerminalUnavailable(reason: "curses gave no screen for TERM=\(term)")
        }
        _ = installCrashRestore
        cbreak()
        noecho()
        nonl()
        keypad(window, true)
        _ = curs_set(0)
        set_escdelay(25)
        leaveok(window, true)
        var hasDefaultColors = false
        let hasColors = has_colors()
        if hasColors {
            start_color()
            hasDefaultColors = use_default_colors() == OK
        }
        let session = TerminalSession(
            screen: screen, window: window, hasColors: hasColors, hasDefaultColors: hasDefaultColors,
            isUTF8: CharacterLocale.isUTF8, stderrCapture: StderrCapture())
        writeToTerminal(bracketedPasteOn)
        if mouse {
            writeToTerminal(mouseOn)
            session.reportsMouse = true
        }
        // The terminal's own title goes on its title stack (xterm, tmux, VTE), to come back on close.
        writeToTerminal(pushTitle)
        return session
    }

    /// The screen size in cells.
    var size: (width: Int, height: Int) { (Int(getmaxx(window)), Int(getmaxy(window))) }

    /// Gives the terminal back: bracketed paste off, `endwin`, stderr replayed. Safe to call again.
    func close() {
        guard isOpen else { return }
        isOpen = false
        writeToTerminal(Self.bracketedPasteOff)
        if reportsMouse { writeToTerminal(Self.mouseOff) }
        writeToTerminal(Self.popTitle)
        endwin()
        delscreen(screen)
        stderrCapture?.restore()
        stderrCapture = nil
    }

    deinit { close() }

    /// Shows `title` as the terminal's title (OSC 2); control characters never reach the terminal.
    func setTitle(_ title: String) {
        writeToTerminal("\u{1B}]2;" + title.escapingAllControlCharacters + "\u{7}")
    }

    /// xterm's title stack: save the title, and restore it.
    static let pushTitle = "\u{1B}[22;0t"
    static let popTitle = "\u{1B}[23;0t"

    private func writeToTerminal(_ text: String) { Self.writeToTerminal(text) }

    private static func writeToTerminal(_ text: String) {
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
    }
}
