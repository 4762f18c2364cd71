import FaultServer
import Foundation
import HaulTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The one closing policy as the built binary carries it out, seen in its system calls (strace): for a file and a
/// stream alike, the final name appears by one rename, and the download directory is synced after it before haul
/// ends; a stream whose checksum does not match is never renamed to its final name at all.
@Suite(.serialized, .timeLimit(.minutes(2)), .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/strace")))
struct ClosingOrderTests {
    /// A link of each kind and the name it is published under.
    struct Kind: Sendable, CustomTestStringConvertible {
        var path: String
        var name: String
        var testDescription: String { name }
    }

    static let kinds = [Kind(path: "/file.bin", name: "file.bin"), Kind(path: "/hls/film/index.m3u8", name: "index.ts")]

    /// Runs `haul --headless ARGS` to its end under strace, and returns its status and the renames, links and syncs it made.
    static func traced(_ arguments: [String], in run: HaulRun) async throws -> (status: Int32, calls: [String], haul: HaulProcess) {
        let log = run.root.path + "/strace.log"
        let haul = try HaulProcess(
            URL(fileURLWithPath: "/usr/bin/strace"),
            arguments: ["-f", "-qq", "-y", "-o", log, "-e", "trace=rename,renameat,renameat2,link,linkat,fsync",
                        try HaulProcess.binary(named: "haul").path, "--headless", "--state-dir", run.state, "-d", run.downloads]
                + arguments)
        let status = try await haul.waitForExit(timeout: .seconds(90))
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return (status, text.split(separator: "\n").map(String.init), haul)
    }

    /// Creates the run's download directory and returns its path as strace names it (links resolved).
    static func realDirectory(_ run: HaulRun) throws -> String {
        try FileManager.default.createDirectory(atPath: run.downloads, withIntermediateDirectories: true)
        return try #require(realpath(run.downloads, nil).map { pointer in
            defer { free(pointer) }
            return String(cString: pointer)
        })
    }

    /// The index of the first call that moves or links a file to `name` in the download directory.
    static func publish(of name: String, in calls: [String]) -> Int? {
        calls.firstIndex { ($0.contains("rename") || $0.contains("link")) && $0.contains("\"\(name)\"") }
    }

    /// The serving link of `kind` (a generated stream of six segments under `/hls/`).
    static func url(_ kind: Kind, on server: FaultServer) throws -> String {
        kind.path.hasPrefix("/hls/") ? try HLSStream(server, name: "film", query: "segments=6&segsize=40k").url() : server.url(kind.path)
    }

    @Test(arguments: kinds)
    func theDirectoryIsSyncedAfterThePublish(_ kind: Kind) async throws {
        let server = try FaultServer()
        defer { server.stop() }
        server.route("/file.bin", .file(size: 200_000, seed: 71))
        let run = try HaulRun()
        let directory = try Self.realDirectory(run)
        let (status, calls, haul) = try await Self.traced([try Self.url(kind, on: server)], in: run)
        #expect(status == 0, "\(StreamRun.transcript(haul))")
        #expect(StreamRun.names(run) == [kind.name])
        guard let publish = Self.publish(of: kind.name, in: calls) else {
            Issue.record("no rename to \(kind.name): \(calls)")
            return
        }
        let synced = calls[(publish + 1)...].contains { $0.contains("fsync(") && $0.contains("<\(directory)>") }
        #expect(synced, "the directory is synced after \(calls[publish]): \(calls)")
    }

    /// Killed at the directory's sync after the rename, its name and length on record: the next run finds the file
    /// published, publishes nothing again, and syncs the directory before it records the task completed. (A stream
    /// is settled so only once its last checkpoint is on record, a window strace cannot aim at; the policy test
    /// covers both kinds.)
    @Test func aFileARunThatDiedPublishedIsSyncedBeforeItIsRecorded() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        // Two seconds long, so that its name and length are on record well before it is published.
        var plan = FaultPlan.file(size: 200_000, seed: 72)
        plan.throttle = 100_000
        server.route("/file.bin", plan)
        let run = try HaulRun()
        let directory = try Self.realDirectory(run)
        let killed = try HaulProcess(
            URL(fileURLWithPath: "/usr/bin/strace"),
            arguments: ["-f", "-qq", "-o", "/dev/null", "-e", "trace=fsync", "-e", "inject=fsync:signal=SIGKILL:when=1",
                        try HaulProcess.binary(named: "haul").path, "--headless", "--state-dir", run.state, "-d", run.downloads,
                        server.url("/file.bin")])
        #expect(try await killed.waitForExit(timeout: .seconds(60)) != 0, "haul was killed at its first fsync")
        try #require(StreamRun.names(run) == ["file.bin"], "the first fsync came after the publish: \(StreamRun.names(run))")

        let (status, calls, haul) = try await Self.traced([], in: run)
        #expect(status == 0, "\(StreamRun.transcript(haul))")
        #expect(Self.publish(of: "file.bin", in: calls) == nil, "nothing is fetched or published again: \(calls)")
        #expect(calls.contains { $0.contains("fsync(") && $0.contains("<\(directory)>") }, "\(calls)")
        #expect(server.stats("/file.bin").requests == 1)
        let row = try #require(try await run.list().first)
        #expect(row["state"] as? String == "completed" && row["name"] as? String == "file.bin", "\(row)")
    }

    @Test func aStreamWithAWrongChecksumIsNeverRenamedToItsName() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let run = try HaulRun()
        let kind = Self.kinds[1]
        let (status, calls, haul) = try await Self.traced(
            ["--checksum", "sha-256=" + String(repeating: "0", count: 64), try Self.url(kind, on: server)], in: run)
        #expect(status == 1, "a failed task exits 1. \(StreamRun.transcript(haul))")
        #expect(Self.publish(of: kind.name, in: calls) == nil, "\(calls)")
        #expect(StreamRun.names(run).isEmpty, "nothing of a wrong stream is kept: \(StreamRun.names(run))")
    }
}
