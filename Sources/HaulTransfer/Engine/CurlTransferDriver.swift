import Foundation
import HaulCore

/// The libcurl engine behind HaulCore's `TransferDriver`: a command inbox in, an ordered event stream out.
public final class CurlTransferDriver: TransferDriver {
    public let events: AsyncStream<TransferEvent>
    private let inbox = CommandInbox()

    /// Starts the transfer thread.
    public init() {
        let (events, continuation) = AsyncStream.makeStream(of: TransferEvent.self, bufferingPolicy: .unbounded)
        self.events = events
        let inbox = inbox
        let thread = Thread {
            // The engine state is built on its own thread and never leaves it.
            TransferThread(inbox: inbox, continuation: continuation).run()
        }
        thread.name = "haul.transfer"
        thread.start()
    }

    public func send(_ command: TransferCommand) {
        inbox.post(.command(command))
    }
}
