import Foundation
import HaulCore
@testable import HaulStore

/// A directory under the system temp dir for one test, removed with the object.
final class ScratchDirectory {
    let path: String

    init() throws {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("haul-store-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        path = url.path
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { path + "/" + name }
}

/// A store on a fresh in-memory database built by the real initializer.
func makeStore() throws -> SQLiteTaskStore {
    SQLiteTaskStore(database: try AppDatabase.inMemory())
}

func newTask(_ n: Int, directory: String = "/downloads") -> NewTask {
    NewTask(url: "https://example.org/file-\(n).bin", directory: directory)
}
