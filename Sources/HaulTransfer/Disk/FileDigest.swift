import CDigest
import Glibc
import HaulCore

/// SHA-256 of a file, through OpenSSL's EVP digest (assembly speed even in debug builds).
enum FileDigest {
    /// Bytes read at a time.
    static let chunkSize = 1 << 18

    /// The digest of the file at `path` (never through a symlink) as 64 lower-case hex digits.
    static func sha256Hex(path: String) throws(DownloadError) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw FileWriter.error(call: "open", path: path, errno: errno) }
        defer { close(fd) }
        guard let context = CDigest_sha256_new() else { throw FileWriter.error(call: "digest", path: path, errno: ENOMEM) }
        defer { CDigest_free(context) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(fd, buffer.baseAddress, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw FileWriter.error(call: "read", path: path, errno: errno) }
            if count == 0 { break }
            guard CDigest_update(context, buffer.baseAddress, count) == 1 else {
                throw FileWriter.error(call: "digest", path: path, errno: EIO)
            }
        }
        var digest = [UInt8](repeating: 0, count: 32)
        guard CDigest_final(context, &digest) == 1 else { throw FileWriter.error(call: "digest", path: path, errno: EIO) }
        return digest.map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined()
    }
}
