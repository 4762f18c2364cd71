import Foundation
import HaulTestSupport
import Testing

extension Aria2Conformance {
    /// What browser extensions that hand links to aria2 send: one `aria2.addUri([url], {out, dir, header})`
    /// POSTed as `text/plain` (no preflight) with `token:SECRET` first.
    @Suite(.timeLimit(.minutes(2)), .enabled(if: RPCClient.pythonClientsAvailable, "python3 with websocket-client is not installed"))
    struct Aria2BrowserExtensionTests {
        @Test func addUriWithOutDirAndHeaders() async throws {
            let run = try HaulRun()
            let allowed = run.root.path + "/browser"
            let elsewhere = run.root.path + "/elsewhere"
            try FileManager.default.createDirectory(atPath: allowed, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
            let log = run.root.file("requests.jsonl")
            let server = try RPCClient.python([RPCClient.scripts + "/header_server.py", log, "--lifetime", "90"])
            defer { server.kill() }
            let portLine = try await server.waitForOutput(containing: "PORT ", in: .stdout, timeout: .seconds(15))
            let origin = "http://127.0.0.1:" + String(portLine.dropFirst("PORT ".count))
            let haul = try await Aria2Haul.start(run, arguments: ["--rpc-allowed-dir", allowed])
            let before = Self.files(under: run.root.path)

            let extensionHeaders = ["Content-Type: text/plain;charset=UTF-8", "Origin: chrome-extension://abcdefghijklmnop"]
            let headers = ["Referer: https://shop.example/item/7", "Cookie: session=abc123; theme=dark",
                           "User-Agent: Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0"]
            let answer = try await haul.post([
                "jsonrpc": "2.0", "method": "aria2.addUri", "id": "ext-1",
                "params": [haul.token, [origin + "/export?id=7&size=123457"],
                           ["out": "report 7.pdf", "dir": allowed, "header": headers]],
            ], headers: extensionHeaders)
            #expect(answer.status == 200, "\(answer.body)")
            let gid = try #require(answer.object?["result"] as? String, "\(answer.body)")
            #expect(answer.headers["access-control-allow-origin"] == nil, "no CORS without --rpc-allow-origin")
            // The path is the `out` name from the start (AriaNg shows the file's name from it).
            let early = try await haul.status(gid, ["files"])
            #expect((early["files"] as? [[String: Any]])?.first?["path"] as? String == allowed + "/report 7.pdf")
            try await eventually("the file lands in the allowed directory", timeout: .seconds(15)) {
                FileManager.default.contents(atPath: allowed + "/report 7.pdf")?.count == 123_457
            }
            let status = try await eventuallyValue("the task complete", timeout: .seconds(10)) {
                let status = try await haul.status(gid)
                return status["status"] as? String == "complete" ? status : nil
            }
            #expect(status["dir"] as? String == allowed)
            #expect((status["files"] as? [[String: Any]])?.first?["path"] as? String == allowed + "/report 7.pdf")
            // Each header reached the server as the extension gave it.
            let requests = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            let received = try #require(requests.first?["headers"] as? [String: String], "no request recorded")
            let byName = Dictionary(received.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
            #expect(byName["referer"] == "https://shop.example/item/7")
            #expect(byName["cookie"] == "session=abc123; theme=dark")
            #expect(byName["user-agent"] == "Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0")
            // `header` as one string (some extensions send that) works too.
            let single = try await haul.post([
                "jsonrpc": "2.0", "method": "aria2.addUri", "id": "ext-2",
                "params": [haul.token, [origin + "/single?size=1000"], ["header": "Referer: https://one.example/"]],
            ], headers: extensionHeaders)
            #expect(single.status == 200, "\(single.body)")
            try await eventually("single downloaded", timeout: .seconds(10)) { run.file("single")?.count == 1000 }

            // Refusals: dir outside the allowed ones, out with a path in it, a header haul must set itself.
            let refusals: [[String: Any]] = [
                ["dir": elsewhere],
                ["dir": allowed + "/../elsewhere"],
                ["out": "../x"],
                ["out": "sub/x"],
                ["dir": allowed, "out": "../../x"],
                ["header": ["Range: bytes=0-"]],
            ]
            let stoppedBefore = try #require(try await haul.result("aria2.tellStopped", [0, 100]) as? [Any]).count
            for options in refusals {
                let refused = try await haul.post([
                    "jsonrpc": "2.0", "method": "aria2.addUri", "id": "bad",
                    "params": [haul.token, [origin + "/x?size=10"], options],
                ], headers: extensionHeaders)
                #expect(refused.status == 400, "\(options) → \(refused.status) \(refused.body)")
                #expect(refused.error?["code"] as? Int == 1, "\(options) → \(refused.body)")
                #expect((refused.error?["message"] as? String)?.isEmpty == false)
            }
            let waiting = try #require(try await haul.result("aria2.tellWaiting", [0, 100]) as? [Any])
            let active = try #require(try await haul.result("aria2.tellActive") as? [Any])
            #expect(waiting.isEmpty && active.isEmpty, "a refused addUri queues nothing")
            // Not even a task that failed at once: the stopped ones are those from before.
            let stopped = try #require(try await haul.result("aria2.tellStopped", [0, 100]) as? [Any])
            #expect(stopped.count == stoppedBefore, "a refused addUri queues nothing")

            // Nothing was written anywhere but the download directories (and haul's state and our own files).
            let after = Self.files(under: run.root.path)
            let written = after.subtracting(before).filter { path in
                !["state", "downloads", "browser"].contains { path == $0 || path.hasPrefix($0 + "/") } && path != "requests.jsonl"
            }
            #expect(written.isEmpty, "written outside the download directories: \(written)")
            #expect(Self.files(under: elsewhere).isEmpty)
            #expect(!FileManager.default.fileExists(atPath: run.root.path + "/x"))
            #expect(!FileManager.default.fileExists(atPath: allowed + "/sub"))
        }

        /// Every file and directory below `root`, relative to it.
        static func files(under root: String) -> Set<String> {
            Set(FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? [])
        }
    }
}
