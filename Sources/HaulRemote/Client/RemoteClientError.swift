/// Why a call to the owner over its control socket failed.
public enum RemoteClientError: Error, Equatable, CustomStringConvertible {
    /// Nothing listens at the socket path: no file there, or a stale socket left by an owner that is gone.
    case noOwner(path: String)
    /// The owner did not answer within the timeout.
    case timedOut(path: String, after: Duration)
    /// The owner answered something that is not one complete HTTP response.
    case badResponse(path: String, reason: String)
    /// Connecting failed for another reason (permissions, a path that is not a socket, too long a path).
    case cannotConnect(path: String, reason: String)

    public var description: String {
        switch self {
        case .noOwner(let path):
            "no haul is running on \(path)"
        case .timedOut(let path, let after):
            "the haul on \(path) did not answer within \(after)"
        case .badResponse(let path, let reason):
            "the haul on \(path) sent a bad answer: \(reason)"
        case .cannotConnect(let path, let reason):
            "cannot connect to the haul on \(path): \(reason)"
        }
    }
}
