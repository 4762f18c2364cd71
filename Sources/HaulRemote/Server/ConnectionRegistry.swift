import HaulCore
import NIOCore

/// The open connections of one server, so that shutdown can close them (WebSocket clients never leave by themselves).
final class ConnectionRegistry: Sendable {
    private let state = PthreadMutex(State())

    private struct State {
        var channels: [ObjectIdentifier: any Channel] = [:]
        var closing = false
    }

    /// Tracks `channel` until it closes; closes it at once when the server is already shutting down.
    func track(_ channel: any Channel) {
        let key = ObjectIdentifier(channel)
        let accepted = state.withLock { state -> Bool in
            guard !state.closing else { return false }
            state.channels[key] = channel
            return true
        }
        guard accepted else {
            channel.close(promise: nil)
            return
        }
        channel.closeFuture.whenComplete { [self] _ in
            _ = state.withLock { $0.channels.removeValue(forKey: key) }
        }
    }

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
