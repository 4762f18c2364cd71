import HaulCore

/// Where a task's transfer stands.
enum TransferPhase: Equatable {
    /// No accepted response head yet.
    case awaitingResponse
    /// Body bytes go into the part file.
    case receiving
    /// A 416 at the file's end: the part file already holds every byte.
    case alreadyComplete
    /// The final file is in place from a run that died before recording it: nothing to fetch.
    case publishedEarlier
    /// The task must end for this reason.
    case failed(DownloadError)
}

/// How a task's transfer ended, for the closing work.
enum TransferEnding: Sendable, Equatable {
    case paused
    case failed(DownloadError)
    case complete
    /// A range answer says the file changed: empty the part file and start over.
    case fileChanged(String)
    /// The final file is in place from a run that died before recording it: nothing was fetched.
    case publishedEarlier
}

/// What the engine does after a connection of a transfer ended or changed.
enum TransferNext: Equatable {
    /// Other connections go on (new ones may wait to be added).
    case keepGoing
    case conclude(TransferEnding)
    /// The answer was an HLS playlist: the task goes on as a stream.
    case becomeStream(FetchedPlaylist)
}

/// How libcurl let go of one connection, in the engine's terms.
enum ConnectionExit: Equatable {
    /// The engine took it off the network (pause, shed, replaced).
    case stopped
    /// libcurl finished the transfer without an error.
    case completed
    /// libcurl ended it with this error.
    case failed(DownloadError)
}
