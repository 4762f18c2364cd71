import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A fresh directory under `$TMPDIR` (or /tmp) for one test; removed by `remove()` or when released.
///
/// Keep the value alive while its path is in use (`defer { directory.remove() }` does both).
public final class TemporaryDirectory: Sendable {
    /// Absolute path of the directory.
    public let path: String

    /// Creates `PREFIX.XXXXXX` in the temporary directory, mode 0700.
    public init(prefix: String = "haul-test") throws {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(base)/\(prefix).XXXXXX".utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard created != nil else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: "\(base)/\(prefix).XXXXXX"])
        }
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit { remove() }

    /// The directory as a file URL.
    public var url: URL { URL(fileURLWithPath: path, isDirectory: true) }

    /// The path of `name` inside the directory (not created).
    public func file(_ name: String) -> String { path + "/" + name }

    /// Deletes the directory and everything in it. Idempotent.
    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
