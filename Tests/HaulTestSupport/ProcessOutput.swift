import Foundation
import HaulCore
#if canImport(Glibc)
import Glibc
#endif

/// Collects everything a child writes to one pipe, read by a dedicated thread so the child never blocks on a full pipe.
final class ProcessOutput: Sendable {
    private struct State {
        var bytes: [UInt8] = []
        var finished = false
    }

    private let state = PthreadMutex(State())

    /// Starts reading `fd` (which this object then owns and closes at end of stream).
    func startReading(_ fd: Int32) {
        Thread { [self] in
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n > 0 {
                    state.withLock { $0.bytes.append(contentsOf: chunk[..<n]) }
                } else if n < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            close(fd)
            state.withLock { $0.finished = true }
        }.start()
    }

    /// Everything read so far, as bytes.
    var bytes: [UInt8] { state.withLock { $0.bytes } }

    /// Everything read so far, decoded as UTF-8 (invalid bytes become U+FFFD).
    var text: String { String(decoding: state.withLock { $0.bytes }, as: UTF8.self) }

    /// Whether the writer side has closed and every byte has been read.
    var isFinished: Bool { state.withLock { $0.finished } }

    /// Complete lines so far, plus the unterminated last line once the stream has ended.
    var lines: [String] {
        let (bytes, finished) = state.withLock { ($0.bytes, $0.finished) }
        var lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }
        let last = lines.popLast() ?? ""
        if finished && !last.isEmpty { lines.append(last) }
        return lines
    }
}

/// The child's exit status, set by Foundation's termination handler.
final class ExitRecord: Sendable {
    let status = PthreadMutex<Int32?>(nil)
}

/// Holds the Foundation `Process` so it stays alive (and its termination handler armed) as long as the wrapper.
///
/// `@unchecked Sendable`: after `run()` the process object is never touched again except by Foundation's own
/// monitoring thread; the only mutable state here is `inputClosed`, which sits behind a mutex.
final class ProcessBox: @unchecked Sendable {
    let process: Process
    private let inputClosed = PthreadMutex(false)

    init(_ process: Process) { self.process = process }

    /// Runs `close` the first time only.
    func closeInputOnce(_ close: () -> Void) {
        let first = inputClosed.withLock { closed -> Bool in
            defer { closed = true }
            return !closed
        }
        if first { close() }
    }
}
