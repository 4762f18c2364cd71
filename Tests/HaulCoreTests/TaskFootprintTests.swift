import Foundation
import Testing
@testable import HaulCore

/// What a task costs the daemon that holds 100,000 of them (issue 29), counted in bytes and in dictionary room.
@Suite struct TaskFootprintTests {
    @Test func aTasksFieldsFitA240ByteBlockWithTheirBoxsHeader() {
        // glibc gives a request of n bytes a block of (n + 8) rounded up to 16; the box's header is 16 bytes. One byte
        // more and every task takes a 256-byte block (1.6 MB more for 100,000 tasks).
        #expect(MemoryLayout<DownloadTask.Fields>.size + 16 + 8 <= 240)
        // The state beside the fields' reference, in the room the reference's alignment leaves anyway.
        #expect(MemoryLayout<DownloadTask>.stride == 16)
    }

    @Test func theTableGivesBackTheRoomOfAWaitingLineItEmptied() {
        var table = TaskTable()
        for n in 1...20_000 {
            table[TaskID(Int64(n))] = DownloadTask(id: TaskID(Int64(n)), url: "http://127.0.0.1:9/f\(n)", directory: "/tmp", position: Int64(n))
        }
        #expect(table.waiting.count == 20_000)
        for n in 1...20_000 { table[TaskID(Int64(n))]?.state = .paused }
        #expect(table.waiting.isEmpty && table.waiting.capacity >= 20_000, "a dictionary keeps its room")
        table.compact()
        #expect(table.waiting.capacity < 4 * 1_024 && table.byID.capacity >= 20_000)
        for n in 1...19_990 { table.removeValue(forKey: TaskID(Int64(n))) }
        table.compact()
        #expect(table.byID.count == 10 && table.byID.capacity < 4 * 1_024)
    }
}
