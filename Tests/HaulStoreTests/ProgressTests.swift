import Foundation
import GRDB
import HaulCore
@testable import HaulStore
import Testing

@Suite("Progress and large batches")
struct ProgressTests {
    @Test("recordProgress writes new counts and skips rows that already hold them")
    func skipsUnchanged() throws {
        let store = try makeStore()
        let ids = try store.enqueue((1...3).map { newTask($0) }).map(\.id)
        #expect(try store.writeProgress([ids[0]: 100, ids[1]: 0, ids[2]: 300]) == 2)
        #expect(try store.writeProgress([ids[0]: 100, ids[1]: 0, ids[2]: 300]) == 0)
        #expect(try store.writeProgress([ids[0]: 150, ids[2]: 300]) == 1)
        #expect(try store.writeProgress([:]) == 0)
        #expect(try store.writeProgress([TaskID(999): 5]) == 0)
        #expect(try store.loadAll().map(\.bytesDone) == [150, 0, 300])
    }

    @Test("a count can go back to zero (a server that ignores ranges restarts the file)")
    func restartFromZero() throws {
        let store = try makeStore()
        let id = try #require(try store.enqueue([newTask(1)]).first?.id)
        try store.recordProgress([id: 4096])
        try store.recordProgress([id: 0])
        #expect(try store.load([id]).first?.bytesDone == 0)
    }

    @Test("a batch is one transaction: a negative count rolls back the whole batch")
    func atomic() throws {
        let store = try makeStore()
        let ids = try store.enqueue((1...3).map { newTask($0) }).map(\.id)
        #expect(throws: DatabaseError.self) {
            try store.recordProgress([ids[0]: 10, ids[1]: -1, ids[2]: 30])
        }
        #expect(try store.loadAll().map(\.bytesDone) == [0, 0, 0])
    }

    @Test("10,000 tasks enqueue in one call, then a 1,000-row progress batch and a full load")
    func largeBatches() throws {
        let store = try makeStore()
        let added = try store.enqueue((1...10_000).map { newTask($0) })
        #expect(added.count == 10_000)
        #expect(added.map(\.position) == Array(1...10_000))
        #expect(zip(added, added.dropFirst()).allSatisfy { $0.id < $1.id })

        let batch = Dictionary(uniqueKeysWithValues: added.prefix(1000).map { ($0.id, Int64($0.id.rawValue) * 1024) })
        #expect(try store.writeProgress(batch) == 1000)
        #expect(try store.writeProgress(batch) == 0)

        let loaded = try store.loadAll()
        #expect(loaded.count == 10_000)
        #expect(loaded.prefix(1000).allSatisfy { $0.bytesDone == $0.id.rawValue * 1024 })
    }
}
