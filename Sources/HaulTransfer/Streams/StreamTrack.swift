import HaulCore

/// One media playlist of a stream on the transfer thread: the variant's, or a separate audio rendition's. Its
/// window of segments, the fetched ones waiting for their turn, its part file and what it appended.
final class StreamTrack {
    let media: MediaPlaylist
    var window: StreamWindow
    /// What the task stores of it; `segmentsDone`/`appendedBytes` move at checkpoints.
    var info: StreamTrackInfo
    /// Clear bytes of fetched segments waiting for their turn.
    var held: [Int: [UInt8]] = [:]
    /// Failures so far of each segment, and when a failed one may be asked again.
    var failures: [Int: Int] = [:]
    var retryAt: [Int: ContinuousClock.Instant] = [:]
    /// (segments appended, part length, seconds of media) after each append since the last checkpoint.
    var appendLog: [(segments: Int, bytes: Int64, seconds: Double)] = []
    var writer: FileWriter?
    /// The part file's length: every appended segment, and the seconds of media in them.
    var position: Int64
    var doneSeconds: Double

    init(media: MediaPlaylist, info: StreamTrackInfo, span: Int) {
        self.media = media
        self.info = info
        window = StreamWindow(count: media.segments.count, appended: info.segmentsDone, span: span)
        position = info.appendedBytes
        doneSeconds = info.doneSeconds
    }

    deinit { writer?.close() }

    /// Its figures with everything appended so far (what a sync covering `position` makes durable).
    var appendedInfo: StreamTrackInfo {
        var info = info
        info.segmentsDone = window.appended
        info.appendedBytes = position
        info.doneSeconds = doneSeconds
        return info
    }

    /// A sync that covered `bytes` finished: the segments appended up to there are durable.
    func synced(bytes: Int64) {
        guard let last = appendLog.lastIndex(where: { $0.bytes <= bytes }) else { return }
        let mark = appendLog[last]
        appendLog.removeFirst(last + 1)
        info.segmentsDone = mark.segments
        info.appendedBytes = mark.bytes
        info.doneSeconds = mark.seconds
    }
}
