import FaultServer
import Foundation
import HaulCore
import HaulTestSupport
@testable import HaulTransfer
import Testing

/// HLS streams through the engine over real HTTP (DESIGN §9): detection, order, retries of one segment, failures
/// naming the segment, resume after the segments appended, a changed playlist, AES-128, pause.
@Suite(.timeLimit(.minutes(1))) struct StreamEngineTests {
    static let hlsType = "application/vnd.apple.mpegurl"

    static func segment(_ index: Int, size: Int = 30_000) -> [UInt8] {
        FaultPlan.file(size: Int64(size), seed: UInt64(7000 + index)).body.bytes()
    }

    /// A VOD media playlist of `uris`, every segment `duration` seconds unless `durations` says otherwise.
    static func playlist(_ uris: [String], durations: [Double]? = nil, header: String = "") -> String {
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:0\n" + header
        for (index, uri) in uris.enumerated() {
            text += "#EXTINF:\(durations?[index] ?? 2.0),\n\(uri)\n"
        }
        return text + "#EXT-X-ENDLIST\n"
    }

    static func serve(_ server: FaultServer, _ path: String, text: String, type: String = hlsType) {
        server.route(path, FaultPlan(body: .bytes(Array(text.utf8)), contentType: type))
    }

    /// `count` clear segments under `/NAME/`, and their playlist at `/NAME/index.m3u8`; the segments' bytes.
    @discardableResult
    static func stream(
        _ server: FaultServer, _ name: String, count: Int, size: Int = 30_000, type: String = hlsType, plans: [Int: FaultPlan] = [:]
    ) -> [[UInt8]] {
        let bodies = (0..<count).map { segment($0, size: size) }
        for (index, body) in bodies.enumerated() {
            var plan = plans[index] ?? FaultPlan(body: .bytes(body))
            plan.body = .bytes(body)
            server.route("/\(name)/s\(index).ts", plan)
        }
        serve(server, "/\(name)/index.m3u8", text: playlist((0..<count).map { "s\($0).ts" }), type: type)
        return bodies
    }

    /// `/master.m3u8`: the video at `/vid/index.m3u8` with a separate audio rendition of these segments
    /// (`/aud/aI.aac`, each 2 s unless `durations` says otherwise).
    static func serveMaster(_ server: FaultServer, audio: [[UInt8]], durations: [Double]? = nil) {
        for (index, body) in audio.enumerated() { server.route("/aud/a\(index).aac", FaultPlan(body: .bytes(body))) }
        serve(server, "/aud/index.m3u8", text: playlist(audio.indices.map { "a\($0).aac" }, durations: durations))
        serve(server, "/master.m3u8", text: """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="English",DEFAULT=YES,URI="aud/index.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=800000,AUDIO="a"
            vid/index.m3u8

            """)
    }

    static func options(split: Int = 4) -> TransferOptions {
        var options = TransferOptions(stallTimeout: 5, diskReserve: 0, checkpointInterval: 0.2, split: split)
        options.segmentRetries = 3
        return options
    }

    static func resolved(_ engine: EngineHarness, _ id: Int64) -> [StreamInfo] {
        engine.events.compactMap { event in
            if case let .streamResolved(eventID, info, _, _) = event, eventID == TaskID(id) { return info }
            return nil
        }
    }

    static func checkpoints(_ engine: EngineHarness, _ id: Int64) -> [StreamInfo] {
        engine.events.compactMap { event in
            if case let .streamCheckpoint(eventID, info) = event, eventID == TaskID(id) { return info }
            return nil
        }
    }

    @Test func aPlaylistLinkBecomesOneFileOfItsSegmentsInOrder() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let bodies = Self.stream(server, "v", count: 12)
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/v/index.m3u8"), directory: dir.path, options: Self.options()))
        let outcome = try await engine.outcome(of: TaskID(1))
        #expect(outcome == .completed(fileName: "index.ts", bytes: Int64(bodies.joined().count)))
        expectSameBytes(contents(dir.path + "/index.ts"), Array(bodies.joined()))
        #expect(listing(dir.path) == ["index.ts"])
        let info = try #require(Self.resolved(engine, 1).first)
        #expect(info.segmentCount == 12 && info.durationSeconds == 24 && info.container == "ts" && info.encryption == nil)
        #expect((0..<12).allSatisfy { server.stats("/v/s\($0).ts").requests == 1 }, "each segment fetched once")
        #expect(Self.checkpoints(engine, 1).last?.segmentsDone == 12)
    }

    @Test func aChecksumIsCheckedOnTheFinishedFile() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let bodies = Self.stream(server, "sum", count: 3)
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        let expected = try TemporaryDirectory()
        try Data(bodies.joined()).write(to: URL(fileURLWithPath: expected.path + "/all"))
        var right = request(1, url: server.url("/sum/index.m3u8"), directory: dir.path, options: Self.options())
        right.checksum = Checksum(algorithm: .sha256, hex: try FileDigest.sha256Hex(path: expected.path + "/all"))
        engine.start(right)
        #expect(try await engine.outcome(of: TaskID(1)) == .completed(fileName: "index.ts", bytes: Int64(bodies.joined().count)))
        let other = try TemporaryDirectory()
        var wrong = request(2, url: server.url("/sum/index.m3u8"), directory: other.path, options: Self.options())
        wrong.checksum = Checksum(algorithm: .sha256, hex: String(repeating: "0", count: 64))
        engine.start(wrong)
        guard let (error, _) = try await engine.failure(of: TaskID(2)) else { return }
        guard case .checksumMismatch = error else {
            Issue.record("\(error)")
            return
        }
        #expect(listing(other.path).isEmpty, "a file that does not match is not kept")
    }

    @Test func aPlaylistServedAsPlainTextIsFoundByItsFirstLine() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let bodies = Self.stream(server, "p", count: 3, type: "text/plain")
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/p/index.m3u8"), directory: dir.path, options: Self.options()))
        #expect(try await engine.outcome(of: TaskID(1)) == .completed(fileName: "index.ts", bytes: Int64(bodies.joined().count)))
        #expect(listing(dir.path) == ["index.ts"], "the part file reserved for the playlist itself is gone")
    }

    @Test func streamOffSavesThePlaylistAsAFile() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        Self.stream(server, "o", count: 2)
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        var off = request(1, url: server.url("/o/index.m3u8"), directory: dir.path, options: Self.options())
        off.requestOptions.streamOff = true
        engine.start(off)
        guard case .completed(fileName: "index.m3u8", _) = try await engine.outcome(of: TaskID(1)) else {
            Issue.record("the playlist was not saved as a file")
            return
        }
        #expect(contents(dir.path + "/index.m3u8").map { String(decoding: $0, as: UTF8.self).hasPrefix("#EXTM3U") } == true)
        #expect(server.stats("/o/s0.ts").requests == 0)
    }

    @Test func aMasterPlaylistResolvesToTheChosenVariant() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let low = Self.stream(server, "low", count: 2)
        Self.stream(server, "high", count: 2)
        Self.serve(server, "/master.m3u8", text: """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360
            low/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=2500000,RESOLUTION=1280x720,CODECS="avc1.64001f"
            high/index.m3u8

            """)
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        var worst = request(1, url: server.url("/master.m3u8"), directory: dir.path, options: Self.options())
        worst.requestOptions.streamQuality = "worst"
        engine.start(worst)
        #expect(try await engine.outcome(of: TaskID(1)) == .completed(fileName: "master.ts", bytes: Int64(low.joined().count)))
        #expect(Self.resolved(engine, 1).first?.variant == "640x360, 800 kbit/s")
        #expect(server.stats("/high/index.m3u8").requests == 0)
        engine.start(request(2, url: server.url("/master.m3u8"), directory: dir.path, options: Self.options()))
        guard case .completed = try await engine.outcome(of: TaskID(2)) else {
            Issue.record("best did not complete")
            return
        }
        #expect(Self.resolved(engine, 2).first?.variant == "1280x720, 2.5 Mbit/s, avc1.64001f")
    }

    @Test func aSeparateAudioRenditionIsFetchedBesideTheVideo() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let video = Self.stream(server, "vid", count: 4)
        let audio = (0..<5).map { Self.segment(100 + $0, size: 5000) }
        Self.serveMaster(server, audio: audio, durations: [2, 2, 2, 1, 1])
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/master.m3u8"), directory: dir.path, options: Self.options()))
        // Generated bytes are no media ffmpeg can mux: with or without ffmpeg, both files are kept side by side.
        #expect(try await engine.outcome(of: TaskID(1))
            == .completed(fileName: "master.ts", bytes: Int64(video.joined().count + audio.joined().count)))
        expectSameBytes(contents(dir.path + "/master.ts"), Array(video.joined()))
        expectSameBytes(contents(dir.path + "/master.audio.ts"), Array(audio.joined()))
        #expect(listing(dir.path) == ["master.audio.ts", "master.ts"])
        let info = try #require(Self.resolved(engine, 1).first)
        #expect(info.tracks.map(\.segmentCount) == [4, 5] && info.tracks[1].rendition == "English")
        #expect(Self.checkpoints(engine, 1).last?.note?.contains("beside the video as master.audio.ts") == true)
    }

    @Test func removingAStreamWithItsFilesDeletesBothPartFiles() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        // Slow enough (3 s a segment) that the removal arrives while the stream runs, even on a loaded machine.
        var slow = FaultPlan(body: .bytes([]))
        slow.throttle = 10_000
        Self.stream(server, "vid", count: 4, plans: Dictionary(uniqueKeysWithValues: (0..<4).map { ($0, slow) }))
        Self.serveMaster(server, audio: (0..<4).map { Self.segment(200 + $0, size: 2000) })
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/master.m3u8"), directory: dir.path, options: Self.options()))
        try await eventually("both part files", timeout: .seconds(10)) {
            listing(dir.path) == ["master.ts.audio.part", "master.ts.part"]
        }
        engine.driver.send(.deletePart(TaskID(1), directory: dir.path, fileName: "master.ts"))
        guard case .paused = try await engine.outcome(of: TaskID(1)) else {
            Issue.record("the transfer did not stop")
            return
        }
        try await eventually("no part file left", timeout: .seconds(5)) { listing(dir.path).isEmpty }
    }

    @Test func largeSegmentsRunOnFewerConnectionsSoMemoryStaysBounded() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        // 36 MiB segments: after the first, at most one more fits in the 64 MiB bound beside the one arriving.
        let size = 36 << 20
        for index in 0..<4 { server.route("/big/s\(index).ts", FaultPlan(body: .generated(size: Int64(size), seed: UInt64(900 + index)))) }
        Self.serve(server, "/big/index.m3u8", text: Self.playlist((0..<4).map { "s\($0).ts" }))
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/big/index.m3u8"), directory: dir.path, options: Self.options(split: 8)))
        #expect(try await engine.outcome(of: TaskID(1), timeout: .seconds(40)) == .completed(fileName: "index.ts", bytes: Int64(4 * size)))
        let counts = engine.events.compactMap { event -> Int? in
            if case let .connections(batch) = event { return batch[TaskID(1)] }
            return nil
        }
        #expect((counts.max() ?? 0) <= 2, "connections over time: \(counts)")
    }

    @Test func byteRangeSegmentsFromAServerThatIgnoresRangesFailAtOnceSayingWhy() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        var whole = FaultPlan.file(size: 60_000, seed: 77)
        whole.acceptRanges = false
        server.route("/br/all.ts", whole)
        Self.serve(server, "/br/index.m3u8", text: """
            #EXTM3U
            #EXT-X-TARGETDURATION:2
            #EXTINF:2,
            #EXT-X-BYTERANGE:30000@0
            all.ts
            #EXTINF:2,
            #EXT-X-BYTERANGE:30000
            all.ts
            #EXT-X-ENDLIST

            """)
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/br/index.m3u8"), directory: dir.path, options: Self.options()))
        guard let (error, _) = try await engine.failure(of: TaskID(1), timeout: .seconds(5)) else { return }
        #expect(error.description.hasPrefix("segment 0 (line 5): 127.0.0.1 answers a byte range with the whole file")
                || error.description.hasPrefix("segment 1 (line 8): 127.0.0.1 answers a byte range with the whole file"), "\(error)")
        #expect(!error.isTransient)
    }

    @Test func aSegmentThatFailsOnceIsFetchedAgainAlone() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        var flaky = FaultPlan(body: .bytes([]))
        flaky.failFirst = 1
        flaky.retryAfter = 0
        let bodies = Self.stream(server, "r", count: 6, plans: [3: flaky])
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/r/index.m3u8"), directory: dir.path, options: Self.options()))
        #expect(try await engine.outcome(of: TaskID(1)) == .completed(fileName: "index.ts", bytes: Int64(bodies.joined().count)))
        expectSameBytes(contents(dir.path + "/index.ts"), Array(bodies.joined()))
        #expect(server.stats("/r/s3.ts").requests == 2)
        #expect([0, 1, 2, 4, 5].allSatisfy { server.stats("/r/s\($0).ts").requests == 1 })
        #expect(server.stats("/r/index.m3u8").requests == 1, "the playlist was not fetched again")
    }

    @Test func aSegmentThatIsGoneFailsTheTaskNamingItAndKeepsWhatWasAppended() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        var gone = FaultPlan(body: .bytes([]))
        gone.status = 404
        let bodies = Self.stream(server, "g", count: 8, plans: [5: gone])
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/g/index.m3u8"), directory: dir.path, options: Self.options(split: 1)))
        guard let (error, durable) = try await engine.failure(of: TaskID(1)) else { return }
        #expect(error.description.hasPrefix("segment 5 (line 16): HTTP 404"), "\(error)")
        #expect(!error.isTransient)
        let kept = Array(bodies[0..<5].joined())
        #expect(durable == Int64(kept.count))
        expectSameBytes(contents(dir.path + "/index.ts.part"), kept)
        #expect(Self.checkpoints(engine, 1).last?.segmentsDone == 5)
    }

    @Test func aResumedStreamFetchesOnlyTheSegmentsNotAppended() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let bodies = Self.stream(server, "k", count: 10)
        let dir = try TemporaryDirectory()
        // What an earlier attempt left: 4 segments appended and recorded, and a fifth written past the record.
        let kept = Array(bodies[0..<4].joined())
        try Data(kept + bodies[4]).write(to: URL(fileURLWithPath: dir.path + "/index.ts.part"))
        guard case let .media(media) = try PlaylistParser.parse(
            Array(Self.playlist((0..<10).map { "s\($0).ts" }).utf8), url: server.url("/k/index.m3u8")) else {
            Issue.record("not a media playlist")
            return
        }
        var track = StreamTrackInfo(media)
        track.segmentsDone = 4
        track.appendedBytes = Int64(kept.count)
        track.doneSeconds = 8
        var resumed = request(1, url: server.url("/k/index.m3u8"), directory: dir.path, fileName: "index.ts", options: Self.options())
        resumed.stream = StreamInfo(tracks: [track])
        resumed.kind = .stream
        let engine = EngineHarness()
        engine.start(resumed)
        #expect(try await engine.outcome(of: TaskID(1)) == .completed(fileName: "index.ts", bytes: Int64(bodies.joined().count)))
        expectSameBytes(contents(dir.path + "/index.ts"), Array(bodies.joined()))
        #expect((0..<4).allSatisfy { server.stats("/k/s\($0).ts").requests == 0 }, "the appended segments were not fetched again")
        #expect((4..<10).allSatisfy { server.stats("/k/s\($0).ts").requests == 1 })
        #expect(engine.responses(of: TaskID(1)).first?.offset == Int64(kept.count))
    }

    @Test func aStreamPublishedByARunThatDiedBeforeRecordingItIsNotFetchedAgain() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let bodies = Self.stream(server, "pub", count: 3)
        let dir = try TemporaryDirectory()
        try Data(bodies.joined()).write(to: URL(fileURLWithPath: dir.path + "/index.ts"))
        guard case let .media(media) = try PlaylistParser.parse(
            Array(Self.playlist((0..<3).map { "s\($0).ts" }).utf8), url: server.url("/pub/index.m3u8")) else {
            Issue.record("not a media playlist")
            return
        }
        var track = StreamTrackInfo(media)
        track.segmentsDone = 3
        track.appendedBytes = Int64(bodies.joined().count)
        var resumed = request(1, url: server.url("/pub/index.m3u8"), directory: dir.path, fileName: "index.ts", options: Self.options())
        resumed.stream = StreamInfo(tracks: [track])
        resumed.kind = .stream
        let engine = EngineHarness()
        engine.start(resumed)
        #expect(try await engine.outcome(of: TaskID(1)) == .completed(fileName: "index.ts", bytes: Int64(bodies.joined().count)))
        #expect(server.stats("/pub/index.m3u8").requests == 0 && listing(dir.path) == ["index.ts"])
    }

    @Test func aPlaylistThatChangedRestartsTheStreamWithTheReason() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let bodies = Self.stream(server, "c", count: 5)
        let dir = try TemporaryDirectory()
        try Data(bodies[0]).write(to: URL(fileURLWithPath: dir.path + "/index.ts.part"))
        // Recorded from a playlist of other durations.
        let other = MediaPlaylist(targetDuration: 4, segments: (0..<5).map { MediaSegment(sequence: Int64($0), duration: 3, uri: "x\($0)") })
        var track = StreamTrackInfo(other)
        track.segmentsDone = 1
        track.appendedBytes = Int64(bodies[0].count)
        var resumed = request(1, url: server.url("/c/index.m3u8"), directory: dir.path, fileName: "index.ts", options: Self.options())
        resumed.stream = StreamInfo(tracks: [track])
        resumed.kind = .stream
        let engine = EngineHarness()
        engine.start(resumed)
        #expect(try await engine.outcome(of: TaskID(1)) == .completed(fileName: "index.ts", bytes: Int64(bodies.joined().count)))
        let response = try #require(engine.responses(of: TaskID(1)).first)
        #expect(response.offset == 0)
        #expect(response.restartReason == "the playlist changed: the playlist's segment durations changed")
        #expect(server.stats("/c/s0.ts").requests == 1)
    }

    @Test func encryptedSegmentsAreDecryptedWithTheKeyAndTheSequenceIV() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let key: [UInt8] = Array(0..<16)
        let clear = (0..<4).map { Self.segment($0, size: 10_000 + $0) }
        for (index, body) in clear.enumerated() {
            // No IV attribute: the media sequence number (100 + index) as a 128-bit big-endian integer.
            let encrypted = SegmentCipher.encrypt(body, key: key, iv: SegmentKey.implicitIV(sequence: Int64(100 + index)))
            server.route("/e/s\(index).ts", FaultPlan(body: .bytes(encrypted)))
        }
        server.route("/e/key.bin", FaultPlan(body: .bytes(key)))
        var text = Self.playlist((0..<4).map { "s\($0).ts" }, header: "#EXT-X-KEY:METHOD=AES-128,URI=\"key.bin\"\n")
        text = text.replacingOccurrences(of: "#EXT-X-MEDIA-SEQUENCE:0", with: "#EXT-X-MEDIA-SEQUENCE:100")
        Self.serve(server, "/e/index.m3u8", text: text)
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/e/index.m3u8"), directory: dir.path, options: Self.options()))
        #expect(try await engine.outcome(of: TaskID(1)) == .completed(fileName: "index.ts", bytes: Int64(clear.joined().count)))
        expectSameBytes(contents(dir.path + "/index.ts"), Array(clear.joined()))
        #expect(server.stats("/e/key.bin").requests == 1, "one key for every segment")
        #expect(Self.resolved(engine, 1).first?.encryption == "AES-128")
    }

    @Test func aKeyThatIsRefusedFailsTheTaskNamingIt() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        var refused = FaultPlan(body: .bytes([]))
        refused.status = 403
        server.route("/f/key.bin", refused)
        Self.stream(server, "f", count: 2)
        Self.serve(server, "/f/index.m3u8", text: Self.playlist(["s0.ts", "s1.ts"], header: "#EXT-X-KEY:METHOD=AES-128,URI=\"key.bin\"\n"))
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/f/index.m3u8"), directory: dir.path, options: Self.options()))
        guard let (error, durable) = try await engine.failure(of: TaskID(1)) else { return }
        #expect(error.description.hasPrefix("key for segment 0: HTTP 403"), "\(error)")
        #expect(durable == 0 && server.stats("/f/s0.ts").requests == 0)
    }

    @Test func aKeyLargerThanAKeyMayBeFailsTheTaskSayingTheLimit() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        server.route("/g/key.bin", FaultPlan(body: .bytes([UInt8](repeating: 7, count: 2000))))
        var chunked = FaultPlan(body: .bytes([UInt8](repeating: 7, count: 2000)))
        chunked.chunked = true
        server.route("/h/key.bin", chunked)
        for name in ["g", "h"] {
            Self.stream(server, name, count: 1)
            Self.serve(server, "/\(name)/index.m3u8", text: Self.playlist(["s0.ts"], header: "#EXT-X-KEY:METHOD=AES-128,URI=\"key.bin\"\n"))
        }
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/g/index.m3u8"), directory: dir.path, options: Self.options()))
        engine.start(request(2, url: server.url("/h/index.m3u8"), directory: dir.path, options: Self.options()))
        guard let (announced, _) = try await engine.failure(of: TaskID(1)), let (sent, _) = try await engine.failure(of: TaskID(2)) else { return }
        #expect(announced.description.hasSuffix("2000 bytes is more than a stream part may have (1.0 KiB)"), "\(announced)")
        #expect(sent.description.hasSuffix("more than 1.0 KiB for one stream part"), "\(sent)")
    }

    @Test func segmentsThatDoNotDecryptFailTheTask() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        server.route("/d/key.bin", FaultPlan(body: .bytes(Array(0..<16))))
        Self.stream(server, "d", count: 2)
        Self.serve(server, "/d/index.m3u8", text: Self.playlist(["s0.ts", "s1.ts"], header: "#EXT-X-KEY:METHOD=AES-128,URI=\"key.bin\"\n"))
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/d/index.m3u8"), directory: dir.path, options: Self.options(split: 1)))
        guard let (error, _) = try await engine.failure(of: TaskID(1)) else { return }
        #expect(error.description.hasPrefix("segment 0: does not decrypt"), "\(error)")
    }

    @Test func aBadPlaylistFailsNamingTheLineAndWritesNothing() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        Self.serve(server, "/bad.m3u8", text: "#EXTM3U\n#EXTINF:-3,\ns0.ts\n#EXT-X-ENDLIST\n")
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/bad.m3u8"), directory: dir.path, options: Self.options()))
        guard let (bad, _) = try await engine.failure(of: TaskID(1)) else { return }
        #expect(bad.description.hasPrefix("playlist line 2: segment duration '-3'"), "\(bad)")
        #expect(listing(dir.path).isEmpty)
    }

    @Test func aWebPageServedAsASegmentIsNeverAppended() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        Self.stream(server, "w", count: 3)
        server.route("/w/s1.ts", FaultPlan(body: .bytes(Array("<!DOCTYPE html><html><body>Sign in</body></html>".utf8)), contentType: "text/html"))
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/w/index.m3u8"), directory: dir.path, options: Self.options(split: 1)))
        guard let (error, durable) = try await engine.failure(of: TaskID(1)) else { return }
        #expect(error.description.contains("segment 1 (line 8)") && error.description.contains("web page"), "\(error)")
        #expect(durable == Int64(Self.segment(0).count))
    }

    @Test func pausingKeepsTheAppendedSegmentsRecorded() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        var plans: [Int: FaultPlan] = [:]
        for index in 0..<20 {
            var slow = FaultPlan(body: .bytes([]))
            slow.throttle = 200_000
            plans[index] = slow
        }
        let bodies = Self.stream(server, "z", count: 20, plans: plans)
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/z/index.m3u8"), directory: dir.path, options: Self.options(split: 2)))
        _ = try await eventuallyValue("two segments recorded", timeout: .seconds(20)) {
            Self.checkpoints(engine, 1).last.flatMap { $0.segmentsDone >= 2 ? $0 : nil }
        }
        engine.driver.send(.pause(TaskID(1)))
        guard case let .paused(durable) = try await engine.outcome(of: TaskID(1)) else {
            Issue.record("not paused")
            return
        }
        let last = try #require(Self.checkpoints(engine, 1).last)
        #expect(last.appendedBytes == durable, "the closing checkpoint records what the closing sync covered")
        expectSameBytes(contents(dir.path + "/index.ts.part"), Array(bodies[0..<last.segmentsDone].joined()))
    }
}
