import Foundation
import HaulCore
@testable import HaulStore
import Testing

/// The first screen of a long queue, read before the whole queue (issue 29): the first tasks in the order the whole
/// queue is read in, and how many there are, from one read of a few rows.
@Suite struct FirstTasksTests {
    @Test func theFirstTasksAreTheWholeQueuesFirstInItsOrder() throws {
        let store = try makeStore()
        var tasks = try store.enqueue((1...30).map { newTask($0) })
        // Completed tasks come after the unfinished ones, newest first: a first screen longer than the unfinished
        // ones takes them in that order too.
        for (offset, index) in [3, 9, 20].enumerated() {
            tasks[index].state = .completed
            tasks[index].finishedAt = Date(timeIntervalSince1970: 1_795_000_000 + Double(offset))
        }
        try store.save([tasks[3], tasks[9], tasks[20]])
        let whole = try store.loadAll()
        for limit in [0, 5, 27, 28, 30, 40] {
            let (first, total) = try store.firstTasks(limit)
            #expect(total == 30)
            #expect(first == Array(whole.prefix(limit)), "limit \(limit)")
        }
    }
}
