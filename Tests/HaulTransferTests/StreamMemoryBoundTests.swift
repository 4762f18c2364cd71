import FaultServer
import Foundation
import HaulCore
import HaulTestSupport
@testable import HaulTransfer
import Testing

/// A stream's segments stay within the memory bound whether their length is announced or not.
@Suite(.timeLimit(.minutes(2))) struct StreamMemoryBoundTests {
    /// Segments sent chunked (no length): while the first one's size is unknown nothing else starts, so a server
    /// of huge unannounced segments cannot make every connection grow one to the segment limit.
    @Test func noSecondSegmentStartsWhileTheFirstsLengthIsUnknown() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        var chunked = FaultPlan(body: .bytes([]))
        chunked.chunked = true
        chunked.throttle = 512 << 10
        let bodies = StreamEngineTests.stream(
            server, "u", count: 4, size: 2 << 20, plans: Dictionary(uniqueKeysWithValues: (0..<4).map { ($0, chunked) }))
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/u/index.m3u8"), directory: dir.path, options: StreamEngineTests.options(split: 4)))
        try await eventually("the first segment is under way", timeout: .seconds(20)) {
            server.stats("/u/s0.ts").bodyBytesSent >= 256 << 10
        }
        // A change of connections makes the stream look at once for fetches it may start.
        engine.driver.send(.setTaskConnections(TaskID(1), 4))
        // Half of the first segment is sent (it takes about two seconds more to finish at this pace).
        try await eventually("the first segment goes on", timeout: .seconds(20)) {
            server.stats("/u/s0.ts").bodyBytesSent >= 1 << 20
        }
        #expect((1..<4).allSatisfy { server.stats("/u/s\($0).ts").requests == 0 }, "one segment of unknown size at a time")
        engine.driver.send(.pause(TaskID(1)))
        _ = try await engine.outcome(of: TaskID(1))
        withExtendedLifetime(bodies) {}
    }

    /// A first segment of announced size opens every connection; the later ones come chunked and large. The
    /// earliest goes on and the others stop once the buffers reach the bound, to be asked again when there is room:
    /// the file is still whole and in order.
    @Test func laterUnannouncedSegmentsStopAtTheBoundAndComeAgain() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        // A bound of 8 MiB (64 MiB in use) and segments of 4 MiB: three pass it together at two-thirds of theirs.
        var options = StreamEngineTests.options(split: 4)
        options.streamMemoryBound = 8 << 20
        let sizes = [1 << 20] + Array(repeating: 4 << 20, count: 3)
        var bodies: [[UInt8]] = []
        for (index, size) in sizes.enumerated() {
            var plan = FaultPlan.file(size: Int64(size), seed: UInt64(7000 + index))
            if index > 0 {
                plan.chunked = true
                // Paced, so the three run side by side however busy the machine: none ends before they pass the bound.
                plan.throttle = 2 << 20
            }
            server.route("/big/s\(index).ts", plan)
            bodies.append(plan.body.bytes())
        }
        StreamEngineTests.serve(server, "/big/index.m3u8", text: StreamEngineTests.playlist((0..<sizes.count).map { "s\($0).ts" }))
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/big/index.m3u8"), directory: dir.path, options: options))
        let outcome = try await engine.outcome(of: TaskID(1), timeout: .seconds(100))
        #expect(outcome == .completed(fileName: "index.ts", bytes: Int64(bodies.joined().count)))
        expectSameBytes(contents(dir.path + "/index.ts"), Array(bodies.joined()))
        let requests = (1..<sizes.count).map { server.stats("/big/s\($0).ts").requests }
        #expect(requests.contains { $0 >= 2 }, "a later segment was stopped at the bound and asked again: \(requests)")
    }

    /// What an unknown-length fetch holds counts as at least the largest segment seen: the bound stays whole.
    @Test func anUnknownLengthCountsAsTheLargestSegmentSeen() {
        #expect(StreamTransfer.reservedBytes(received: 10, announced: nil, sizeSeen: 4 << 20) == 4 << 20)
        #expect(StreamTransfer.reservedBytes(received: 5 << 20, announced: nil, sizeSeen: 4 << 20) == 5 << 20)
        #expect(StreamTransfer.reservedBytes(received: 10, announced: 1 << 20, sizeSeen: 4 << 20) == 1 << 20)
        #expect(StreamTransfer.reservedBytes(received: 10, announced: nil, sizeSeen: nil) == 10)
    }
}
