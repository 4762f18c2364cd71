import HaulCore

/// What a stream reports: live bytes, its map of segments, durable checkpoints and disk checks.
extension StreamTransfer {
    /// Bytes received so far: the part files and what is fetched but not appended yet (for speed and ETA).
    var receivedBytes: Int64 { position + Int64(bufferedBytes) }

    /// Every track's segments in turn, drawn as done (appended or fetched), in flight, or waiting; nil before
    /// the playlists are known.
    var segmentMap: SegmentMap? {
        guard !tracks.isEmpty else { return nil }
        var spans: [SegmentMap.Span] = []
        var base: Int64 = 0
        for track in tracks {
            let window = track.window
            spans.append(SegmentMap.Span(range: base..<base + Int64(window.appended), cell: .done))
            let end = min(window.count, window.appended + window.span)
            for index in window.appended..<end {
                let cell: SegmentCell = window.held[index] != nil ? .done : window.inFlight.contains(index) ? .inFlight : .waiting
                spans.append(SegmentMap.Span(range: base + Int64(index)..<base + Int64(index + 1), cell: cell))
            }
            spans.append(SegmentMap.Span(range: base + Int64(end)..<base + Int64(window.count), cell: .waiting))
            base += Int64(window.count)
        }
        return SegmentMap(total: base, spans: spans)
    }

    /// Where the stream stands with everything appended so far (what a sync covering every part file makes durable).
    var appendedInfo: StreamInfo? {
        guard var info else { return nil }
        info.tracks = tracks.map(\.appendedInfo)
        return info
    }

    /// What the part files hold for the closing to record: before the playlists are known again (a resume whose
    /// playlist link failed), what the task had on record, which its part files still hold.
    var heldBytes: Int64 { tracks.isEmpty ? durableBytes : positions.reduce(0, +) }

    /// What is durable: the last checkpoint, else what the task had on record when it started.
    var durableBytes: Int64 { info?.appendedBytes ?? request.stream?.appendedBytes ?? 0 }

    /// The part files' lengths now, for a sync to cover.
    var positions: [Int64] { tracks.map(\.position) }

    /// A sync that covered `positions` finished: the segments appended up to there are durable; record them,
    /// and the cookies servers set (DESIGN §8).
    func synced(positions: [Int64]) {
        if let changed = cookies.checkpoint() { emit(.cookies(request.id, changed)) }
        guard var info, positions.count == tracks.count else { return }
        for (track, bytes) in zip(tracks, positions) { track.synced(bytes: bytes) }
        info.tracks = tracks.map(\.info)
        guard info != self.info else { return }
        self.info = info
        emit(.streamCheckpoint(request.id, info))
    }

    /// Fails when free space ran low or a part file lost its last link.
    func checkDisk() throws(DownloadError) {
        try directory.checkDisk(for: request, parts: tracks.compactMap(\.writer))
    }
}
