import Foundation
import Glibc
import HaulCore
import HaulStore
import Testing

/// The state directory and the queue database hold URL credentials and `-H` headers: owner only, on every start,
/// also when an older haul (or the user) left them open.
@Suite("State permissions")
struct StatePermissionsTests {
    static func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o777 : 0
    }

    @Test("an existing 0755 directory and 0644 database become 0700 and 0600")
    func tightenedOnStart() throws {
        let scratch = try ScratchDirectory()
        let directory = try StateDirectory(explicitPath: scratch.path + "/state")
        try directory.create()
        _ = try AppDatabase(path: directory.databasePath)
        #expect(chmod(directory.path, 0o755) == 0 && chmod(directory.databasePath, 0o644) == 0)

        try directory.create()
        let database = try AppDatabase(path: directory.databasePath)
        #expect(Self.mode(directory.path) == 0o700)
        #expect(Self.mode(directory.databasePath) == 0o600)
        _ = try SQLiteTaskStore(database: database).enqueue([NewTask(url: "http://127.0.0.1:9/a", directory: "/tmp")])
        for file in [directory.databasePath + "-wal", directory.databasePath + "-shm"] where access(file, F_OK) == 0 {
            #expect(Self.mode(file) == 0o600, "\(file)")
        }
    }
}

/// `StateDirectory.create` on real directories: what it refuses it leaves as it found it.
@Suite("State directory refusals")
struct StateDirectoryRefusalTests {
    @Test("a sticky world-writable directory is refused and keeps its mode")
    func sticky() throws {
        let scratch = try ScratchDirectory()
        let shared = scratch.file("shared")
        #expect(mkdir(shared, 0o700) == 0 && chmod(shared, 0o1777) == 0)
        let directory = try StateDirectory(explicitPath: shared)
        #expect(throws: StateDirectoryError.refused(path: shared, reason: .shared(mode: 0o1777))) { try directory.create() }
        var info = stat()
        #expect(stat(shared, &info) == 0 && info.st_mode & 0o7777 == 0o1777)
    }

    @Test("a directory holding other files is refused and keeps its mode")
    func foreignFiles() throws {
        let scratch = try ScratchDirectory()
        let home = scratch.file("home")
        #expect(mkdir(home, 0o755) == 0 && chmod(home, 0o755) == 0)
        #expect(FileManager.default.createFile(atPath: home + "/.profile", contents: Data()))
        let directory = try StateDirectory(explicitPath: home)
        #expect(throws: StateDirectoryError.refused(path: home, reason: .foreignFiles([".profile"]))) { try directory.create() }
        #expect(StatePermissionsTests.mode(home) == 0o755)
    }

    @Test("a symbolic link is refused and its target keeps its mode")
    func symbolicLink() throws {
        let scratch = try ScratchDirectory()
        let target = scratch.file("target")
        #expect(mkdir(target, 0o755) == 0 && chmod(target, 0o755) == 0)
        let link = scratch.file("link")
        #expect(symlink(target, link) == 0)
        let directory = try StateDirectory(explicitPath: link)
        #expect(throws: StateDirectoryError.symbolicLink(path: link)) { try directory.create() }
        #expect(StatePermissionsTests.mode(target) == 0o755)
    }
}
