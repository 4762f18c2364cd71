@testable import FaultServer
import Foundation
import HaulTestSupport
import Testing

/// Per-connection caps (`conncap`, `conncaps`): a token bucket per TCP connection that outlives each request.
@Suite struct ConnectionCapTests {
    let server: FaultServer
    let directory: TemporaryDirectory

    init() throws {
        server = try FaultServer(lifetime: .seconds(60))
        directory = try TemporaryDirectory(prefix: "haul-conncap")
    }

    /// Runs one curl process (one connection cache) with `arguments`; returns each transfer's
    /// `time_total` in seconds, in order, and the whole run's wall time (for lower bounds only).
    func curl(_ arguments: [String]) async throws -> (times: [Double], wall: Double) {
        let started = ContinuousClock.now
        let process = try HaulProcess(
            URL(fileURLWithPath: Curl.path), arguments: ["-s", "--noproxy", "*", "--max-time", "8"] + arguments)
        let code = try await process.waitForExit(timeout: .seconds(10))
        let wall = started.duration(to: .now)
        #expect(code == 0, "curl \(arguments): \(process.stderrText())")
        let times = process.stdoutLines().compactMap(Double.init)
        return (times, Double(wall.components.seconds) + Double(wall.components.attoseconds) * 1e-18)
    }

    /// Arguments for one ranged GET of `url` written to a file, printing its `time_total` on a line.
    func rangedGet(_ url: String, _ range: String, name: String) -> [String] {
        ["-r", range, "-o", directory.file(name), "-w", "%{time_total}\\n", url]
    }

    @Test func aRequestPairOnOneConnectionSharesOneBucket() async throws {
        defer { server.stop() }
        // 64 KiB/s with a 64 KiB burst: the first 64 KiB go at once, the second 64 KiB must wait a second.
        // A fresh allowance per request (nginx's limit_rate) would send both at once.
        let url = server.url("/gen/pair.bin?size=128k&conncap=64k")
        let run = try await curl(
            rangedGet(url, "0-65535", name: "a") + ["--next", "-s", "--noproxy", "*", "--max-time", "8"]
                + rangedGet(url, "65536-131071", name: "b"))
        try #require(run.times.count == 2)
        #expect(run.times[1] >= 0.85, "the second request got a fresh burst: \(run.times)")
        let stats = server.stats("/gen/pair.bin")
        #expect(stats.requests == 2)
        #expect(stats.connections == 1)
        #expect(stats.statuses == [206, 206])
        // The first request fits the burst and never waits; the second finds the bucket as the first left it.
        try #require(stats.cappedResponses.count == 2)
        #expect(stats.cappedResponses[0] == CappedResponse(rate: 64 << 10, bytesBeforeFirstWait: 64 << 10, waits: 0))
        #expect(stats.cappedResponses[1].waits > 0, "\(stats.cappedResponses)")
        #expect(stats.cappedResponses[1].bytesBeforeFirstWait < 64 << 10, "a fresh burst: \(stats.cappedResponses)")
        let plan = try #require(FaultPlan.fromQuery(["size": "128k"], name: "pair.bin"))
        let a = try Data(contentsOf: URL(fileURLWithPath: directory.file("a")))
        let b = try Data(contentsOf: URL(fileURLWithPath: directory.file("b")))
        #expect([UInt8](a) + [UInt8](b) == plan.body.bytes())
    }

    @Test func manyShortRequestsOnOneConnectionAreCappedTogether() async throws {
        defer { server.stop() }
        // Sixteen 64 KiB ranges at 512 KiB/s: 1 MiB less the burst takes at least 1.875 s on one connection.
        let url = server.url("/gen/many.bin?size=1m&conncap=512k")
        var arguments: [String] = []
        for part in 0..<16 {
            if part > 0 { arguments += ["--next", "-s", "--noproxy", "*", "--max-time", "8"] }
            arguments += rangedGet(url, "\(part * 65536)-\(part * 65536 + 65535)", name: "part\(part)")
        }
        let run = try await curl(arguments)
        #expect(run.times.count == 16)
        #expect(run.wall >= 1.75, "took \(run.wall) s")
        let stats = server.stats("/gen/many.bin")
        #expect(stats.requests == 16)
        #expect(stats.connections == 1)
        #expect(stats.bodyBytesSent == 1 << 20)
        // One burst for the connection, not one per request: only the first request goes whole at once.
        let capped = stats.cappedResponses
        try #require(capped.count == 16)
        #expect(capped[0].waits == 0 && capped[0].bytesBeforeFirstWait == 64 << 10, "\(capped[0])")
        let atOnce = capped.map(\.bytesBeforeFirstWait).reduce(0, +)
        #expect(atOnce < 1 << 20, "every request went at once, as sixteen fresh bursts would: \(capped)")
        #expect(capped.map(\.waits).reduce(0, +) > 0)
    }

