import Foundation
import HaulReport

/// Writes headless lines: human text on stderr, JSON Lines on stdout; one write per line.
struct HeadlessOutput: Sendable {
    let format: PlainReporter.Format

    func emit(_ line: String) {
        // JSON is escaped already; human lines quote server text, which must not drive the terminal.
        let text = (format == .json ? line : UserMessages.line(line)) + "\n"
        let fd = format == .json ? STDOUT_FILENO : STDERR_FILENO
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }  // a closed pipe: nothing more to say
            bytes = bytes.dropFirst(written)
        }
    }
}
