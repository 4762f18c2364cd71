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
    /// (segments appended, part length, seconds of media, the last one's media sequence) after each append since the
    /// last checkpoint.
    var appendLog: [(segments: Int, bytes: Int64, seconds: Double, sequence: Int64)] = []
    /// A live track's recording (`StreamTransfer+Live`); nil for video on demand.
    var live: LiveTrack?
    /// Segments and seconds of media appended by earlier runs of a live recording, which this run's window does not
    /// count.
    var segmentBase = 0
    var baseSeconds = 0.0
    var writer: FileWriter?
    /// The part file's length: every appended segment, and the seconds of media in them.
    var position: Int64
    var doneSeconds: Double

    init(media: MediaPlaylist, link: String?, info: StreamTrackInfo, span: Int, live: LiveTrack? = nil) {
        self.media = media
        self.link = link
        self.info = info
        self.live = live
        segmentBase = live == nil ? 0 : info.segmentsDone
        baseSeconds = live == nil ? 0 : info.doneSeconds
        window = StreamWindow(count: media.segments.count, appended: live == nil ? info.segmentsDone : 0, span: span)
        position = info.appendedBytes
        doneSeconds = info.doneSeconds
    }

    deinit { writer?.close() }

    /// Its figures with everything appended so far (what a sync covering `position` makes durable).
    var appendedInfo: StreamTrackInfo {
        var info = info
        info.segmentsDone = segmentBase + window.appended
        info.appendedBytes = position
        info.doneSeconds = doneSeconds
        if live != nil {
            info.segmentCount = segmentBase + window.count
            if window.appended > 0 { info.lastSequence = media.segments[window.appended - 1].sequence }
        }
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
        if live != nil {
            info.lastSequence = mark.sequence
            info.segmentCount = segmentBase + window.count
        }
    }

    /// The segments a live playlist lists after the last one known: taken in, the window extended over them.
    func extend(with segments: ArraySlice<MediaSegment>) {
        guard let last = segments.last else { return }
        media.segments.append(contentsOf: segments)
        window.extend(by: segments.count)
        live?.lastSequence = last.sequence
    }
}

/// Where a live track's recording stands on the transfer thread.
struct LiveTrack {
    /// The last segment taken into the track's playlist (its media sequence number).
    var lastSequence: Int64
    /// Nothing more is taken: the playlist ended, the limit is reached, or the stream stopped.
    var ended = false
    /// When the playlist is fetched again, and whether a fetch of it is under way.
    var nextReload: ContinuousClock.Instant
    var reloading = false
    /// When a reload last added a segment, and reloads that failed in a row since one answered.
    var lastGrowth: ContinuousClock.Instant
    var failedReloads = 0
    /// Segments that left the window before they could be fetched: appended as nothing.
    var missing: Set<Int> = []
}
