import HaulCore

/// The closing work of each kind of transfer, as it stands on the transfer thread when it ends: its part files on
/// descriptors of their own (the transfer's are released on the transfer thread), what each holds, and what is
/// durable. The only place the closing tells the kinds apart.
extension ClosingWork {
    /// A file: its part file, published under the task's name once it holds the whole file.
    init(ending: TransferEnding, transfer: ActiveTransfer) {
        let part = transfer.writer.flatMap { writer in
            transfer.fileName.map {
                ClosingPart(writer: writer.duplicate(), name: PartialFilePath.partName(for: $0), bytes: transfer.total ?? transfer.position)
            }
        }
        self.init(
            ending: ending, parts: part.map { [$0] } ?? [], fileName: transfer.fileName, assembly: nil, request: transfer.request,
            directory: transfer.directory,
            account: ClosingAccount(
                held: transfer.position, durable: transfer.durable, ledger: transfer.ledger, marks: transfer.receivedMarks()))
    }

    /// A stream: the video's part file and its separate audio rendition's, muxed or remuxed when it asks for it.
    init(ending: TransferEnding, stream: StreamTransfer) {
        let name = stream.fileName
        var parts: [ClosingPart] = []
        if let name {
            for (index, track) in stream.tracks.enumerated() {
                guard let writer = track.writer else { continue }
                let audio = index > 0
                parts.append(ClosingPart(
                    writer: writer.duplicate(), name: PartialFilePath.partName(for: audio ? StreamFileName.audioPart(of: name) : name),
                    bytes: track.position, audioContainer: audio ? (track.media.isFragmentedMP4 ? "mp4" : "ts") : nil))
            }
        }
        let assembly = name.flatMap { name in
            stream.output.flatMap { StreamAssembly(fileName: name, output: $0, muxesAudio: parts.count > 1) }
        }
        self.init(
            ending: ending, parts: parts, fileName: name, assembly: assembly, request: stream.request, directory: stream.directory,
            account: ClosingAccount(held: stream.heldBytes, durable: stream.durableBytes, stream: stream.appendedInfo))
        if ending == .complete { sidecars = stream.subtitleFiles }
    }

    private init(
        ending: TransferEnding, parts: [ClosingPart], fileName: String?, assembly: StreamAssembly?, request: TransferRequest,
        directory: DownloadDirectory, account: ClosingAccount
    ) {
        self.init(
            policy: ClosingPolicy(ending: ending, partSizes: parts.map(\.bytes), assembles: assembly != nil, checksum: request.checksum),
            parts: parts, fileName: fileName, assembly: assembly, account: account, directory: directory,
            // With --allow-overwrite. A partial file -c continued was moved, not copied: nothing of it is left at the name.
            replacing: request.requestOptions.allowOverwrite == true, tag: PartOwnerTag(request))
    }
}
