#if canImport(Glibc)
import Glibc
#endif

/// Thin wrappers over the POSIX socket calls the server makes; each retries `EINTR`.
///
/// Every descriptor is created close-on-exec, so child processes the tests start
/// (curl, haul, nginx) never inherit the listener or a client connection.
enum Socket {
    /// Errors from socket calls, naming the call and carrying `errno`.
    struct Failure: Error, CustomStringConvertible {
        var call: String
        var code: Int32
        var description: String { "\(call) failed: \(String(cString: strerror(code))) (errno \(code))" }
    }

    /// Creates a TCP listener on 127.0.0.1:`port` (0 = ephemeral) and returns it with the bound port.
    static func listenLoopback(port: UInt16, backlog: Int32 = 128) throws -> (fd: Int32, port: UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(call: "socket", code: errno) }
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = loopbackAddress(port: port)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            let code = errno
            close(fd)
            throw Failure(call: "bind 127.0.0.1:\(port)", code: code)
        }
        guard listen(fd, backlog) == 0 else {
            let code = errno
            close(fd)
            throw Failure(call: "listen", code: code)
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else {
            let code = errno
            close(fd)
            throw Failure(call: "getsockname", code: code)
        }
        return (fd, UInt16(bigEndian: actual.sin_port))
    }

    /// `sockaddr_in` for 127.0.0.1:`port`; the only address this module ever uses.
    static func loopbackAddress(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }

    /// Accepts one connection (close-on-exec, `TCP_NODELAY`); nil when the listener is shut down.
    static func accept(_ listener: Int32) -> Int32? {
        while true {
            // accept4 is a GNU extension Swift's Glibc module does not show; set close-on-exec at once instead.
            let fd = Glibc.accept(listener, nil, nil)
            if fd >= 0 {
                setCloseOnExec(fd)
                var one: Int32 = 1
                _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                return fd
            }
            switch errno {
            case EINTR, ECONNABORTED, EPROTO: continue
            default: return nil
            }
        }
    }

    /// Marks `fd` close-on-exec.
    /// Bytes written to `fd` that its peer has not taken yet (its send queue, `TIOCOUTQ`); 0 when it cannot tell.
    static func unsentBytes(_ fd: Int32) -> Int64 {
        var count: Int32 = 0
        return ioctl(fd, UInt(TIOCOUTQ), &count) == 0 ? Int64(count) : 0
    }

    static func setCloseOnExec(_ fd: Int32) {
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }

    /// Sends every byte of `buffer` unless the peer goes away; returns how many bytes the kernel took.
    static func sendAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Int {
        var sent = 0
        while sent < buffer.count {
            let n = send(fd, buffer.baseAddress! + sent, buffer.count - sent, Int32(MSG_NOSIGNAL))
            if n > 0 {
                sent += n
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        return sent
    }

    /// Sends `bytes` in full; false when the connection failed part-way.
    static func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { sendAll(fd, $0) == bytes.count }
    }

    /// Reads what is available into `buffer`; 0 at end of stream, nil on error.
    static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        while true {
            let n = recv(fd, buffer.baseAddress, buffer.count, 0)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            return nil
        }
    }

    /// Waits until one of `fds` is readable or `timeoutMilliseconds` passes (-1 = no limit).
    /// Returns the descriptors that are readable (or hung up); empty on timeout.
    static func waitReadable(_ fds: [Int32], timeoutMilliseconds: Int32) -> [Int32] {
        var entries = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        while true {
            let n = entries.withUnsafeMutableBufferPointer {
                poll($0.baseAddress, nfds_t($0.count), timeoutMilliseconds)
            }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return [] }
            return entries.filter { $0.revents != 0 }.map(\.fd)
        }
    }

    /// Converts a duration to a poll timeout in whole milliseconds, rounding up, clamped to Int32.
    static func milliseconds(_ duration: Duration) -> Int32 {
        if duration <= .zero { return 0 }
        let (seconds, attoseconds) = duration.components
        let millis = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: millis)
    }
}
