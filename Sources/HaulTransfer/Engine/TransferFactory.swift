import HaulCore

/// Makes the transfer a task's kind calls for (DESIGN §11): the one place in the engine that tells the kinds apart.
/// A task whose kind is not decided yet starts as a file; its first answer may show a playlist, and it goes on as
/// a stream in the same attempt (`TransferNext.becomeStream`).
struct TransferFactory {
    let partsInUse: PartRegistry
    let budget: BandwidthBudget
    let hosts: HostConnections
    let emit: (TransferEvent) -> Void

    /// The transfer for `request` in `attempt`; `playlist`: a stream's playlist that its first answer brought.
    func make(_ request: TransferRequest, attempt: Int, playlist: FetchedPlaylist? = nil) throws(DownloadError) -> any EngineTransfer {
        if request.kind?.isStream == true || playlist != nil {
            return try StreamTransfer(
                request: request, attempt: attempt, partsInUse: partsInUse, budget: budget, hosts: hosts, playlist: playlist, emit: emit)
        }
        return try ActiveTransfer(request: request, attempt: attempt, partsInUse: partsInUse, budget: budget, hosts: hosts, emit: emit)
    }

    /// The bytes a task whose transfer could not be made keeps on record.
    static func keptBytes(of request: TransferRequest) -> Int64 {
        request.kind?.isStream == true ? request.stream?.appendedBytes ?? 0 : request.resumeFrom
    }
}
