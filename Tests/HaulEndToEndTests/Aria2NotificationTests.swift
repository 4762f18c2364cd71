import FaultServer
import Foundation
import HaulTestSupport
import Testing

extension Aria2Conformance {
    /// aria2's WebSocket notifications, read by websocket-client (the library aria2p listens with), for every state change.
    @Suite(.timeLimit(.minutes(2)), .enabled(if: RPCClient.pythonClientsAvailable, "python3 with websocket-client is not installed"))
    struct Aria2NotificationTests {
        @Test func everyStateChangeIsNotified() async throws {
            let server = try FaultServer()
            defer { server.stop() }
            var slow = FaultPlan.file(size: 8 << 20, seed: 91)
            slow.throttle = 256 << 10
            server.route("/slow.bin", slow)
            server.route("/quick.bin", .file(size: 120_000, seed: 92))
            server.route("/missing.bin", .status(404))
            let run = try HaulRun()
            let haul = try await Aria2Haul.start(run)
            let listener = try await RPCClient.webSocket(haul.webSocketURL, token: haul.token)
            defer { listener.closeStdin() }
            let second = try await RPCClient.webSocket(haul.webSocketURL, token: haul.token)
            defer { second.closeStdin() }

            let slowGID = try #require(try await haul.result("aria2.addUri", [[server.url("/slow.bin")]]) as? String)
            try await eventually("onDownloadStart", timeout: .seconds(10)) {
                notifiedGIDs(listener, "aria2.onDownloadStart") == [slowGID]
            }
            _ = try await haul.result("aria2.forcePause", [slowGID])
            try await eventually("onDownloadPause", timeout: .seconds(5)) {
                notifiedGIDs(listener, "aria2.onDownloadPause") == [slowGID]
            }
            _ = try await haul.result("aria2.unpause", [slowGID])
            try await eventually("onDownloadStart again", timeout: .seconds(5)) {
                notifiedGIDs(listener, "aria2.onDownloadStart") == [slowGID, slowGID]
            }
            _ = try await haul.result("aria2.forceRemove", [slowGID])
            try await eventually("onDownloadStop", timeout: .seconds(5)) {
                notifiedGIDs(listener, "aria2.onDownloadStop") == [slowGID]
            }

            let quickGID = try #require(try await haul.result("aria2.addUri", [[server.url("/quick.bin")]]) as? String)
            try await eventually("onDownloadComplete", timeout: .seconds(10)) {
                notifiedGIDs(listener, "aria2.onDownloadComplete") == [quickGID]
            }
            let missingGID = try #require(try await haul.result("aria2.addUri", [[server.url("/missing.bin")]]) as? String)
            try await eventually("onDownloadError", timeout: .seconds(10)) {
                notifiedGIDs(listener, "aria2.onDownloadError") == [missingGID]
            }
            let failed = try await haul.status(missingGID, ["status", "errorCode", "errorMessage"])
            #expect(failed["status"] as? String == "error")
            #expect(failed["errorCode"] as? String == "3", "aria2's code for a resource not found: \(failed)")
            #expect((failed["errorMessage"] as? String)?.isEmpty == false)

            // Each message is exactly aria2's shape, and every client got the same ones.
            for message in webSocketNotifications(listener) {
                #expect(message["jsonrpc"] as? String == "2.0")
                #expect(message["id"] == nil, "a notification has no id: \(message)")
                let params = try #require(message["params"] as? [[String: Any]])
                #expect(params.count == 1 && params[0].keys.sorted() == ["gid"])
            }
            try await eventually("the second client got them all", timeout: .seconds(5)) {
                webSocketNotifications(second).count == webSocketNotifications(listener).count
            }
            #expect(webSocketNotifications(second).compactMap { $0["method"] as? String }
                == webSocketNotifications(listener).compactMap { $0["method"] as? String })
            // In order; the 404 task may fail before it is reported as started, so its start is not counted.
            let sequence = webSocketNotifications(listener).compactMap { message -> String? in
                let method = message["method"] as? String
                let gid = ((message["params"] as? [Any])?.first as? [String: Any])?["gid"] as? String
                return method == "aria2.onDownloadStart" && gid == missingGID ? nil : method.map { "\($0) \(gid ?? "")" }
            }
            #expect(sequence == [
                "aria2.onDownloadStart \(slowGID)", "aria2.onDownloadPause \(slowGID)", "aria2.onDownloadStart \(slowGID)",
                "aria2.onDownloadStop \(slowGID)", "aria2.onDownloadStart \(quickGID)", "aria2.onDownloadComplete \(quickGID)",
                "aria2.onDownloadError \(missingGID)",
            ])
        }

        @Test func requestsOverTheWebSocketNeedTheToken() async throws {
            let run = try HaulRun()
            let haul = try await Aria2Haul.start(run)
            let good = #"{"jsonrpc":"2.0","id":"w1","method":"aria2.getGlobalStat","params":["token:\#(haul.secret)"]}"#
            let bad = #"{"jsonrpc":"2.0","id":"w2","method":"aria2.getGlobalStat","params":["token:wrong"]}"#
            let client = try RPCClient.python(
                [RPCClient.clientScript, "ws", haul.webSocketURL, "--send", good, "--send", bad, "--seconds", "15"], input: .pipe)
            defer { client.closeStdin() }
            try await eventually("both answers", timeout: .seconds(10)) { webSocketMessages(client).count == 2 }
            let answers = Dictionary(webSocketMessages(client).map { ($0["id"] as? String ?? "", $0) }, uniquingKeysWith: { a, _ in a })
            #expect((answers["w1"]?["result"] as? [String: Any])?["numActive"] as? String == "0")
            let error = try #require(answers["w2"]?["error"] as? [String: Any])
            #expect(error["code"] as? Int == 1)
            #expect(error["message"] as? String == "Unauthorized")
        }
    }
}
