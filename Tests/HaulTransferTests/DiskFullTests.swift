import FaultServer
import Foundation
import Glibc
import HaulCore
import HaulTestSupport
@testable import HaulTransfer
import Testing

/// A small tmpfs stands in for a full disk. Mounting needs root: in CI (`CI` set) a machine that cannot mount
/// fails these tests; elsewhere they are skipped with a note (`RootOnly`).
@Suite(.timeLimit(.minutes(1)), RootOnly.enabled("mounting a tmpfs")) struct DiskFullTests {
    /// Mounts a tmpfs of `size` (2 MiB unless told); fails the test in CI, or skips it elsewhere, when it cannot.
    static func smallDisk(
        size: String = "2m", readOnly: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> TemporaryDirectory {
        try RootOnly.requireRoot(for: "mounting a tmpfs", sourceLocation: sourceLocation)
        let dir = try TemporaryDirectory()
        let mount = Process()
        mount.executableURL = URL(fileURLWithPath: "/bin/mount")
        mount.arguments = ["-t", "tmpfs", "-o", "size=\(size)" + (readOnly ? ",ro" : ""), "tmpfs", dir.path]
        try mount.run()
        mount.waitUntilExit()
        guard mount.terminationStatus == 0 else {
            try RootOnly.unavailable(
                "mount -t tmpfs -o size=\(size) exited with status \(mount.terminationStatus)", sourceLocation: sourceLocation)
        }
        return dir
    }

    static func unmount(_ dir: TemporaryDirectory) {
        let umount = Process()
        umount.executableURL = URL(fileURLWithPath: "/bin/umount")
        umount.arguments = [dir.path]
        try? umount.run()
        umount.waitUntilExit()
    }

    @Test func enospcEndsTheTaskWithDiskFullAndKeepsTheSyncedBytes() async throws {
        let disk = try Self.smallDisk()
        defer { Self.unmount(disk) }
        let server = try FaultServer()
        defer { server.stop() }
        // The server sends no length, so the up-front space check cannot catch it: the write itself fails.
        var plan = FaultPlan.file(size: 4 << 20, seed: 51)
        plan.chunked = true
        server.route("/big.bin", plan)
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/big.bin"), directory: disk.path))
        guard let (error, durable) = try await engine.failure(of: TaskID(1)) else { return }
        #expect(error == .diskFull(path: disk.path + "/big.bin.part"))
        #expect(error.pausesTask)
        let part = try #require(contents(disk.path + "/big.bin.part"))
        #expect(Int64(part.count) >= durable)
        expectSameBytes(Array(part[0..<Int(durable)]), plan.body.bytes(in: 0..<durable))
    }

    /// A fast download of unknown length stops within a few MiB of the reserve: free space is checked as bytes are
    /// written, not only once a second (a second of a fast download would pass the reserve by far).
    @Test func theReserveHoldsAgainstAFastDownloadOfUnknownLength() async throws {
        let disk = try Self.smallDisk(size: "100m")
        defer { Self.unmount(disk) }
        let server = try FaultServer()
        defer { server.stop() }
        var plan = FaultPlan.file(size: 90 << 20, seed: 52)
        plan.chunked = true
        server.route("/fast.bin", plan)
        let engine = EngineHarness()
        var task = request(1, url: server.url("/fast.bin"), directory: disk.path)
        task.options.diskReserve = 64 << 20
        engine.start(task)
        guard let (error, _) = try await engine.failure(of: TaskID(1)) else { return }
        guard case .lowDiskSpace = error else { Issue.record("\(error)"); return }
        let free = try #require(FreeSpace.bytes(at: disk.path))
        #expect(free >= (64 << 20) - (2 * DiskGuard.bytesBetweenChecks), "free \(free >> 20) MiB: the reserve was passed by more than a check's worth")
    }

    @Test func aStreamThatFillsTheDiskPausesKeepingItsWholeSegments() async throws {
        let disk = try Self.smallDisk()
        defer { Self.unmount(disk) }
        let server = try FaultServer()
        defer { server.stop() }
        let bodies = StreamEngineTests.stream(server, "full", count: 20, size: 200_000)
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/full/index.m3u8"), directory: disk.path, options: StreamEngineTests.options(split: 2)))
        guard let (error, durable) = try await engine.failure(of: TaskID(1)) else { return }
        #expect(error == .diskFull(path: disk.path + "/index.ts.part"), "\(error)")
        #expect(error.pausesTask)
        // What is durable is whole segments, and the record says how many.
        let recorded = try #require(StreamEngineTests.checkpoints(engine, 1).last)
        #expect(recorded.appendedBytes == durable && durable == Int64(recorded.segmentsDone * 200_000), "\(recorded)")
        let part = try #require(contents(disk.path + "/index.ts.part"))
        expectSameBytes(Array(part[0..<Int(durable)]), Array(bodies[0..<recorded.segmentsDone].joined()))
    }

    @Test func aKnownSizeThatDoesNotFitIsRefusedBeforeWriting() async throws {
        let disk = try Self.smallDisk()
        defer { Self.unmount(disk) }
        let server = try FaultServer()
        defer { server.stop() }
        server.route("/big.bin", .file(size: 4 << 20, seed: 52))
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/big.bin"), directory: disk.path))
        guard let (error, durable) = try await engine.failure(of: TaskID(1)) else { return }
        guard case let .lowDiskSpace(path, free, needed, _) = error else {
            Issue.record("a file larger than the free space was not refused")
            return
        }
        #expect(path == disk.path)
        #expect(needed == 4 << 20)
        #expect(free <= 2 << 20)
        #expect(durable == 0)
        // Refused before the part file was made: no empty one is left.
        #expect(contents(disk.path + "/big.bin.part") == nil)
    }

    /// A read-only mount is reported as such, not as space below the reserve (it reports little free), and no
    /// part file is attempted.
    @Test func aReadOnlyFileSystemIsNamedAsTheCause() async throws {
        let disk = try Self.smallDisk(size: "1m", readOnly: true)
        defer { Self.unmount(disk) }
        let server = try FaultServer()
        defer { server.stop() }
        server.route("/ro.bin", .file(size: 10_000, seed: 53))
        let engine = EngineHarness()
        var task = request(1, url: server.url("/ro.bin"), directory: disk.path)
        task.options.diskReserve = 64 << 20
        engine.start(task)
        guard let (error, _) = try await engine.failure(of: TaskID(1)) else { return }
        #expect(error == .readOnlyFileSystem(path: disk.path), "\(error)")
        #expect(error.description.contains("read-only file system"))
    }
}
