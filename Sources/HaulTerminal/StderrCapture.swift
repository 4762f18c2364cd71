import CNcursesw
import Glibc

/// Holds whatever is written to stderr while curses owns the screen, and replays it afterwards, so a
/// log line from another thread cannot tear the screen. The crash handler puts the real stderr back
/// first, so a crash report still reaches the user.
///
/// Owned by `TerminalSession`, used only on the thread that runs the session.
final class StderrCapture {
    private var saved: Int32
    private var holder: Int32

    /// Redirects fd 2 to an unlinked temporary file; nil (nothing redirected) if that is not possible.
    init?() {
        var template = Array("/tmp/haul-stderr-XXXXXX".utf8CString)
        let holder = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard holder >= 0 else { return nil }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        let saved = dup(2)
        guard saved >= 0, dup2(holder, 2) >= 0 else {
            close(holder)
            if saved >= 0 { close(saved) }
            return nil
        }
        self.saved = saved
        self.holder = holder
        CNcursesw_set_crash_stderr(saved)
    }

    /// Puts the real stderr back and writes out what was held. Safe to call more than once.
    func restore() {
        guard saved >= 0 else { return }
        CNcursesw_set_crash_stderr(-1)
        _ = dup2(saved, 2)
        close(saved)
        saved = -1
        _ = lseek(holder, 0, SEEK_SET)
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(holder, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            var offset = 0
            while offset < count {
                let written = buffer.withUnsafeBytes { write(2, $0.baseAddress! + offset, count - offset) }
                if written <= 0 { break }
                offset += written
            }
        }
        close(holder)
        holder = -1
    }

    deinit { restore() }
}
