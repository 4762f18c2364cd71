import Glibc

/// Free space for unprivileged writers on the filesystem holding a path (`statvfs`: f_bavail × f_frsize).
enum FreeDiskSpace {
    /// Bytes available at `path`, nil when it cannot be measured (missing directory, permission).
    static func bytes(at path: String) -> Int64? {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        let bytes = UInt64(info.f_bavail).multipliedReportingOverflow(by: UInt64(info.f_frsize))
        return bytes.overflow ? Int64.max : Int64(clamping: bytes.partialValue)
    }
}
