import HaulCore
import Testing

/// How a live playlist is recorded (DESIGN §11, RFC 8216 §6.3): the join, what a reload adds and misses, the reload
/// delays, the limit; and `--live-limit`'s durations.
struct LiveRecordingTests {
    /// A live window of `count` segments of `seconds` each, the first numbered `first`.
    static func window(first: Int64, count: Int, seconds: Double = 2, ended: Bool = false) throws -> MediaPlaylist {
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:\(Int(seconds.rounded(.up)))\n#EXT-X-MEDIA-SEQUENCE:\(first)\n"
        for index in 0..<count { text += "#EXTINF:\(seconds),\nseg\(first + Int64(index)).ts\n" }
        if ended { text += "#EXT-X-ENDLIST\n" }
        return try PlaylistParserTests.media(text)
    }

    @Test func aPlaylistWithoutAnEndListIsLiveAndOneWithItIsNot() throws {
        #expect(try Self.window(first: 0, count: 4).isLive)
        #expect(try !Self.window(first: 0, count: 4, ended: true).isLive)
    }

    @Test func aNewRecordingJoinsThreeSegmentsFromTheLiveEdge() throws {
        let media = try Self.window(first: 100, count: 6)
        #expect(LiveRecording.join(media, after: nil) == (3, 0))
        // A window shorter than three: from its first.
        #expect(LiveRecording.join(try Self.window(first: 0, count: 2), after: nil) == (0, 0))
    }

    @Test func aResumedRecordingGoesOnAfterItsLastSegmentOrCountsTheGap() throws {
        let media = try Self.window(first: 100, count: 6)
        // Still listed: right after it, nothing missed.
        #expect(LiveRecording.join(media, after: 101) == (2, 0))
        // The last one listed: nothing to take until the next reload.
        #expect(LiveRecording.join(media, after: 105) == (6, 0))
        // Gone from the window: from its first, 100 - 91 = 9 missed (91 … 99).
        #expect(LiveRecording.join(media, after: 90) == (0, 9))
        // Hostile numbers never trap.
        #expect(LiveRecording.join(media, after: .max) == (6, 0))
        #expect(LiveRecording.join(try Self.window(first: 9_000_000_000_000_000_000, count: 3), after: 0).missed > 0)
    }

    @Test func aReloadAddsWhatFollowsAndCountsWhatLeftUnseen() throws {
        let fresh = try Self.window(first: 10, count: 4)
        let after11 = LiveRecording.added(fresh, after: 11)
        #expect(after11.segments.map(\.sequence) == [12, 13] && after11.missed == 0)
        let after5 = LiveRecording.added(fresh, after: 5)
        #expect(after5.segments.map(\.sequence) == [10, 11, 12, 13] && after5.missed == 4)
        // An older copy (a cache) adds nothing.
        let stale = LiveRecording.added(try Self.window(first: 2, count: 4), after: 11)
        #expect(stale.segments.isEmpty && stale.missed == 0)
        #expect(LiveRecording.added(fresh, after: .max).segments.isEmpty)
    }

    @Test func reloadsWaitTheTargetDurationOrHalfOfItWhenNothingChanged() {
        #expect(LiveRecording.reloadDelay(targetDuration: 6, changed: true) == 6)
        #expect(LiveRecording.reloadDelay(targetDuration: 6, changed: false) == 3)
        #expect(LiveRecording.reloadDelay(targetDuration: 0, changed: false) == 0.5)
        #expect(LiveRecording.reloadDelay(targetDuration: .max, changed: true) == 3600)
        #expect(LiveRecording.stallSeconds(targetDuration: 2) == 10 && LiveRecording.stallSeconds(targetDuration: 6) == 18)
    }

    @Test func theLimitTakesEverySegmentThatStartsBeforeIt() throws {
        let segments = try Self.window(first: 0, count: 10).segments[...]
        #expect(LiveRecording.within(limit: nil, recorded: 0, segments) == 10)
        #expect(LiveRecording.within(limit: 6, recorded: 0, segments) == 3)
        #expect(LiveRecording.within(limit: 5, recorded: 0, segments) == 3)
        #expect(LiveRecording.within(limit: 6, recorded: 6, segments) == 0)
    }

    @Test(arguments: [
        ("90", 90.0), ("90s", 90), ("12m", 720), ("2h", 7200), ("1h30m", 5400), ("1h30", 5400), ("2m30", 150), ("1:30:00", 5400),
        ("90:00", 5400), ("0.5s", 0.5), (" 12S ", 12),
    ])
    func durationsAsPeopleWriteThem(text: String, seconds: Double) {
        #expect(MediaDuration.seconds(text) == seconds)
    }

    @Test(arguments: ["", "0", "0s", "-5s", "12x", "s", "m12", "30m2h", "1:75", "1:2:3:4", "nan", "inf", "9999999h", "12ss", "1e9"])
    func nonDurationsAreRefused(text: String) {
        #expect(MediaDuration.seconds(text) == nil, "\(text)")
    }

    @Test func theLiveLimitIsAStreamOptionCheckedByEveryWayIn() throws {
        var access = AccessRequest()
        access.liveLimit = "90m"
        var options = RequestOptions()
        try TaskIntake.applyStreamOptions(access, to: &options)
        #expect(options.liveLimit == 5400)
        access.liveLimit = "soon"
        #expect(throws: IntakeError.invalidStreamOption("live-limit", "soon")) { try TaskIntake.applyStreamOptions(access, to: &options) }
        #expect(IntakeError.invalidStreamOption("live-limit", "soon").description.contains("90s, 12m, 2h"))
        var request = TaskRequest(url: "http://127.0.0.1/live.m3u8")
        try request.set(.liveLimit, .string("2h"))
        #expect(request.access.liveLimit == "2h")
        #expect(throws: (any Error).self) { try request.set(.liveLimit, .string("-1")) }
    }

    @Test func aLiveRecordShowsWhatItRecordedAndItsGaps() {
        var info = StreamInfo(tracks: [StreamTrackInfo(fingerprint: StreamFingerprint(try! Self.window(first: 0, count: 3)), segmentCount: 3, durationSeconds: 6)])
        info.live = LiveRecord()
        info.tracks[0].segmentsDone = 3
        info.tracks[0].doneSeconds = 754
        #expect(info.isRecording && info.estimatedTotal(bandwidth: 1_000_000) == nil)
        #expect(info.segmentFigure == "● REC 12:34")
        info.live?.gaps = [LiveGap(segments: 2, atSeconds: 10), LiveGap(segments: 3, atSeconds: 20)]
        #expect(StreamSummary.text(info).contains("2 gaps (5 segments missed)"))
        info.markComplete()
        #expect(!info.isRecording && info.segmentCount == 3 && info.durationSeconds == 754 && info.live?.ended != nil)
        #expect(info.segmentFigure.hasPrefix("recorded 12:34"))
    }

    @Test func gapsOnRecordAreBounded() {
        var record = LiveRecord()
        for index in 0..<(LiveRecord.maxGaps + 500) { record.note(LiveGap(segments: 2, atSeconds: Double(index))) }
        #expect(record.gaps.count == LiveRecord.maxGaps)
        #expect(record.missedSegments == Int64(2 * (LiveRecord.maxGaps + 500)), "none is lost from the count")
        record.note(LiveGap(segments: .max, atSeconds: 0))
        #expect(record.missedSegments != 0, "an absurd count never traps")
    }
}
