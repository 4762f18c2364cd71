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
