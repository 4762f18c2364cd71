import Foundation
import HaulCore
#if canImport(Glibc)
import Glibc
#endif

/// What happens to the names in one directory (created or moved in, read, removed or moved out), as the kernel
/// records it from the moment the watch begins (inotify): a file that stood under a name for an instant and went
/// again is still seen, with no polling.
///
/// Owned by one test; its descriptor is closed when it is released.
public final class DirectoryWatch: Sendable {
    private let fd: Int32
    private let seen = PthreadMutex<[Event]>([])

    /// One thing that happened to a name in the directory.
    public struct Event: Sendable, Equatable, CustomStringConvertible {
        public enum Kind: String, Sendable { case appeared, read, removed, overflow }
        public let kind: Kind
        public let name: String

        public init(kind: Kind, name: String) {
            self.kind = kind
            self.name = name
        }

        public var description: String { "\(kind.rawValue) \(name)" }
    }

    /// Starts watching `path`, an existing directory.
    public init(_ path: String) throws {
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        guard inotify_add_watch(fd, path, UInt32(IN_CREATE | IN_MOVED_TO | IN_ACCESS | IN_DELETE | IN_MOVED_FROM)) >= 0 else {
            let code = errno
            close(fd)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
    }

    deinit { close(fd) }

    /// The names that appeared so far (created or moved in), in order.
    public func appearedNames() -> [String] {
        events().filter { $0.kind == .appeared || $0.kind == .overflow }.map(\.name)
    }

    /// Everything that happened so far, in order; an `overflow` event when the kernel dropped some.
    public func events() -> [Event] {
        seen.withLock { seen in
            var buffer = [UInt8](repeating: 0, count: 64 << 10)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                seen += Self.events(in: buffer.prefix(count))
            }
            return seen
        }
    }

    /// A run of `struct inotify_event`s (wd, mask, cookie, len, then `len` bytes of the name, NUL-padded).
    static func events(in events: ArraySlice<UInt8>) -> [Event] {
        var found: [Event] = []
        var offset = events.startIndex
        while offset + 16 <= events.endIndex {
            let field = { (at: Int) in events[(offset + at)..<(offset + at + 4)].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) } }
            let mask = field(4)
            let length = Int(field(12))
            let name = events[(offset + 16)..<min(events.endIndex, offset + 16 + length)].prefix { $0 != 0 }
            let text = String(decoding: name, as: UTF8.self)
            if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                found.append(Event(kind: .overflow, name: "(overflow)"))
            } else if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
                found.append(Event(kind: .appeared, name: text))
            } else if mask & UInt32(IN_ACCESS) != 0 {
                found.append(Event(kind: .read, name: text))
            } else if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 {
                found.append(Event(kind: .removed, name: text))
            }
            offset += 16 + length
        }
        return found
    }
}
