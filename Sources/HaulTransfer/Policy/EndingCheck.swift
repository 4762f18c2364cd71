import HaulCore

/// Decides how an attempt goes on once a connection ended: from the task's phase, what the connection
/// saw, and how libcurl let go of it. Pure: tested without a network.
enum EndingCheck {
    /// What one range connection of a segmented download leaves behind.
    enum RangeVerdict: Equatable {
        /// The whole attempt ends.
        case conclude(TransferEnding)
        /// It fetched what it was meant to (or was stopped on purpose): its range is done or goes back.
        case finishedRange
        /// It failed; the download may go on over the others.
        case failedRange(DownloadError)
    }

    /// How a single stream (the task's only connection) ended.
    static func singleStream(
        phase: TransferPhase, state: Connection.State, exit: ConnectionExit, position: Int64, total: Int64?,
        host: String
    ) -> TransferEnding {
        if case let .failed(error) = phase { return .failed(error) }
        if case let .failed(error) = state { return .failed(error) }
        switch exit {
        case .stopped:
            return .paused
        case let .failed(error):
            return .failed(error)
        case .completed:
            switch phase {
            case .alreadyComplete, .publishedEarlier:
                return .complete
            case .awaitingResponse, .failed:
                return .failed(.invalidResponse(host: host, detail: "the connection ended without a response"))
            case .receiving:
                if let total, position != total { return .failed(.sizeMismatch(expected: total, actual: position)) }
                return .complete
            }
        }
    }

    /// How one connection of a segmented download ended.
    static func range(phase: TransferPhase, state: Connection.State, exit: ConnectionExit, host: String) -> RangeVerdict {
        if case let .failed(error) = phase { return .conclude(.failed(error)) }
        switch state {
        case let .fileChanged(reason):
            return .conclude(.fileChanged(reason))
        case .rangesIgnored:
            return .conclude(.failed(.rangesIgnored(host: host)))
        case .reachedEnd:
            return .finishedRange
        case .receiving where exit == .completed:
            return .finishedRange
        case let .failed(error):
            return .failedRange(error)
        case .awaitingResponse, .receiving:
            if case let .failed(error) = exit { return .failedRange(error) }
            return .failedRange(.invalidResponse(host: host, detail: "the connection ended without a response"))
        }
    }
}
