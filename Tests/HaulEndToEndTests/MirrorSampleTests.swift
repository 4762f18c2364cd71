import FaultServer
import Foundation
import HaulTestSupport
import Testing

/// A mirror that reports the file's length but serves another file (DESIGN §8): its first answer is checked against
/// the main link's validators, and its bytes at a small overlap against the main link's, before any of its ranges
/// counts. It is dropped with its reason, and the file is the main link's, byte for byte.
@Suite(.timeLimit(.minutes(2))) struct MirrorSampleTests {
    /// The dropped reason of the link whose URL ends with `suffix`, from `haul list --json`.
    static func dropReason(_ run: HaulRun, suffix: String) async throws -> String? {
        let links = try await MirrorTests.links(run)
        return links.first { ($0["url"] as? String)?.hasSuffix(suffix) == true }?["dropped"] as? String
    }

    @Test func aMirrorWithOtherBytesOfTheSameLengthIsDroppedBeforeItWritesAByte() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        var plan = FaultPlan.file(size: 12 << 20, seed: 611)
        plan.connectionRates = [2 << 20]
        // The same validators on both: only the bytes tell them apart.
        plan.etag = "\"same\""
        server.route("/file.bin", plan)
        var other = FaultPlan.file(size: 12 << 20, seed: 612)
        other.connectionRates = [2 << 20]
        other.etag = "\"same\""
        server.route("/other.bin", other)
        let run = try HaulRun()
        let process = try run.start([
            "--headless", "--json", "-s", "3", "--min-split-size", "1M", "-o", "file.bin",
            "--mirror", server.url("/other.bin"), server.url("/file.bin"),
        ])
        #expect(try await process.waitForExit(timeout: .seconds(60)) == 0, "\(process.stderrText())")
        expectSameBytes(run.file("file.bin"), plan.body.bytes())
        // It was asked for its sample only: a few KiB, never a range of its own.
        let asked = server.stats("/other.bin")
        #expect(asked.requests >= 1 && asked.bodyBytesSent <= 64 << 10, "\(asked.requests) requests, \(asked.bodyBytesSent) bytes")
        let reason = try await Self.dropReason(run, suffix: "/other.bin") ?? ""
        #expect(reason.contains("differ from the main link's") && reason.contains("another file of the same length"), "\(reason)")
        #expect(try await Self.dropReason(run, suffix: "/file.bin") == nil)
        let told = events(process, named: "link-dropped")
        #expect(told.count == 1 && (told.first?["reason"] as? String) == reason, "\(told)")
    }

    @Test func aMirrorWithAnotherLastModifiedIsDroppedNamingBoth() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        var plan = FaultPlan.file(size: 12 << 20, seed: 613)
        plan.connectionRates = [2 << 20]
        plan.lastModified = "Mon, 02 Nov 2026 10:00:00 GMT"
        server.route("/file.bin", plan)
        var older = plan
        older.lastModified = "Sun, 01 Nov 2026 10:00:00 GMT"
        server.route("/older.bin", older)
        let run = try HaulRun()
        let process = try run.start([
            "--headless", "-s", "3", "--min-split-size", "1M", "-o", "file.bin",
            "--mirror", server.url("/older.bin"), server.url("/file.bin"),
        ])
        #expect(try await process.waitForExit(timeout: .seconds(60)) == 0, "\(process.stderrText())")
        expectSameBytes(run.file("file.bin"), plan.body.bytes())
        let reason = try await Self.dropReason(run, suffix: "/older.bin") ?? ""
        #expect(reason.contains("Last-Modified is Sun, 01 Nov 2026 10:00:00 GMT")
            && reason.contains("Mon, 02 Nov 2026 10:00:00 GMT"), "\(reason)")
    }

    @Test func aMirrorWithTheSameBytesServesAfterItsSampleAgreed() async throws {
        let main = try FaultServer()
        let mirror = try FaultServer()
        defer {
            main.stop()
            mirror.stop()
        }
        var plan = FaultPlan.file(size: 12 << 20, seed: 614)
        plan.connectionRates = [1 << 20]
        main.route("/file.bin", plan)
        mirror.route("/file.bin", plan)
        let run = try HaulRun()
        let process = try run.start([
            "--headless", "-s", "2", "--min-split-size", "1M", "-o", "file.bin",
            "--mirror", mirror.url("/file.bin"), main.url("/file.bin"),
        ])
        #expect(try await process.waitForExit(timeout: .seconds(60)) == 0, "\(process.stderrText())")
        expectSameBytes(run.file("file.bin"), plan.body.bytes())
        #expect(mirror.stats("/file.bin").bodyBytesSent > 2 << 20, "\(mirror.stats("/file.bin").bodyBytesSent)")
        #expect(try await MirrorTests.links(run).allSatisfy { $0["dropped"] == nil })
    }
}
