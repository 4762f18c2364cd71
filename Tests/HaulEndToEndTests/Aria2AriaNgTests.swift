import FaultServer
import Foundation
import HaulTestSupport
import Testing

extension Aria2Conformance {
    /// The requests AriaNg sends (its aria2RpcService.js), byte for byte in shape: every aria2 method with
    /// `token:SECRET` first, `system.*` without it, params left out when there are none, options as strings,
    /// and its main list as one `system.multicall` of getGlobalStat + tellActive/tellWaiting/tellStopped.
    @Suite(.timeLimit(.minutes(2)), .enabled(if: RPCClient.pythonClientsAvailable, "python3 with websocket-client is not installed"))
    struct Aria2AriaNgTests {
        /// AriaNg's `getBasicTaskParams()` plus what `getFullTaskParams()` adds.
        static let basicKeys = ["gid", "totalLength", "completedLength", "uploadSpeed", "downloadSpeed", "connections",
                                "numSeeders", "seeder", "status", "errorCode", "verifiedLength", "verifyIntegrityPending"]
        static let fullKeys = basicKeys + ["files", "bittorrent", "infoHash"]

        @Test func mainListQueueOrderAndGlobalOptions() async throws {
            let server = try FaultServer()
            defer { server.stop() }
            for (index, name) in ["a", "b", "c"].enumerated() {
                var plan = FaultPlan.file(size: 8 << 20, seed: 80 + UInt64(index))
                plan.throttle = 128 << 10
                server.route("/\(name).bin", plan)
            }
            server.route("/done.bin", .file(size: 50_000, seed: 84))
            let run = try HaulRun()
            let haul = try await Aria2Haul.start(run)

            // changeGlobalOption as AriaNg's settings page sends it: values as strings.
            #expect(try await haul.result("aria2.changeGlobalOption", [["max-concurrent-downloads": "1"]]) as? String == "OK")
            #expect(try await haul.result("aria2.changeGlobalOption", [["max-overall-download-limit": "1M"]]) as? String == "OK")
            let global = try #require(try await haul.result("aria2.getGlobalOption") as? [String: Any])
            #expect(global["max-concurrent-downloads"] as? String == "1")
            #expect(global["max-overall-download-limit"] as? String == "1048576", "aria2 reports the rate in bytes")
            // The settings haul runs with, not aria2's defaults a settings page would show instead.
            #expect(global["split"] as? String == "4")
            #expect(global["max-connection-per-server"] as? String == "8")
            #expect(global["min-split-size"] as? String == String(4 << 20))
            #expect(global["continue"] as? String == "false", "-c: a partial file another program left")
            #expect(global["always-resume"] as? String == "true")

            // addUri with AriaNg's options object.
            let done = try #require(try await haul.result(
                "aria2.addUri", [[server.url("/done.bin")], ["out": "done-renamed.bin", "dir": run.downloads]]) as? String)
            #expect(done.count == 16 && done.allSatisfy(\.isHexDigit))
            try await eventually("done-renamed.bin complete", timeout: .seconds(10)) { run.file("done-renamed.bin")?.count == 50_000 }
            var gids: [String] = []
            for name in ["a", "b", "c"] {
                gids.append(try #require(try await haul.result("aria2.addUri", [[server.url("/\(name).bin")], [:]]) as? String))
            }
            let (a, b, c) = (gids[0], gids[1], gids[2])
            try await eventually("a active", timeout: .seconds(10)) { try await haul.status(a, ["status"])["status"] as? String == "active" }

            // The main list: one multicall, each inner call with its own token, tellStopped from the end.
            let list = try await mainList(haul, full: true)
            let stat = try #require((list[0] as? [Any])?.first as? [String: Any])
            #expect(numbersAreStrings(stat))
            #expect(stat["numActive"] as? String == "1", "only max-concurrent-downloads run: \(stat)")
            #expect(stat["numWaiting"] as? String == "2")
            #expect(stat["numStopped"] as? String == "1")
            let active = try #require((list[1] as? [Any])?.first as? [[String: Any]])
            let waiting = try #require((list[2] as? [Any])?.first as? [[String: Any]])
            let stopped = try #require((list[3] as? [Any])?.first as? [[String: Any]])
            #expect(active.map { $0["gid"] as? String } == [a])
            #expect(waiting.map { $0["gid"] as? String } == [b, c])
            #expect(stopped.map { $0["gid"] as? String } == [done])
            for task in active + waiting + stopped {
                #expect(numbersAreStrings(task), "\(task)")
                #expect(Set(task.keys).isSubset(of: Set(Self.fullKeys)), "only the asked keys: \(task.keys)")
                #expect(Set(task.keys).isDisjoint(with: bitTorrentKeys), "no BitTorrent keys: \(task.keys)")
                let files = try #require(task["files"] as? [[String: Any]], "files is never missing: \(task)")
                #expect(files.count == 1 && (files[0]["uris"] as? [Any])?.isEmpty == false)
            }
            #expect((stopped[0]["files"] as? [[String: Any]])?.first?["path"] as? String == run.downloads + "/done-renamed.bin")
            #expect(stopped[0]["status"] as? String == "complete")
            #expect(waiting.allSatisfy { $0["status"] as? String == "waiting" })

            // changePosition: POS_SET to the front, then POS_CUR one back; the answer is the new index.
            #expect(try await haul.result("aria2.changePosition", [c, 0, "POS_SET"]) as? Int == 0)
            #expect(try await waitingGIDs(haul) == [c, b])
            #expect(try await haul.result("aria2.changePosition", [c, 1, "POS_CUR"]) as? Int == 1)
            #expect(try await waitingGIDs(haul) == [b, c])

            // forcePause the active one: with one slot, the next waiting one starts.
            #expect(try await haul.result("aria2.forcePause", [a]) as? String == a)
            try await eventually("b takes the slot", timeout: .seconds(5)) {
                try await haul.status(b, ["status"])["status"] as? String == "active"
            }
            #expect(try await haul.status(a, ["status"])["status"] as? String == "paused")
            #expect(try await activeGIDs(haul) == [b])
            // unpause makes it eligible again; still only one runs. (aria2 leaves it waiting behind the active one;
            // haul runs the queue in order, so a, first in the queue, takes the slot back and b waits.)
            #expect(try await haul.result("aria2.unpause", [a]) as? String == a)
            try await eventually("a no longer paused", timeout: .seconds(5)) {
                try await haul.status(a, ["status"])["status"] as? String != "paused"
            }
            try await eventually("one runs", timeout: .seconds(5)) { try await activeGIDs(haul).count == 1 }
            #expect(try await haul.call("aria2.unpause", [a]).error?["code"] as? Int == 1, "a is not paused any more")

            // Raising the limit lets the waiting ones run too.
            #expect(try await haul.result("aria2.changeGlobalOption", [["max-concurrent-downloads": "3"]]) as? String == "OK")
            try await eventually("three run", timeout: .seconds(5)) { try await activeGIDs(haul).count == 3 }
            let raised = try #require(try await haul.result("aria2.getGlobalOption") as? [String: Any])
            #expect(raised["max-concurrent-downloads"] as? String == "3")

            // forceRemove, then the stopped list (newest first with AriaNg's -1 offset), removeDownloadResult, purge.
            #expect(try await haul.result("aria2.forceRemove", [b]) as? String == b)
            try await eventually("b removed", timeout: .seconds(5)) { try await haul.status(b, ["status"])["status"] as? String == "removed" }
            let newestFirst = try #require(try await haul.result("aria2.tellStopped", [-1, 1000, Self.basicKeys]) as? [[String: Any]])
            #expect(newestFirst.map { $0["gid"] as? String } == [b, done])
            #expect(newestFirst.first?["status"] as? String == "removed")
            let oldestFirst = try #require(try await haul.result("aria2.tellStopped", [0, 1000, ["gid"]]) as? [[String: Any]])
            #expect(oldestFirst.map { $0["gid"] as? String } == [done, b])
            #expect(oldestFirst.allSatisfy { $0.keys.sorted() == ["gid"] })
            #expect(try await haul.result("aria2.removeDownloadResult", [b]) as? String == "OK")
            #expect(try await stoppedGIDs(haul) == [done])
            #expect(try await haul.call("aria2.tellStatus", [b]).error?["code"] as? Int == 1)
            #expect(try await haul.result("aria2.purgeDownloadResult") as? String == "OK")
            #expect(try await stoppedGIDs(haul) == [])
            #expect(run.file("done-renamed.bin")?.count == 50_000, "purging a result keeps its file")
            let finalStat = try #require(try await haul.result("aria2.getGlobalStat") as? [String: Any])
            #expect(finalStat["numStopped"] as? String == "0")
            #expect(finalStat["numActive"] as? String == "2")
        }

