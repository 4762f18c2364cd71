/// Why an `RPCServer` could not start.
public enum RPCServerError: Error, Equatable, CustomStringConvertible {
    /// Binding the Unix socket failed (the path is too long, is not a socket, or its directory is missing).
    case cannotListenOnSocket(path: String, reason: String)
    /// Binding the TCP listener failed (the port is taken, the host is not local).
    case cannotListenOnTCP(host: String, port: Int, reason: String)
    /// Setting the socket's mode to 0600 failed; the server did not start.
    case cannotProtectSocket(path: String, reason: String)
    /// `start()` was called twice.
    case alreadyStarted

    public var description: String {
        switch self {
        case .cannotListenOnSocket(let path, let reason):
            "cannot listen on the control socket \(path): \(reason)"
        case .cannotListenOnTCP(let host, let port, let reason):
            "cannot listen on \(host):\(port) for RPC: \(reason); choose another port with --rpc-listen"
        case .cannotProtectSocket(let path, let reason):
            "cannot make the control socket \(path) private (mode 0600): \(reason)"
        case .alreadyStarted:
            "the RPC server is already running"
        }
    }
}
