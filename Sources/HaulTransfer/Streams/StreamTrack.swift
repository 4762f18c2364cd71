import HaulCore

/// One media playlist of a stream on the transfer thread: the variant's, or a separate audio rendition's. Its
/// window of segments, the fetched ones waiting for their turn, its part file and what it appended.
final class StreamTrack {
    /// Its media playlist; its segment links are replaced when it is fetched again for fresh ones.
    var media: MediaPlaylist
    /// Where its media playlist is fetched again for fresh segment links; nil when it is not (a DASH manifest's).
    let link: String?
    /// Times its playlist was fetched again for fresh links; whether a fetch for them is under way; the segments
    /// that asked for them (each asks once).
    var linkGeneration = 0
    var refreshing = false
    var askedForLinks: Set<Int> = []
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

    init(media: MediaPlaylist, link: String?, info: StreamTrackInfo, span: Int) {
        self.media = media
        self.link = link
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