        @Test func idsParamsAndTokens() async throws {
            let run = try HaulRun()
            let haul = try await Aria2Haul.start(run)

            // Integer and string ids come back as they were sent.
            let integer = try await haul.post(["jsonrpc": "2.0", "id": 42, "method": "aria2.getVersion", "params": [haul.token]])
            #expect(integer.status == 200)
            #expect(integer.object?["id"] as? Int == 42)
            #expect(integer.body.contains(#""id":42"#), "a number, not a string: \(integer.body)")
            #expect((integer.object?["result"] as? [String: Any])?["version"] is String)
            let string = try await haul.post(["jsonrpc": "2.0", "id": "AriaNg_1700000000_0.5", "method": "aria2.getVersion", "params": [haul.token]])
            #expect(string.object?["id"] as? String == "AriaNg_1700000000_0.5")

            // AriaNg leaves `params` out when a system method has none.
            let methods = try await haul.post(["jsonrpc": "2.0", "id": "m", "method": "system.listMethods"])
            #expect(methods.status == 200)
            let names = try #require(methods.object?["result"] as? [String])
            for name in ["aria2.addUri", "aria2.tellStopped", "aria2.changePosition", "aria2.purgeDownloadResult", "system.multicall"] {
                #expect(names.contains(name))
            }
            let notifications = try await haul.post(["jsonrpc": "2.0", "id": "n", "method": "system.listNotifications"])
            #expect((notifications.object?["result"] as? [String])?.contains("aria2.onDownloadError") == true)
            // An aria2 method without params (so without the token) on TCP is refused, after the delay.
            let bare = try await haul.post(["jsonrpc": "2.0", "id": "g", "method": "aria2.getGlobalStat"])
            #expect(bare.status >= 400)
            #expect(bare.error?["message"] as? String == "Unauthorized")

            // A multicall with no secret anywhere is refused per call, one with tokens answers each.
            let refused = try await haul.post(["jsonrpc": "2.0", "id": "r", "method": "system.multicall",
                                               "params": [[["methodName": "aria2.getGlobalStat"]]]])
            let refusedResult = try #require(refused.object?["result"] as? [Any], "\(refused.body)")
            #expect((refusedResult.first as? [String: Any])?["message"] as? String == "Unauthorized")

            // Batch (a JSON array of requests) keeps ids and order.
            let batch = try await haul.post([
                ["jsonrpc": "2.0", "id": 1, "method": "aria2.getGlobalStat", "params": [haul.token]],
                ["jsonrpc": "2.0", "id": "two", "method": "aria2.tellActive", "params": [haul.token, ["gid"]]],
            ])
            let answers = try #require(batch.json as? [[String: Any]], "\(batch.body)")
            #expect(answers.count == 2)
            #expect(answers.first?["id"] as? Int == 1)
            #expect(answers.last?["id"] as? String == "two")
            #expect(answers.last?["result"] is [Any])

            // The GET form: params as base64 of the JSON list.
            let params = Data(try JSONSerialization.data(withJSONObject: [haul.token])).base64EncodedString()
            let query = "method=aria2.getVersion&id=get1&params=\(params.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? params)"
            let get = try await RPCClient.call(haul.url + "?" + query, method: "GET")
            #expect(get.status == 200, "\(get.body)")
            #expect(get.object?["id"] as? String == "get1")

            // The local socket needs no secret: without a token, and with any token (aria2 without --rpc-secret ignores it).
            let socket = run.state + "/haul.sock"
            for params in [[], ["token:anything"]] {
                let body = String(decoding: try JSONSerialization.data(withJSONObject: [
                    "jsonrpc": "2.0", "id": "s", "method": "aria2.getGlobalStat", "params": params,
                ]), as: UTF8.self)
                let curl = try HaulProcess(URL(fileURLWithPath: "/usr/bin/curl"), arguments: [
                    "-sS", "--max-time", "10", "--unix-socket", socket, "-H", "Content-Type: application/json",
                    "--data-binary", body, "http://localhost/jsonrpc",
                ])
                #expect(try await curl.waitForExit(timeout: .seconds(15)) == 0)
                let reply = try JSONSerialization.jsonObject(with: Data(curl.stdoutText().utf8)) as? [String: Any]
                #expect((reply?["result"] as? [String: Any])?["numActive"] as? String == "0", "\(curl.stdoutText())")
            }
        }

