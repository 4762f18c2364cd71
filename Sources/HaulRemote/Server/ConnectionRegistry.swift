import HaulCore
import NIOCore

/// The open connections of one listener, so that shutdown can close them (WebSocket clients never leave by
/// themselves), and so that the listener never holds more than its limit.
final class ConnectionRegistry: Sendable {
    private let state = PthreadMutex(State())
    /// The most connections tracked at once; a connection over it is closed at once.
    let limit: Int

    private struct State {
        var channels: [ObjectIdentifier: any Channel] = [:]
        var closing = false
    }

    init(limit: Int) {
        self.limit = limit
    }

    /// Tracks `channel` until it closes. Closes it at once, and returns false, when the listener already holds
    /// `limit` connections or the server is shutting down.
    @discardableResult
    func track(_ channel: any Channel) -> Bool {
        let key = ObjectIdentifier(channel)
        let accepted = state.withLock { state -> Bool in
            guard !state.closing, state.channels.count < limit else { return false }
            state.channels[key] = channel
            return true
        }
        guard accepted else {
            channel.close(promise: nil)
            return false
        }
        channel.closeFuture.whenComplete { [self] _ in
            _ = state.withLock { $0.channels.removeValue(forKey: key) }
        }
        return true
    }

    /// How many connections are open now.
    var count: Int { state.withLock { $0.channels.count } }

    /// Refuses new connections and closes every open one; returns when all are closed.
    func closeAll() async {
        let channels = state.withLock { state in
            state.closing = true
            return Array(state.channels.values)
        }
        for channel in channels {
            try? await channel.close()
        }
    }
}
