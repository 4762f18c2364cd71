import HaulCore
@testable import HaulStore
import Testing

@Suite("Queue: moving tasks")
struct MoveTests {
    /// A store with five waiting tasks; returns it and their ids in queue order.
    private func fiveTasks() throws -> (SQLiteTaskStore, [TaskID]) {
        let store = try makeStore()
        return (store, try store.enqueue((1...5).map { newTask($0) }).map(\.id))
    }

    private func order(_ store: SQLiteTaskStore) throws -> [TaskID] {
        try store.loadAll().filter { $0.state.isUnfinished }.map(\.id)
    }

    @Test("moving up by one swaps with the task before")
    func upOne() throws {
        let (store, ids) = try fiveTasks()
        try store.move(ids[2], by: -1)
        #expect(try order(store) == [ids[0], ids[2], ids[1], ids[3], ids[4]])
    }

    @Test("moving down by one swaps with the task after")
    func downOne() throws {
        let (store, ids) = try fiveTasks()
        try store.move(ids[2], by: 1)
        #expect(try order(store) == [ids[0], ids[1], ids[3], ids[2], ids[4]])
    }

    @Test("moving by several places shifts the tasks passed over")
    func several() throws {
        let (store, ids) = try fiveTasks()
        try store.move(ids[0], by: 3)
        #expect(try order(store) == [ids[1], ids[2], ids[3], ids[0], ids[4]])
        try store.move(ids[4], by: -2)
        #expect(try order(store) == [ids[1], ids[2], ids[4], ids[3], ids[0]])
    }

    @Test("moves stop at either end, even for extreme offsets", arguments: [Int.min, -10, 10, Int.max])
    func clamps(offset: Int) throws {
        let (store, ids) = try fiveTasks()
        try store.move(ids[2], by: offset)
        let expected = offset < 0
            ? [ids[2], ids[0], ids[1], ids[3], ids[4]]
            : [ids[0], ids[1], ids[3], ids[4], ids[2]]
        #expect(try order(store) == expected)
        try store.move(expected[0], by: -1)
        try store.move(expected[4], by: 1)
        #expect(try order(store) == expected)
    }

    @Test("completed tasks are neither passed over nor moved")
    func skipsCompleted() throws {
        let (store, ids) = try fiveTasks()
        var tasks = try store.load([ids[1], ids[3]])
        for index in tasks.indices { tasks[index].state = .completed }
        try store.save(tasks)
        try store.move(ids[2], by: -1)
        #expect(try order(store) == [ids[2], ids[0], ids[4]])
        let completedBefore = try store.load([ids[1], ids[3]])
        try store.move(ids[1], by: 1)
        try store.move(TaskID(999), by: 1)
        try store.move(ids[0], by: 0)
        #expect(try store.load([ids[1], ids[3]]) == completedBefore)
        #expect(try order(store) == [ids[2], ids[0], ids[4]])
    }

    @Test("a move keeps the queue's positions distinct")
    func positionsStayDistinct() throws {
        let (store, ids) = try fiveTasks()
        try store.move(ids[4], by: -4)
        try store.move(ids[1], by: 2)
        let positions = try store.loadAll().map(\.position)
        #expect(Set(positions).count == positions.count)
        #expect(positions == positions.sorted())
    }
}
