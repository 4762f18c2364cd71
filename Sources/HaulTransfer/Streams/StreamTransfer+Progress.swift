import HaulCore

/// What a stream reports: live bytes, its map of segments, durable checkpoints, disk checks and its closing work.
extension StreamTransfer {
    /// Bytes received so far: the part file and what is fetched but not appended yet (for speed and ETA).
    var receivedBytes: Int64 { position + Int64(bufferedBytes) }

    /// The segments drawn as done (appended or fetched), in flight, or waiting; nil before the playlist is known.
    var segmentMap: SegmentMap? {
        guard let window else { return nil }
        var spans = [SegmentMap.Span(range: 0..<Int64(window.appended), cell: .done)]
        let end = min(window.count, window.appended + window.span)
        for index in window.appended..<end {
            let cell: SegmentCell = window.held[index] != nil ? .done : window.inFlight.contains(index) ? .inFlight : .waiting
            spans.append(SegmentMap.Span(range: Int64(index)..<Int64(index + 1), cell: cell))
        }
        spans.append(SegmentMap.Span(range: Int64(end)..<Int64(window.count), cell: .waiting))
        return SegmentMap(total: Int64(window.count), spans: spans)
    }

    /// Where the stream stands with everything appended so far (what a sync covering `position` makes durable).
    var appendedInfo: StreamInfo? {
        guard var info, let window else { return nil }
        info.segmentsDone = window.appended
        info.appendedBytes = position
        info.doneSeconds = doneSeconds
        return info
    }

    /// A sync that covered `bytes` finished: the segments appended up to there are durable; record them.
    func synced(bytes: Int64) {
        guard var info, let last = appendLog.lastIndex(where: { $0.bytes <= bytes }) else { return }
        let mark = appendLog[last]
        appendLog.removeFirst(last + 1)
        durable = mark.bytes
        info.segmentsDone = mark.segments
        info.appendedBytes = mark.bytes
        info.doneSeconds = mark.seconds
        self.info = info
        emit(.streamCheckpoint(request.id, info))
    }

    /// Fails when free space ran low or the part file lost its last link.
    func checkDisk() throws(DownloadError) {
        if let error = DiskGuard.freeSpaceError(
            free: directory.freeBytes(), reserve: request.options.diskReserve, needed: nil, directory: request.directory) {
            throw error
        }
        guard let writer else { return }
        if let error = DiskGuard.partFileError(linkCount: writer.linkCount(), path: writer.path) { throw error }
    }
}

extension ClosingWork {
    /// The closing work of a stream: its appended segments synced, and once complete the part file published.
    init(ending: TransferEnding, stream: StreamTransfer) {
        self.init(
            ending: ending, writer: stream.writer?.duplicate(), position: stream.position, durable: stream.durable,
            fileName: stream.fileName, checksum: stream.request.checksum, directory: stream.directory,
            replacing: stream.request.requestOptions.allowOverwrite == true, ledger: nil, marks: [:])
    }
}
