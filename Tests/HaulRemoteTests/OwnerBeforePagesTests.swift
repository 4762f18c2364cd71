import Foundation
import HaulCore
import HaulReport
import HaulTestSupport
import Testing
@testable import HaulRemote

/// An owner older than the attached list's pages: it has no `haul.rows` (nor `haul.lines`), and its `haul.snapshot` knows no `pages`
/// (whole snapshots, and deltas of any size). The real dispatcher behind a filter that makes it so.
final class OwnerBeforePages: RPCService {
    let current: RPCDispatcher

    init(_ current: RPCDispatcher) { self.current = current }

    func answer(_ body: [UInt8], from caller: RPCCaller) async -> RPCReply {
        guard var request = (try? JSONValue.parse(body))?.objectValue else { return await current.answer(body, from: caller) }
        if request["method"] == .string("haul.rows") || request["method"] == .string("haul.lines") {
            return RPCReply(body: Array(#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found."}}"#.utf8), httpStatus: 400)
        }
        if var params = request["params"]?.arrayValue, var options = params.first?.objectValue {
            options["pages"] = nil
            params[0] = .object(options)
            request["params"] = .array(params)
        }
        return await current.answer(RPCDispatcher.encode(.object(request)), from: caller)
    }

    func notifications() -> AsyncStream<[UInt8]> { current.notifications() }
}

/// A newer list attached to an older owner takes its snapshots whole, as lists before pages did.
@Suite(.timeLimit(.minutes(1))) struct OwnerBeforePagesTests {
    static let count = 300

    @Test func aListAttachedToAnOwnerWithoutPagesTakesItsSnapshotsWhole() async throws {
        try await servingQueue(count: Self.count, service: { OwnerBeforePages($0) }) { controller, _, client in
            try await attach(client, to: controller)
        }
    }

    func attach(_ client: OwnerClient, to controller: DownloadController) async throws {
        // No pages: the list asks for the snapshot whole, and the mirror follows the owner as before.
        #expect(try await client.firstPage(limit: 100) == nil)
        #expect(try await client.wholeSnapshot(pageSize: 100).rows.count == Self.count)
        let remote = RemoteQueue(client: client, first: try await client.snapshot(), ownerProcessID: 42, pageSize: 100)
        defer { remote.close() }
        // More rows change than a page holds: the older owner sends them as one delta, which the list takes.
        await controller.perform(.pauseAll)
        try await eventually("every task shown paused", timeout: .seconds(20)) {
            remote.snapshots.read().rows.count == Self.count && remote.snapshots.read().rows.allSatisfy { $0.task.state == .paused }
        }
        #expect(remote.loss == nil)
        // `haul list` formats the older owner's snapshot itself.
        var lines: [String] = []
        #expect(try await client.forEachLines(format: QueueListing.Format()) { lines += $0.text.split(separator: "\n").map(String.init) } == Self.count)
        #expect(lines.map { String($0.prefix { $0 != " " }) } == (1...Self.count).map { "#\($0)" })
    }
}
