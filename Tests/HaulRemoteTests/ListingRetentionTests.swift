import Foundation
import HaulCore
import HaulTestSupport
import Testing
@testable import HaulRemote

/// What a daemon keeps after answering a listing (issue 29: a `haul list` and three pages of `tellWaiting` left
/// 45–55 MiB behind): no snapshot beyond the latest, and the snapshot's JSON built a row at a time.
@Suite(.timeLimit(.minutes(1))) struct ListingRetentionTests {
    let store = MemoryTaskStore()
    let driver = ScriptedDriver()
    let box = SnapshotBox()
    let downloads = "/tmp/haul-rpc-tests"

    func make() async -> (DownloadController, RPCDispatcher) {
        let controller = DownloadController(store: store, driver: driver, snapshots: box, configuration: .init(maxConcurrent: 1))
        await controller.publishInitialSnapshot()
        let access = ControllerAccess(controller: controller, snapshots: box, stop: { await controller.stop() })
        let dispatcher = RPCDispatcher(
            access: access, intake: TaskIntake(defaultDirectory: downloads, allowedDirectories: []), secret: "s3cret",
            processID: 42)
        return (controller, dispatcher)
    }

    func call(_ dispatcher: RPCDispatcher, _ method: String, _ params: String, over transport: RPCCaller.Transport = .localSocket) async throws -> Any {
        let text = #"{"jsonrpc":"2.0","id":1,"method":"\#(method)","params":["token:s3cret"\#(params)]}"#
        let reply = await dispatcher.answer(Array(text.utf8), from: RPCCaller(transport: transport))
        let body = try #require(reply.body)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        return try #require(object["result"], "\(object)")
    }

    @Test func aListingAndPagesKeepNoSnapshotAfterTheirAnswers() async throws {
        let (controller, dispatcher) = await make()
        await controller.perform(.add((1...30).map { NewTask(url: "http://127.0.0.1:9/f\($0).bin", directory: downloads) }))
        // `haul list` and `aria2.tellWaiting(0, 10)`, then the queue changes and they ask again.
        for round in 0..<3 {
            let listed = try #require(try await call(dispatcher, "haul.snapshot", ",{}") as? [String: Any])
            #expect((listed["rows"] as? [Any])?.count == 30)
            let page = try #require(try await call(dispatcher, "aria2.tellWaiting", ",0,10", over: .tcp) as? [Any])
            #expect(page.count == 10)
            await controller.perform(.pause(TaskID(Int64(10 + round))))
        }
        #expect(dispatcher.haul.history.count == 0, "snapshots kept after plain listings")
        // An attached list asks for deltas: that one snapshot is kept for its next call, and no more than the bound.
        for _ in 0..<6 {
            _ = try await call(dispatcher, "haul.snapshot", #",{"after":0,"delta":true,"owner":42,"timeout":0}"#)
            await controller.perform(.resume(TaskID(10)))
            await controller.perform(.pause(TaskID(10)))
        }
        #expect(dispatcher.haul.history.count == SnapshotHistory.capacity)
    }

    @Test func theSnapshotWrittenRowByRowDecodesToTheSameSnapshot() async throws {
        let (controller, _) = await make()
        await controller.perform(.add((1...12).map { NewTask(url: "http://127.0.0.1:9/g\($0).bin", directory: downloads) }))
        try await eventually("twelve rows", timeout: .seconds(10)) { box.read().rows.count == 12 }
        var rows = box.read().rows
        #expect(rows.count == 12)
        rows[1].task.state = .running
        rows[1].speed = 1234.5
        var snapshot = QueueSnapshot(rows: rows, maxConcurrent: 2, totalSpeed: 1234.5, sequence: 9)
        #expect(snapshot.running.count == 1)
        // The marker the rows go after, inside a string: it must not be mistaken for the key.
        snapshot.warning = #"disk says "rows":[] today"#
        let json = try SnapshotJSON.encode(snapshot)
        let decoded = try JSONDecoder().decode(QueueSnapshot.self, from: Data(json))
        #expect(decoded == snapshot)
        #expect(decoded.running.map(\.id) == snapshot.running.map(\.id))
        #expect(decoded.rows.count == 12)
    }

    @Test func aLongArrayEncodedAnElementAtATimeIsTheSameJSON() throws {
        let items: [JSONValue] = (0..<40).map { ["gid": .string(String($0, radix: 16)), "dir": "/a/b", "n": .int(Int64($0))] }
        let whole = try JSONSerialization.jsonObject(with: Data(RPCDispatcher.encode(.array(items)))) as? NSArray
        let apart = try JSONSerialization.jsonObject(with: Data(RPCDispatcher.encodeElementwise(items))) as? NSArray
        #expect(whole != nil && whole == apart)
        let reply = RPCDispatcher.encodeResponse(.success(.value(.array(items))), id: .int(3))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(reply)) as? [String: Any])
        #expect(object["id"] as? Int == 3 && (object["result"] as? NSArray) == whole)
    }
}
