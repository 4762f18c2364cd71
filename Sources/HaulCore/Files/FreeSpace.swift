#if canImport(Glibc)
import Glibc
#endif

/// Free space for unprivileged writers on a filesystem (`statvfs`: f_bavail × f_frsize), the one
/// reading the live list's header and the transfer's disk-reserve check share.
public enum FreeSpace {
    /// Bytes available on the filesystem holding `path`; nil when it cannot be measured (missing
    /// directory, permission).
    public static func bytes(at path: String) -> Int64? {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        return bytes(availableBlocks: UInt64(info.f_bavail), blockSize: UInt64(info.f_frsize))
    }

    /// Bytes available on the filesystem holding the open file or directory `descriptor`; nil when
    /// it cannot be measured.
    public static func bytes(onFileSystemOf descriptor: Int32) -> Int64? {
        var info = statvfs()
        guard fstatvfs(descriptor, &info) == 0 else { return nil }
        return bytes(availableBlocks: UInt64(info.f_bavail), blockSize: UInt64(info.f_frsize))
    }

    /// What a download can put on a filesystem: free bytes, and whether it is mounted read-only.
    public struct Room: Sendable, Equatable {
        public var freeBytes: Int64
        /// `statvfs`'s ST_RDONLY: nothing can be written, whatever is free.
        public var readOnly: Bool

        public init(freeBytes: Int64, readOnly: Bool) {
            self.freeBytes = freeBytes
            self.readOnly = readOnly
        }
    }

    /// The room on the filesystem holding the open file or directory `descriptor`; nil when it cannot be measured.
    public static func room(onFileSystemOf descriptor: Int32) -> Room? {
        var info = statvfs()
        guard fstatvfs(descriptor, &info) == 0 else { return nil }
        return Room(
            freeBytes: bytes(availableBlocks: UInt64(info.f_bavail), blockSize: UInt64(info.f_frsize)),
            readOnly: info.f_flag & UInt(ST_RDONLY) != 0)
    }

    /// `blocks × blockSize`, or `Int64.max` when the product does not fit (a filesystem that reports
    /// absurd figures must not crash the reader or wrap to a negative free space).
    public static func bytes(availableBlocks blocks: UInt64, blockSize: UInt64) -> Int64 {
        let product = blocks.multipliedReportingOverflow(by: blockSize)
        return product.overflow ? Int64.max : Int64(clamping: product.partialValue)
    }
}