        /// AriaNg's "pause after adding" sends aria2's `pause: "true"` with addUri: the task waits paused.
        @Test func addUriWithPauseOption() async throws {
            let server = try FaultServer()
            defer { server.stop() }
            var slow = FaultPlan.file(size: 4 << 20, seed: 85)
            slow.throttle = 256 << 10
            server.route("/held.bin", slow)
            let run = try HaulRun()
            let haul = try await Aria2Haul.start(run)
            let gid = try #require(try await haul.result(
                "aria2.addUri", [[server.url("/held.bin")], ["pause": "true", "dir": run.downloads]]) as? String)
            #expect(try await haul.status(gid, ["status"])["status"] as? String == "paused")
            #expect(try await activeGIDs(haul).isEmpty)
            #expect(try await haul.result("aria2.unpause", [gid]) as? String == gid)
            try await eventually("held.bin active", timeout: .seconds(10)) {
                try await haul.status(gid, ["status"])["status"] as? String == "active"
            }
        }

        // MARK: - AriaNg's calls

        /// The multicall AriaNg's main page polls: getGlobalStat, tellActive, tellWaiting(0, 1000), tellStopped(-1, 1000).
        func mainList(_ haul: Aria2Haul, full: Bool) async throws -> [Any] {
            let keys = full ? Self.fullKeys : Self.basicKeys
            let calls: [[String: Any]] = [
                ["methodName": "aria2.getGlobalStat", "params": [haul.token]],
                ["methodName": "aria2.tellActive", "params": [haul.token, keys]],
                ["methodName": "aria2.tellWaiting", "params": [haul.token, 0, 1000, keys]],
                ["methodName": "aria2.tellStopped", "params": [haul.token, -1, 1000, keys]],
            ]
            let answer = try await haul.post(
                ["jsonrpc": "2.0", "id": "AriaNg_1", "method": "system.multicall", "params": [calls]])
            #expect(answer.status == 200)
            let results = try #require(answer.object?["result"] as? [Any], "\(answer.body)")
            #expect(results.count == 4)
            return results
        }

        func waitingGIDs(_ haul: Aria2Haul) async throws -> [String] {
            (try await haul.result("aria2.tellWaiting", [0, 1000, ["gid"]]) as? [[String: Any]] ?? []).compactMap { $0["gid"] as? String }
        }

        func activeGIDs(_ haul: Aria2Haul) async throws -> [String] {
            (try await haul.result("aria2.tellActive", [["gid"]]) as? [[String: Any]] ?? []).compactMap { $0["gid"] as? String }
        }

        func stoppedGIDs(_ haul: Aria2Haul) async throws -> [String] {
            (try await haul.result("aria2.tellStopped", [-1, 1000, ["gid"]]) as? [[String: Any]] ?? []).compactMap { $0["gid"] as? String }
        }
    }
}