    @Test func twoConnectionsGetTheirOwnRates() async throws {
        defer { server.stop() }
        // The first connection to ask gets 1 MiB/s, the second 256 KiB/s: 0.44 s and 1.75 s for 512 KiB each.
        let url = server.url("/gen/two.bin?size=512k&conncaps=1m,256k")
        async let first = curl(["-o", directory.file("one"), "-w", "%{time_total}\\n", url])
        async let second = curl(["-o", directory.file("two"), "-w", "%{time_total}\\n", url])
        let times = try await (first.times + second.times).sorted()
        try #require(times.count == 2)
        #expect(times[0] >= 0.38, "\(times)")
        #expect(times[1] >= 1.6, "\(times)")
        let stats = server.stats("/gen/two.bin")
        #expect(stats.requests == 2)
        #expect(stats.connections == 2)
        // Each connection was held to its own rate, and each was held (it waited for its bucket).
        #expect(stats.cappedResponses.map(\.rate).sorted() == [256 << 10, 1 << 20], "\(stats.cappedResponses)")
        #expect(stats.cappedResponses.allSatisfy { $0.waits > 0 }, "\(stats.cappedResponses)")
    }

    @Test func anEqualCapHoldsForEachConnectionNotForThePath() async throws {
        defer { server.stop() }
        // Two connections at 512 KiB/s each fetch 512 KiB side by side: about 0.875 s each, not 1.75 s.
        let url = server.url("/gen/equal.bin?size=512k&conncap=512k")
        async let first = curl(["-o", directory.file("one"), "-w", "%{time_total}\\n", url])
        async let second = curl(["-o", directory.file("two"), "-w", "%{time_total}\\n", url])
        let times = try await (first.times + second.times).sorted()
        try #require(times.count == 2)
        #expect(times[0] >= 0.8, "\(times)")
        // A bucket for the path would have given the two one burst between them; each connection got its own
        // (all of it but the slice that overdrew it).
        let capped = server.stats("/gen/equal.bin").cappedResponses
        let burst = Int64(ConnectionBucket.burst - ConnectionBucket(rate: 512 << 10).sliceSize)
        try #require(capped.count == 2)
        #expect(capped.allSatisfy { $0.rate == 512 << 10 && $0.bytesBeforeFirstWait >= burst && $0.waits > 0 }, "\(capped)")
    }

    @Test func theStatsPageCountsRequestsAndConnections() async throws {
        defer { server.stop() }
        let url = server.url("/gen/s.bin?size=10k")
        _ = try await curl(["-o", directory.file("s1"), url, "--next", "-s", "-o", directory.file("s2"), url])
        _ = try await curl(["-o", directory.file("s3"), url])
        _ = try await curl(["-o", directory.file("stats"), server.url("/stats?path=/gen/s.bin")])
        let text = try String(contentsOfFile: directory.file("stats"), encoding: .utf8)
        #expect(text == "{\"path\":\"/gen/s.bin\",\"requests\":3,\"connections\":2,\"bodyBytesSent\":30720,\"statuses\":{\"200\":3}}\n")
        #expect(server.stats("/stats").requests == 0)
    }

    @Test func capQueriesParseAndCycle() throws {
        let equal = try #require(FaultPlan.fromQuery(["size": "1m", "conncap": "4m"], name: "a"))
        #expect(equal.connectionRates == [4 << 20])
        #expect(equal.connectionRate(forConnection: 5) == 4 << 20)
        let unequal = try #require(FaultPlan.fromQuery(["size": "1m", "conncaps": "4m,1m"], name: "a"))
        let fast = 4 << 20, slow = 1 << 20
        let handedOut: [Int?] = (0..<5).map { unequal.connectionRate(forConnection: $0) }
        #expect(handedOut == [fast, slow, fast, slow, fast])
        #expect(FaultPlan.fromQuery(["size": "1m"], name: "a")?.connectionRate(forConnection: 0) == nil)
        #expect(FaultPlan.fromQuery(["size": "1m", "conncap": "0"], name: "a") == nil)
        #expect(FaultPlan.fromQuery(["size": "1m", "conncaps": "4m,,1m"], name: "a") == nil)
        #expect(FaultPlan.fromQuery(["size": "1m", "conncaps": "fast"], name: "a") == nil)
    }

    @Test func theBucketNeverRefillsPastItsBurst() {
        let start = ContinuousClock.now
        var bucket = ConnectionBucket(rate: 1000, now: start)
        // The burst goes at once; the next 1000 bytes a second later; ten idle minutes earn only one burst.
        #expect(bucket.take(ConnectionBucket.burst, now: start) == start)
        #expect(bucket.take(1000, now: start) == start + .seconds(1))
        let later = start + .seconds(600)
        #expect(bucket.take(ConnectionBucket.burst, now: later) == later)
        #expect(bucket.take(500, now: later) == later + .milliseconds(500))
    }
}
