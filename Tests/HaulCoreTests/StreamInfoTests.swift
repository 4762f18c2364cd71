import Foundation
import HaulCore
import Testing

/// The pure parts of a stream task (DESIGN §9): its file name, its estimated size, how it is shown, and the
/// stream options every way in shares.
struct StreamInfoTests {
    static func info(segments: Int = 480, done: Int = 0, bytes: Int64 = 0, seconds: Double = 0, duration: Double = 960) -> StreamInfo {
        var track = StreamTrackInfo(
            fingerprint: StreamFingerprint(mediaSequence: 0, segmentCount: segments, durations: 1), segmentCount: segments,
            durationSeconds: duration)
        track.segmentsDone = done
        track.appendedBytes = bytes
        track.doneSeconds = seconds
        return StreamInfo(tracks: [track])
    }

    @Test func theNameComesFromOutputElseFromTheLinkWithTheContainersExtension() {
        #expect(StreamFileName.choose(requested: nil, url: "http://127.0.0.1/v/index.m3u8?token=abc", container: "ts") == "index.ts")
        #expect(StreamFileName.choose(requested: nil, url: "http://127.0.0.1/v/master.m3u8", container: "mp4") == "master.mp4")
        #expect(StreamFileName.choose(requested: "film.ts", url: "http://127.0.0.1/v/index.m3u8", container: "mp4") == "film.ts")
        #expect(StreamFileName.choose(requested: nil, url: "http://127.0.0.1/", container: "ts") == "stream.ts")
        #expect(StreamFileName.choose(requested: nil, url: "http://127.0.0.1/playlist", container: "ts") == "playlist.ts")
        // A hostile name stays a plain name in the directory.
        let hostile = StreamFileName.choose(requested: nil, url: "http://127.0.0.1/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd.m3u8", container: "ts")
        #expect(!hostile.contains("/") && hostile.hasSuffix(".ts") && !hostile.hasPrefix("."), "\(hostile)")
    }

    @Test func theTotalIsEstimatedFromTheBytesPerSecondOfMediaSoFar() {
        // 120 of 480 segments, 240 s of 960 s in 300 MiB: about 1.2 GiB in all.
        let info = Self.info(done: 120, bytes: 300 << 20, seconds: 240)
        #expect(info.isEstimate)
        #expect(info.estimatedTotal() == 1200 << 20)
        #expect(info.segmentFigure == "seg 120/480")
    }

    @Test func beforeAnySegmentTheVariantsBandwidthGivesTheEstimate() {
        let info = Self.info()
        #expect(info.estimatedTotal() == nil)
        #expect(info.estimatedTotal(bandwidth: 8_000_000) == 960_000_000)
    }

    @Test func aCompleteStreamsTotalIsExact() {
        let info = Self.info(segments: 3, done: 3, bytes: 12345, seconds: 6, duration: 6)
        #expect(!info.isEstimate && info.estimatedTotal() == 12345)
    }

    @Test func restartingForgetsWhatWasAppended() {
        var info = Self.info(done: 10, bytes: 1000, seconds: 20)
        info.restart()
        #expect(info.segmentsDone == 0 && info.appendedBytes == 0 && info.tracks[0].doneSeconds == 0)
    }

    @Test func anAudioRenditionCountsInTheSegmentsAndTheEstimate() {
        var info = Self.info(segments: 10, done: 5, bytes: 5000, seconds: 10, duration: 20)
        var audio = StreamTrackInfo(
            fingerprint: StreamFingerprint(mediaSequence: 0, segmentCount: 10, durations: 2), segmentCount: 10, durationSeconds: 20,
            rendition: "English")
        #expect(info.estimatedTotal() == 10000)
        info.tracks.append(audio)
        #expect(info.estimatedTotal() == nil, "no estimate for the audio yet, and no bandwidth")
        #expect(info.estimatedTotal(bandwidth: 8000) == 20000)
        audio.segmentsDone = 10
        audio.appendedBytes = 700
        audio.doneSeconds = 20
        info.tracks[1] = audio
        #expect(info.segmentFigure == "seg 15/20" && info.estimatedTotal() == 10700)
        info.markComplete()
        #expect(!info.isEstimate)
    }

    @Test func audioAndRemuxNamesFollowTheVideos() {
        #expect(StreamFileName.audioPart(of: "film.ts") == "film.ts.audio")
        #expect(StreamFileName.audioName(of: "film.ts", container: "ts") == "film.audio.ts")
        #expect(StreamFileName.audioName(of: "film (1).mp4", container: "mp4") == "film (1).audio.m4a")
        #expect(StreamFileName.remuxed("film.ts", container: "mp4") == "film.mp4")
        #expect(StreamFileName.remuxed("film", container: "mp4") == "film.mp4")
    }

    @Test func theSummaryNamesSegmentsLengthVariantAndEncryption() {
        var info = Self.info(duration: 3723)
        info.variant = "1280x720, 2.5 Mbit/s"
        info.encryption = "AES-128"
        info.container = "mp4"
        #expect(StreamSummary.text(info) == "480 segments, 1:02:03, 1280x720, 2.5 Mbit/s, AES-128, fMP4")
        #expect(DurationFormat.clock(59.6) == "1:00" && DurationFormat.clock(0) == "0:00" && DurationFormat.clock(.nan) == "0:00")
        #expect(ByteCountFormat.bitRate(2_500_000) == "2.5 Mbit/s" && ByteCountFormat.bitRate(800_000) == "800 kbit/s")
    }

    @Test func streamOptionsAreCheckedOnceForEveryWayIn() throws {
        let intake = TaskIntake(defaultDirectory: "/tmp")
        var access = AccessRequest()
        access.stream = "off"
        access.streamQuality = "720p"
        access.streamRemux = "MP4"
        let options = try intake.requestOptions(access)
        #expect(options.streamOff == true && options.streamQuality == "720p" && options.streamRemux == "mp4")
        #expect(options.variantChoice == .height(720))
        for (key, value) in [("stream", "maybe"), ("stream-quality", "huge"), ("stream-remux", "mkv")] {
            var bad = AccessRequest()
            switch key {
            case "stream": bad.stream = value
            case "stream-quality": bad.streamQuality = value
            default: bad.streamRemux = value
            }
            #expect(throws: IntakeError.invalidStreamOption(key, value)) { try intake.requestOptions(bad) }
        }
        let file = Data("http://127.0.0.1/a.m3u8\n  stream-quality=worst\nhttp://127.0.0.1/b.m3u8\n  stream=sometimes\n".utf8)
        #expect(throws: InputFileError.self) { try InputFile.parse(file, intake: intake) }
        let good = try InputFile.parse(Data("http://127.0.0.1/a.m3u8\n  stream-quality=worst\n  stream=off\n".utf8), intake: intake)
        #expect(good.tasks.first?.requestOptions.streamQuality == "worst" && good.tasks.first?.requestOptions.streamOff == true)
        #expect(good.warnings.isEmpty)
    }
}
