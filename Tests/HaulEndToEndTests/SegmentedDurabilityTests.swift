import FaultServer
import Foundation
import Glibc
import HaulTestSupport
import Testing

/// kill -9 during segmented downloads (issue 8 point 2): after every kill the database claims only bytes that
/// are in the part files, a rerun with no URL finishes every file byte for byte, and each kill costs at most
/// 2 % of a file in bytes fetched again.
@Suite(.timeLimit(.minutes(3))) struct SegmentedDurabilityTests {
    static let size: Int64 = 32 << 20
    static let files = 4
    static let kills = 3
    /// Per response: four connections make 128 KiB/s per file, so the second or so between a checkpoint and
    /// a kill is well under 2 % of 32 MiB.
    static let throttle = 32 << 10

    static func arguments(_ urls: [String] = []) -> [String] {
        ["--headless", "-s", "4", "--min-split-size", "1M", "--max-host-connections", "16", "-j", "\(files)"] + urls
    }

    @Test func killNineDuringSegmentedDownloadsRefetchesAtMostTwoPercentPerKill() async throws {
        let server = try FaultServer(lifetime: .seconds(170))
        defer { server.stop() }
        var plans: [FaultPlan] = []
        for index in 0..<Self.files {
            var plan = FaultPlan.file(size: Self.size, seed: UInt64(900 + index))
            plan.throttle = Self.throttle
            plans.append(plan)
            server.route("/s\(index).bin", plan)
        }
        let run = try HaulRun()
        let urls = (0..<Self.files).map { server.url("/s\($0).bin") }
        var recorded = [Int64](repeating: 0, count: Self.files)
        var sent = [Int64](repeating: 0, count: Self.files)
        var refetchedPerKill: [[Int64]] = []

        for kill in 0..<Self.kills {
            let process = try run.start(Self.arguments(kill == 0 ? urls : []), directory: kill == 0)
            defer { process.terminate(SIGKILL) }
            // Each kill lands at its own moment: once every file has 128 KiB more on record than before.
            let before = recorded
            try await eventually("progress on record for run \(kill)", timeout: .seconds(30), poll: .milliseconds(100)) {
                let bytes = try await Self.recordedBytes(run)
                return bytes.count == Self.files && zip(bytes, before).allSatisfy { $0 >= $1 + (128 << 10) }
            }
            // Not a synchronisation: each kill falls at another point of the ~1 s checkpoint cycle.
            try await Task.sleep(for: .milliseconds(450 * kill))
            process.kill(SIGKILL)
            #expect(try await process.waitForExit(timeout: .seconds(10)) == 128 + SIGKILL)

            #expect(try Self.sqlite(run, "PRAGMA integrity_check") == "ok")
            try Self.expectDatabaseClaimsOnlyDurableBytes(run, plans: plans)
            let now = try await Self.recordedBytes(run)
            let sentNow = (0..<Self.files).map { server.stats("/s\($0).bin").bodyBytesSent }
            // Sent in this run but not on record: fetched again by a later run.
            let refetched = (0..<Self.files).map { (sentNow[$0] - sent[$0]) - (now[$0] - recorded[$0]) }
            refetchedPerKill.append(refetched)
            for (index, bytes) in refetched.enumerated() {
                #expect(Double(bytes) <= Double(Self.size) * 0.02, "kill \(kill): s\(index).bin refetched \(bytes) bytes")
            }
            recorded = now
            sent = sentNow
        }

        // The rest faster, same content and validators. Still capped per connection like the servers issue 8 is
        // about: with the client as the bottleneck every stolen range would waste a socket buffer of bytes
        // (SegmentedTests.stealingWastesLittleWhenTheClientIsTheBottleneck), which no kill caused.
        for (index, var plan) in plans.enumerated() {
            plan.throttle = 1 << 20
            server.route("/s\(index).bin", plan)
        }
        let last = try run.start(Self.arguments(), directory: false)
        defer { last.terminate(SIGKILL) }
        #expect(try await last.waitForExit(timeout: .seconds(90)) == 0)
        for (index, plan) in plans.enumerated() {
            #expect(try sha256(run.downloads + "/s\(index).bin") == sha256(plan.body), "s\(index).bin differs")
            let stats = server.stats("/s\(index).bin")
            // Every byte fetched more than once is one a kill lost.
            let extra = stats.bodyBytesSent - Self.size
            #expect(Double(extra) <= Double(Self.size) * 0.02 * Double(Self.kills), "s\(index).bin: \(extra) bytes fetched again")
            // Resumed runs ask bounded ranges with If-Range only.
            #expect(stats.rangeHeaders.dropFirst().allSatisfy { $0 != nil })
            #expect(stats.ifRangeHeaders.dropFirst().allSatisfy { $0 == "\"\(Self.size)-\(900 + index)-v1\"" })
        }
        #expect(try Self.sqlite(run, "PRAGMA integrity_check") == "ok")
        #expect(try Self.sqlite(run, "SELECT count(*) FROM segment") == "0")
        let names = try FileManager.default.contentsOfDirectory(atPath: run.downloads).sorted()
        #expect(names == (0..<Self.files).map { "s\($0).bin" })
        let summary = refetchedPerKill.enumerated().map { "kill \($0.offset + 1): \($0.element)" }.joined(separator: "; ")
        print("SegmentedDurabilityTests bytes fetched again per file — \(summary)")
    }

    /// Recorded bytes per task, in task order.
    static func recordedBytes(_ run: HaulRun) async throws -> [Int64] {
        try await run.list().sorted { ($0["id"] as? Int ?? 0) < ($1["id"] as? Int ?? 0) }
            .map { Int64($0["bytes"] as? Int ?? 0) }
    }

    /// Every committed range in the segment table holds the file's bytes in the part file.
    static func expectDatabaseClaimsOnlyDurableBytes(_ run: HaulRun, plans: [FaultPlan]) throws {
        let rows = try sqlite(
            run, "SELECT t.fileName, s.start, s.committed FROM segment s JOIN task t ON t.id = s.taskId ORDER BY t.id, s.start")
        #expect(!rows.isEmpty, "no segment layout on record")
        for row in rows.split(separator: "\n") {
            let fields = row.split(separator: "|").map(String.init)
            guard fields.count == 3, let start = Int64(fields[1]), let committed = Int64(fields[2]),
                  let index = Int(fields[0].dropFirst().prefix { $0.isNumber }), index < plans.count
            else {
                Issue.record("unexpected segment row \(row)")
                continue
            }
            guard committed > 0 else { continue }
            let handle = try #require(FileHandle(forReadingAtPath: run.downloads + "/" + fields[0] + ".part"))
            defer { try? handle.close() }
            try handle.seek(toOffset: UInt64(start))
            let bytes = [UInt8](try handle.read(upToCount: Int(committed)) ?? Data())
            #expect(bytes == plans[index].body.bytes(in: start..<(start + committed)),
                    "\(fields[0]): bytes \(start)..<\(start + committed) are on record but not on disk")
        }
    }

    /// Runs one statement with the sqlite3 CLI on the state database; its output without the last newline.
    static func sqlite(_ run: HaulRun, _ sql: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [run.state + "/haul.sqlite", sql]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// SHA-256 of a file, hex (with the sha256sum CLI, so 32 MiB files are not held in memory twice).
func sha256(_ path: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
    process.arguments = [path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(String(decoding: data, as: UTF8.self).prefix(64))
}

/// SHA-256 of generated content, hex, written to a scratch file first.
func sha256(_ body: FaultPlan.Body) throws -> String {
    let dir = try TemporaryDirectory()
    let path = dir.path + "/expected"
    #expect(FileManager.default.createFile(atPath: path, contents: Data(body.bytes())))
    return try sha256(path)
}
