import Foundation
import HaulStore
import Testing

@Suite("Transfer lock")
struct TransferLockTests {
    @Test("the holder's pid is written into the file and reported to probes")
    func acquireAndProbe() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.file("haul.lock")
        #expect(TransferLock.holder(at: path) == nil)
        let lock = try TransferLock.acquire(at: path)
        #expect(lock.isHeld)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == "\(getpid())\n")
        #expect(TransferLock.holder(at: path) == TransferLockHolder(pid: getpid()))
        lock.release()
        #expect(!lock.isHeld)
        #expect(TransferLock.holder(at: path) == nil)
        lock.release()
    }

    @Test("a second acquire conflicts, even in the same process, and names the holder")
    func conflict() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.file("haul.lock")
        let lock = try TransferLock.acquire(at: path)
        #expect(throws: TransferLockError.heldBy(pid: getpid(), stateDirectory: scratch.path)) {
            _ = try TransferLock.acquire(at: path)
        }
        let message = TransferLockError.heldBy(pid: 1234, stateDirectory: "/path/state").description
        #expect(message.contains("another haul (pid 1234) is already transferring for /path/state"))
        #expect(message.contains("haul add|pause|resume|remove"))
        lock.release()
        let again = try TransferLock.acquire(at: path)
        #expect(again.isHeld)
    }

    @Test("dropping the object releases the lock")
    func deinitReleases() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.file("haul.lock")
        do {
            let lock = try TransferLock.acquire(at: path)
            #expect(lock.isHeld)
        }
        #expect(TransferLock.holder(at: path) == nil)
        _ = try TransferLock.acquire(at: path)
    }

    @Test("a lock held by another process gives heldBy with its pid, and frees when it exits")
    func heldByChildProcess() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.file("haul.lock")
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/sh")
        // The shell opens the file, locks it through flock(1) on that descriptor (giving up after 10 s),
        // writes its pid, says "locked" on its stdout, then becomes `sleep` with the descriptor (and so
        // the lock) still open.
        child.arguments = ["-c", #"exec 9>>"$0"; flock -x -w 10 9 || exit 1; echo $$ > "$0"; echo locked; exec sleep 30"#, path]
        let output = Pipe()
        child.standardOutput = output
        try child.run()
        defer {
            if child.isRunning { child.terminate() }
            child.waitUntilExit()
        }
        let pid = child.processIdentifier
        // Its word that the lock is held: a read that returns with the line, or at the shell's end (bounded by
        // flock's 10 s and sleep's 30 s).
        let said = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        #expect(said == "locked\n")
        #expect(TransferLock.holder(at: path) == TransferLockHolder(pid: pid))
        #expect(throws: TransferLockError.heldBy(pid: pid, stateDirectory: scratch.path)) {
            _ = try TransferLock.acquire(at: path)
        }
        child.terminate()
        child.waitUntilExit()
        #expect(TransferLock.holder(at: path) == nil)
        let lock = try TransferLock.acquire(at: path)
        #expect(TransferLock.holder(at: path) == TransferLockHolder(pid: getpid()))
        lock.release()
    }

    @Test("a lock file that cannot be created is reported by path")
    func cannotOpen() throws {
        let path = "/nonexistent-haul-dir/haul.lock"
        do {
            _ = try TransferLock.acquire(at: path)
            Issue.record("acquired \(path)")
        } catch {
            guard case .cannotOpen(let failedPath, let code, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(failedPath == path)
            #expect(code == ENOENT)
        }
    }
}
