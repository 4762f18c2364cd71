import Foundation
import Glibc

/// The secret of the TCP listener: read from a file the user names, or created once (random, 0600) in
/// the state directory.
public enum RPCSecretFile {
    public enum Failure: Error, CustomStringConvertible {
        case unreadable(path: String, reason: String)
        case empty(path: String)
        case tooOpen(path: String)

        public var description: String {
            switch self {
            case let .unreadable(path, reason): "cannot read the RPC secret from \(path): \(reason)"
            case let .empty(path): "the RPC secret file \(path) is empty"
            case let .tooOpen(path): "the RPC secret file \(path) can be read by other users; chmod 600 it"
            }
        }
    }

    /// The first line of `path`, which must not be readable by group or others.
    public static func read(_ path: String) throws(Failure) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0, info.st_mode & 0o077 != 0 { throw .tooOpen(path: path) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 64 << 10 {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[..<count]
        }
        let line = String(decoding: bytes.prefix { $0 != 0x0A && $0 != 0x0D }, as: UTF8.self)
        let secret = line.trimmingCharacters(in: .whitespaces)
        guard !secret.isEmpty else { throw .empty(path: path) }
        return secret
    }

    /// The secret in `path`, created with 32 random bytes (hex) when the file does not exist.
    /// Returns the secret and whether it was created now.
    public static func readOrCreate(_ path: String) throws(Failure) -> (secret: String, created: Bool) {
        var generator = SystemRandomNumberGenerator()
        let secret = (0..<32).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return (byte < 16 ? "0" : "") + String(byte, radix: 16)
        }.joined()
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            guard errno == EEXIST else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
            return (try read(path), false)
        }
        defer { close(fd) }
        let line = Array((secret + "\n").utf8)
        let written = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == line.count, fsync(fd) == 0 else {
            unlink(path)
            throw .unreadable(path: path, reason: "could not write it")
        }
        return (secret, true)
    }
}
