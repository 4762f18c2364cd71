import Dispatch
import Foundation
import HaulCore

/// SIGINT, SIGTERM and SIGHUP: the first runs the graceful stop (state is saved, exit 130);
/// a second one exits at once (the state is already durable). A daemon (no terminal) reads its settings
/// file again on SIGHUP instead (`reloadOnHangUp`).
final class SignalTrap {
    private var sources: [DispatchSourceSignal] = []
    private let counter = SignalCounter()
    private var hangUp: (@Sendable () async -> Void)?

    /// SIGHUP runs `reload` (each time) instead of stopping; call before `install`.
    func reloadOnHangUp(_ reload: @escaping @Sendable () async -> Void) {
        hangUp = reload
    }

    func install(onFirst: @escaping @Sendable () -> Void) {
        let counter = counter
        if let hangUp {
            signal(SIGHUP, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .global())
            source.setEventHandler { Task { await hangUp() } }
            source.resume()
            sources.append(source)
        }
        for number in hangUp == nil ? [SIGINT, SIGTERM, SIGHUP] : [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                if counter.increment() == 1 { onFirst() } else { ProcessExit.now(130) }
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Whether a stop was requested (read by the terminal's key loop every tick).
    var requested: @Sendable () -> Bool {
        let counter = counter
        return { counter.value > 0 }
    }
}

/// How many stop signals arrived.
final class SignalCounter: Sendable {
    private let count = PthreadMutex(0)

    func increment() -> Int { count.withLock { $0 += 1; return $0 } }

    var value: Int { count.withLock { $0 } }
}
