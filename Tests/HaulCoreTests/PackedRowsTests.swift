import Foundation
import Testing
@testable import HaulCore

/// Rows packed for an attached list (`PackedRows`): each row's fields in order, the details its neighbours share
/// once. What a page of 100,000 tasks costs to send and decode follows the bytes of a row.
@Suite struct PackedRowsTests {
    /// `count` tasks added together (one directory and set of details), the second running with every live
    /// figure, the third failed with every optional field, the last of another group.
    static func rows(_ count: Int = 6) -> [QueueSnapshot.Row] {
        var rows = (1...count).map { id in
            var task = DownloadTask(
                id: TaskID(Int64(id)), url: "http://127.0.0.1:9/file-\(id).bin", directory: "/downloads/list",
                position: Int64(id), createdAt: Date(timeIntervalSinceReferenceDate: 817_514_117.24))
            task.group = "list.txt"
            task.headers = ["X-Token: 1"]
            return QueueSnapshot.Row(task: task, bytesReceived: 0)
        }
        rows[1].task.state = .running
        rows[1].bytesReceived = 4_096
        rows[1].speed = 1_234.5
        rows[1].eta = 12
        rows[1].isStalled = true
        rows[1].connections = 4
        rows[1].split = 4
        rows[1].rateLimit = RateLimit(bytesPerSecond: 65_536)
        rows[1].segmentMap = SegmentMap(total: 100, spans: [.init(range: 0..<30, cell: .done), .init(range: 30..<100, cell: .waiting)])
        rows[1].task.totalBytes = 100
        rows[1].task.validators = RemoteValidators(etag: "\"e1\"", lastModified: "Tue, 01 Jul 2025 00:00:00 GMT")
        rows[2].task.state = .failed
        rows[2].task.requestedName = "asked.bin"
        rows[2].task.fileName = "decided.bin"
        rows[2].task.lastError = "the server said 404"
        rows[2].task.attempts = 3
        rows[2].task.kind = TaskKind.allCases.first
        rows[2].task.finishedAt = Date(timeIntervalSinceReferenceDate: 817_514_200.5)
        rows[2].retryAt = Date(timeIntervalSinceReferenceDate: 817_514_300.25)
        rows[count - 1].task.group = "other"
        return rows
    }

    @Test func packedRowsDecodeToTheRowsEncoded() throws {
        let rows = Self.rows()
        let json = try JSONEncoder().encode(PackedRows(rows))
        let decoded = try JSONDecoder().decode(PackedRows.self, from: json).rows
        #expect(decoded == rows)
        for (sent, read) in zip(rows, decoded) {
            #expect(read.task.group == sent.task.group && read.task.headers == sent.task.headers && read.split == sent.split)
        }
        // Tasks added together hold one copy of their details once read; another group's task its own.
        #expect(decoded[1].task.sharesDetails(with: decoded[0].task) && decoded[4].task.sharesDetails(with: decoded[3].task))
        #expect(!decoded[5].task.sharesDetails(with: decoded[4].task))
    }

    @Test func aPackedRowIsAFractionOfAKeyedOne() throws {
        let rows = Self.rows(1_000)
        let keyed = try JSONEncoder().encode(rows).count
        let packed = try JSONEncoder().encode(PackedRows(rows)).count
        // About 410 bytes a row keyed; packed, under 40 % of that.
        #expect(packed * 5 < keyed * 2, "\(packed / rows.count) bytes a row packed, \(keyed / rows.count) keyed")
    }

    @Test func aRowNamingNoSetOfDetailsIsRefused() throws {
        let json = try JSONEncoder().encode(PackedRows(Self.rows(3)))
        var object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        object["details"] = [Any]()
        let broken = try JSONSerialization.data(withJSONObject: object)
        #expect(throws: DecodingError.self) { _ = try JSONDecoder().decode(PackedRows.self, from: broken) }
    }
}
