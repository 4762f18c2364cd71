import Foundation
import HaulCore
import HaulTestSupport
import Testing
@testable import HaulRemote

/// The JSON-RPC dispatcher with the exact request shapes aria2 clients send, on a real controller
/// (with a scripted engine).
@Suite(.timeLimit(.minutes(1))) struct DispatcherTests {
    let store = MemoryTaskStore()
    let driver = ScriptedDriver()
    let box = SnapshotBox()
    let downloads = "/tmp/haul-rpc-tests"

    func make(secret: String? = "s3cret") async -> (DownloadController, RPCDispatcher) {
        let controller = DownloadController(
            store: store, driver: driver, snapshots: box, configuration: .init(maxConcurrent: 1))
        await controller.publishInitialSnapshot()
        let access = ControllerAccess(controller: controller, snapshots: box, stop: { await controller.stop() })
        let dispatcher = RPCDispatcher(
            access: access, intake: TaskIntake(defaultDirectory: downloads, allowedDirectories: []), secret: secret,
            processID: 42)
        return (controller, dispatcher)
    }

    func send(_ dispatcher: RPCDispatcher, _ text: String, over transport: RPCCaller.Transport = .tcp) async -> (RPCReply, Any?) {
        let reply = await dispatcher.answer(Array(text.utf8), from: RPCCaller(transport: transport))
        let json = reply.body.flatMap { try? JSONSerialization.jsonObject(with: Data($0)) }
        return (reply, json)
    }

    func result(_ json: Any?) -> Any? { (json as? [String: Any])?["result"] }
    func error(_ json: Any?) -> [String: Any]? { (json as? [String: Any])?["error"] as? [String: Any] }

    @Test func integerAndStringIdsComeBackAsSent() async {
        let (_, dispatcher) = await make()
        let (_, numeric) = await send(dispatcher, #"{"jsonrpc":"2.0","id":7,"method":"aria2.getVersion","params":["token:s3cret"]}"#)
        #expect((numeric as? [String: Any])?["id"] as? Int == 7)
        let (_, text) = await send(dispatcher, #"{"jsonrpc":"2.0","id":"qwer","method":"aria2.getVersion","params":["token:s3cret"]}"#)
        #expect((text as? [String: Any])?["id"] as? String == "qwer")
    }

    @Test func theSecretIsCheckedOnTCPAndAWrongOneIsUnauthorized() async {
        let (_, dispatcher) = await make()
        for params in [#"[]"#, #"["token:nope"]"#, #"["s3cret"]"#] {
            let (reply, json) = await send(dispatcher, #"{"jsonrpc":"2.0","id":1,"method":"aria2.getGlobalStat","params":\#(params)}"#)
            #expect(reply.unauthorized)
            #expect(reply.httpStatus == 400)
            #expect(error(json)?["code"] as? Int == 1)
            #expect(error(json)?["message"] as? String == "Unauthorized")
        }
        // Missing params is no params: still unauthorized on TCP, fine on the owner's socket.
        let (missing, _) = await send(dispatcher, #"{"jsonrpc":"2.0","id":1,"method":"aria2.getGlobalStat"}"#)
        #expect(missing.unauthorized)
        let (local, json) = await send(dispatcher, #"{"jsonrpc":"2.0","id":1,"method":"aria2.getGlobalStat"}"#, over: .localSocket)
        #expect(!local.unauthorized)
        #expect((result(json) as? [String: Any])?["numActive"] as? String == "0")
        // A TCP listener without a secret refuses everything.
        let (_, open) = await make(secret: nil)
        #expect(await send(open, #"{"jsonrpc":"2.0","id":1,"method":"aria2.getGlobalStat","params":["token:"]}"#).0.unauthorized)
    }

    @Test func theSecretIsNeverEchoed() async {
        let (_, dispatcher) = await make()
        let (reply, _) = await send(dispatcher, #"{"jsonrpc":"2.0","id":1,"method":"aria2.getGlobalOption","params":["token:s3cret"]}"#)
        #expect(!String(decoding: reply.body ?? [], as: UTF8.self).contains("s3cret"))
    }

    @Test func statusObjectsFollowAria2sRules() async {
        let (_, dispatcher) = await make()
        let (_, added) = await send(dispatcher, #"{"jsonrpc":"2.0","id":1,"method":"aria2.addUri","params":["token:s3cret",["http://127.0.0.1:9/a.bin"],{"out":"a.bin"}]}"#)
        let gid = try? #require(result(added) as? String)
        #expect(gid == "0000000000000001")
        let (_, status) = await send(dispatcher, #"{"jsonrpc":"2.0","id":2,"method":"aria2.tellStatus","params":["token:s3cret","0000000000000001"]}"#)
        let object = result(status) as? [String: Any] ?? [:]
        #expect(object["status"] as? String == "waiting")
        for key in ["totalLength", "completedLength", "downloadSpeed", "uploadSpeed", "connections"] {
            #expect(object[key] is String, "\(key) is a decimal string")
        }
        let files = object["files"] as? [[String: Any]] ?? []
        #expect(files.count == 1)
        #expect(((files.first?["uris"]) as? [[String: Any]])?.first?["uri"] as? String == "http://127.0.0.1:9/a.bin")
        #expect(object["bittorrent"] == nil && object["infoHash"] == nil && object["numSeeders"] == nil)
        // A key filter returns those keys only.
        let (_, filtered) = await send(dispatcher, #"{"jsonrpc":"2.0","id":3,"method":"aria2.tellWaiting","params":["token:s3cret",0,1000,["gid","status"]]}"#)
        #expect((result(filtered) as? [[String: Any]])?.first.map { Set($0.keys) } == ["gid", "status"])
    }

    @Test func anOptionHaulLacksIsRefusedByNameAndHarmlessOnesAreIgnored() async {
        let (_, dispatcher) = await make()
        // A proxy option haul lacks: refused, nothing added (the traffic must not go direct unnoticed).
        let (_, proxied) = await send(dispatcher, #"{"jsonrpc":"2.0","id":1,"method":"aria2.addUri","params":["token:s3cret",["http://127.0.0.1:9/a.bin"],{"http-proxy":"http://127.0.0.1:3128"}]}"#)
        #expect(error(proxied)?["message"] as? String == "We encountered a problem while processing the option '--http-proxy'.")
        #expect(store.task(1) == nil)
        // What a browser extension sends is applied; BitTorrent keys and switches haul always has are ignored.
        let (_, added) = await send(dispatcher, #"{"jsonrpc":"2.0","id":2,"method":"aria2.addUri","params":["token:s3cret",["http://127.0.0.1:9/b.bin"],{"referer":"http://127.0.0.1/page","user-agent":"Ext/1","header":["X-A: 1"],"split":"2","max-download-limit":"1M","continue":"true","bt-tracker":"udp://x"}]}"#)
        #expect(result(added) as? String == "0000000000000001", "\(String(describing: added))")
        #expect(store.task(1)?.headers == ["X-A: 1", "Referer: http://127.0.0.1/page", "User-Agent: Ext/1"])
        let (_, options) = await send(dispatcher, #"{"jsonrpc":"2.0","id":3,"method":"aria2.getOption","params":["token:s3cret","0000000000000001"]}"#)
        let taskOptions = result(options) as? [String: Any]
        #expect(taskOptions?["max-download-limit"] as? String == "1048576")
        #expect(taskOptions?["referer"] as? String == "http://127.0.0.1/page")
        #expect(taskOptions?["user-agent"] as? String == "Ext/1")
        #expect(taskOptions?["max-tries"] as? String == "5", "what the download inherits is answered too")
        #expect(taskOptions?["haul-ignored"] as? String == "bt-tracker,continue", "the options addUri ignored are named")
        // changeOption takes what can change live and names what cannot.
        let (_, unchangeable) = await send(dispatcher, #"{"jsonrpc":"2.0","id":4,"method":"aria2.changeOption","params":["token:s3cret","0000000000000001",{"out":"c.bin"}]}"#)
        #expect(error(unchangeable)?["message"] as? String == "We encountered a problem while processing the option '--out'.")
        // changeGlobalOption likewise: nothing changes when one option cannot.
        let (_, global) = await send(dispatcher, #"{"jsonrpc":"2.0","id":5,"method":"aria2.changeGlobalOption","params":["token:s3cret",{"max-concurrent-downloads":"2","on-download-complete":"/bin/sh"}]}"#)
        #expect(error(global)?["message"] as? String == "We encountered a problem while processing the option '--on-download-complete'.")
        let (_, after) = await send(dispatcher, #"{"jsonrpc":"2.0","id":6,"method":"aria2.getGlobalOption","params":["token:s3cret"]}"#)
        #expect((result(after) as? [String: Any])?["max-concurrent-downloads"] as? String == "1")
        let (_, harmless) = await send(dispatcher, #"{"jsonrpc":"2.0","id":7,"method":"aria2.changeGlobalOption","params":["token:s3cret",{"max-concurrent-downloads":"2","bt-max-peers":"9"}]}"#)
        #expect(result(harmless) as? String == "OK")
    }

    @Test func changeUriEditsTheLinksAsAria2Does() async {
        let (_, dispatcher) = await make()
        _ = await send(dispatcher, #"{"jsonrpc":"2.0","id":1,"method":"aria2.addUri","params":["token:s3cret",["http://127.0.0.1:9/a.bin"]]}"#)
        // Added at the end: a mirror, the link stays.
        let (_, added) = await send(dispatcher, #"{"jsonrpc":"2.0","id":2,"method":"aria2.changeUri","params":["token:s3cret","0000000000000001",1,[],["http://localhost:9/b.bin"]]}"#)
        #expect(result(added) as? [Int] == [0, 1])
        #expect(store.task(1)?.url == "http://127.0.0.1:9/a.bin" && store.task(1)?.mirrors == ["http://localhost:9/b.bin"])
        // At position 0: the task's link; the old one becomes a mirror.
        let (_, first) = await send(dispatcher, #"{"jsonrpc":"2.0","id":3,"method":"aria2.changeUri","params":["token:s3cret","0000000000000001",1,[],["http://127.0.0.2:9/c.bin"],0]}"#)
        #expect(result(first) as? [Int] == [0, 1])
        #expect(store.task(1)?.url == "http://127.0.0.2:9/c.bin")
        #expect(store.task(1)?.mirrors == ["http://127.0.0.1:9/a.bin", "http://localhost:9/b.bin"])
        // Deleting the link makes the next one the task's; deleting them all is refused.
        let (_, removed) = await send(dispatcher, #"{"jsonrpc":"2.0","id":4,"method":"aria2.changeUri","params":["token:s3cret","0000000000000001",1,["http://127.0.0.2:9/c.bin","http://nowhere/x"],[]]}"#)
        #expect(result(removed) as? [Int] == [1, 0])
        #expect(store.task(1)?.url == "http://127.0.0.1:9/a.bin" && store.task(1)?.mirrors == ["http://localhost:9/b.bin"])
        let (_, all) = await send(dispatcher, #"{"jsonrpc":"2.0","id":5,"method":"aria2.changeUri","params":["token:s3cret","0000000000000001",1,["http://127.0.0.1:9/a.bin","http://localhost:9/b.bin"],[]]}"#)
        #expect((error(all)?["message"] as? String)?.contains("keeps one link") == true)
        #expect(store.task(1)?.mirrors == ["http://localhost:9/b.bin"])
    }

    /// A new first link with more mirrors than a task takes is refused whole: the link is not changed before the
    /// mirrors are refused.
    @Test func changeUriWithTooManyMirrorsChangesNothing() async {
        let (_, dispatcher) = await make()
        _ = await send(dispatcher, #"{"jsonrpc":"2.0","id":1,"method":"aria2.addUri","params":["token:s3cret",["http://127.0.0.1:9/a.bin"]]}"#)
        let links = (0...TaskIntake.maxMirrors + 1).map { "\"http://127.0.0.\($0 % 200 + 2):9/m\($0).bin\"" }.joined(separator: ",")
        let (_, refused) = await send(dispatcher, #"{"jsonrpc":"2.0","id":2,"method":"aria2.changeUri","params":["token:s3cret","0000000000000001",1,[],["#
            + links + "],0]}")
        #expect((error(refused)?["message"] as? String)?.contains("mirrors for one file") == true, "\(refused)")
        #expect(store.task(1)?.url == "http://127.0.0.1:9/a.bin" && store.task(1)?.mirrors == [])
    }

    @Test func changeUriReplacesTheLinkAndAnswersAsAria2Does() async {
        let (_, dispatcher) = await make()
        _ = await send(dispatcher, #"{"jsonrpc":"2.0","id":1,"method":"aria2.addUri","params":["token:s3cret",["http://127.0.0.1:9/old.bin"]]}"#)
        let (_, changed) = await send(dispatcher, #"{"jsonrpc":"2.0","id":2,"method":"aria2.changeUri","params":["token:s3cret","0000000000000001",1,["http://127.0.0.1:9/old.bin"],["http://127.0.0.1:9/new.bin"]]}"#)
        #expect(result(changed) as? [Int] == [1, 1])
        #expect(store.task(1)?.url == "http://127.0.0.1:9/new.bin")
        #expect(store.task(1)?.linkChange == .sameFile)
        // Another file index, an unknown GID, a bad link: aria2's errors, and the task as it was.
        let (_, index) = await send(dispatcher, #"{"jsonrpc":"2.0","id":3,"method":"aria2.changeUri","params":["token:s3cret","0000000000000001",2,[],["http://127.0.0.1:9/x"]]}"#)
        #expect((error(index)?["message"] as? String)?.contains("fileIndex") == true)
        let (_, unknown) = await send(dispatcher, #"{"jsonrpc":"2.0","id":4,"method":"aria2.changeUri","params":["token:s3cret","00000000000000ff",1,[],["http://127.0.0.1:9/x"]]}"#)
        #expect(error(unknown)?["message"] as? String == "GID 00000000000000ff is not found")
        let (_, bad) = await send(dispatcher, #"{"jsonrpc":"2.0","id":5,"method":"aria2.changeUri","params":["token:s3cret","0000000000000001",1,[],["file:///etc/passwd"]]}"#)
        #expect((error(bad)?["message"] as? String)?.contains("file") == true)
        #expect(store.task(1)?.url == "http://127.0.0.1:9/new.bin")
    }

    @Test func aRunningDownloadOverSeveralConnectionsShowsThemAndItsPiecesAsAria2Does() async throws {
        let (controller, dispatcher) = await make()
        let run = Task { await controller.run() }
        _ = await send(dispatcher, #"{"jsonrpc":"2.0","id":1,"method":"aria2.addUri","params":["token:s3cret",["http://127.0.0.1:9/a.bin"]]}"#)
        try await eventually("started", timeout: .seconds(10)) { driver.started == [TaskID(1)] }
        let mib: Int64 = 1 << 20
        driver.emit(.responded(TaskID(1), ResponseSummary(
            fileName: "a.bin", totalBytes: 10 * mib + 5, validators: RemoteValidators(etag: "\"e\""), offset: 0,
            restartReason: nil, httpStatus: 200)))
        driver.emit(.connections([TaskID(1): 3]))
        // Pieces 0-1 and 4-5 arrived, piece 6 half, the rest not: 11 pieces of 1 MiB, the last of 5 bytes.
        driver.emit(.segmentMaps([TaskID(1): SegmentMap(total: 10 * mib + 5, spans: [
            .init(range: 0..<(2 * mib), cell: .done), .init(range: (2 * mib)..<(4 * mib), cell: .inFlight),
            .init(range: (4 * mib)..<(6 * mib + mib / 2), cell: .done),
            .init(range: (6 * mib + mib / 2)..<(10 * mib + 5), cell: .waiting),
        ])]))
        driver.emit(.progress([TaskID(1): 4 * mib]))
        let object = try await eventuallyValue("live status", timeout: .seconds(10)) { () async -> [String: Any]? in
            let (_, status) = await send(dispatcher, #"{"jsonrpc":"2.0","id":2,"method":"aria2.tellStatus","params":["token:s3cret","0000000000000001"]}"#)
            let object = result(status) as? [String: Any]
            return object?["connections"] as? String == "3" && object?["bitfield"] as? String == "cc00" ? object : nil
        }
        #expect(object["numPieces"] as? String == "11")
        #expect(object["pieceLength"] as? String == "1048576")
        await controller.stop()
        _ = await run.value
    }

    @Test func anAttachedListGetsWhatChangedSinceTheSnapshotItHolds() async throws {
        let (controller, dispatcher) = await make()
        await controller.perform(.add((1...50).map { NewTask(url: "http://127.0.0.1:9/f\($0).bin", directory: downloads) }))
        func snapshot(_ options: String) async throws -> [String: Any] {
            let (reply, _) = await send(
                dispatcher, #"{"jsonrpc":"2.0","id":1,"method":"haul.snapshot","params":["token:s3cret",\#(options)]}"#,
                over: .localSocket)
            let body = try #require(reply.body)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
            return try #require(object["result"] as? [String: Any])
        }
        // Nothing served yet for that sequence: the whole snapshot.
        let sequence = box.read().sequence
        let first = try await snapshot(#"{"after":0,"delta":true,"owner":42,"timeout":0}"#)
        let full = try #require(first["full"] as? [String: Any])
        #expect((full["rows"] as? [Any])?.count == 50)
        #expect(full["sequence"] as? Int == Int(sequence))

        await controller.perform(.pause(TaskID(7)))
        let second = try await snapshot(#"{"after":\#(sequence),"delta":true,"owner":42}"#)
        let delta = try #require(second["delta"] as? [String: Any])
        #expect(delta["base"] as? Int == Int(sequence))
        let changed = (delta["rows"] as? [[String: Any]] ?? []).compactMap { row in
            (((row["task"] as? [String: Any])?["id"]) as? [String: Any])?["rawValue"] as? Int
        }
        #expect(changed == [7])
        #expect(delta["order"] == nil)

        // Another owner (a restarted haul) never gets a delta, nor does a caller without `delta`.
        let other = try await snapshot(#"{"after":\#(sequence),"delta":true,"owner":7,"timeout":0}"#)
        #expect(other["full"] != nil && other["delta"] == nil)
        let plain = try await snapshot(#"{"after":\#(sequence),"timeout":0}"#)
        #expect((plain["rows"] as? [Any])?.count == 50)
    }

    @Test func theBitfieldSetsTheHighBitForPieceZeroAndLeavesTheOverflowBitsClear() {
        #expect(Aria2Status.bitfield(doneRanges: [], total: 100, pieceLength: 10) == "0000")
        #expect(Aria2Status.bitfield(doneRanges: [0..<100], total: 100, pieceLength: 10) == "ffc0")
        #expect(Aria2Status.bitfield(doneRanges: [0..<10, 10..<25, 90..<100], total: 100, pieceLength: 10) == "c040")
        // A piece split across two touching ranges is whole; one byte short is not.
        #expect(Aria2Status.bitfield(doneRanges: [0..<5, 5..<10, 10..<19], total: 20, pieceLength: 10) == "80")
        // A lying server's length stays a short status: at most 65,536 pieces.
        let absurd = Int64.max - 1
        let length = Aria2Status.pieceLength(total: absurd)
        #expect(absurd / length < 1 << 16)
        #expect(Aria2Status.bitfield(doneRanges: [0..<(1 << 40)], total: absurd, pieceLength: length).count <= (1 << 16) / 4)
        #expect(Aria2Status.pieceLength(total: 10 << 30) == 1 << 20)
    }

    @Test func hostileAddUriOptionsAreRefusedWithAClearError() async throws {
        let (_, dispatcher) = await make()
        let cases = [
            #"[["http://127.0.0.1:9/a"],{"out":"../escape"}]"#,
            #"[["http://127.0.0.1:9/a"],{"dir":"/etc"}]"#,
            #"[["file:///etc/passwd"]]"#,
            #"[["http://127.0.0.1:9/a"],{"header":["Range: bytes=0-1"]}]"#,
            #"[["http://127.0.0.1:9/a"],{"header":"X: a\r\nInjected: b"}]"#,
            #"[[]]"#,
        ]
        for params in cases {
            let body = #"{"jsonrpc":"2.0","id":1,"method":"aria2.addUri","params":["token:s3cret","#
                + params.dropFirst() + "}"
            let (reply, json) = await send(dispatcher, String(body))
            #expect(reply.httpStatus == 400, "\(params)")
            #expect(error(json)?["code"] as? Int == 1, "\(params)")
            let message = error(json)?["message"] as? String
            #expect(message?.isEmpty == false)
        }
        #expect(try store.loadAll().isEmpty)
    }

    @Test func aScheduleOfMoreThanAThousandWindowsIsRefusedAndNothingChanges() async throws {
        let (controller, dispatcher) = await make()
        let short = (0..<1000).map { "\"10:\(String(format: "%02d:%02d", $0 / 60 % 60, $0 % 60))-10:\(String(format: "%02d:%02d", ($0 + 1) / 60 % 60, ($0 + 1) % 60))=2M\"" }
        func change(_ caps: [String]) async -> (RPCReply, Any?) {
            await send(
                dispatcher, #"{"jsonrpc":"2.0","id":1,"method":"haul.changeSchedule","params":["token:s3cret",{"caps":["#
                    + caps.joined(separator: ",") + "]}]}", over: .localSocket)
        }
        let (_, tooMany) = await change([#""00:00-24:00=1M""#] + short)
        let message = error(tooMany)?["message"] as? String ?? ""
        #expect(message.contains("1001 windows") && message.contains("at most 1000"), "\(message)")
        #expect(await controller.currentSchedule().isEmpty)
        let (_, enough) = await change([#""00:00-24:00=1M""#] + short.dropLast())
        #expect(result(enough) as? String == "OK", "\(String(describing: enough))")
        #expect(await controller.currentSchedule().capWindows.count == 1000)
    }

    @Test func aNULInAHeaderIsRefusedNotCutShort() async throws {
        let (_, dispatcher) = await make()
        for header in [#""X-A: \u0000tail""#, #"["X-A: \u0000tail"]"#] {
            let body = #"{"jsonrpc":"2.0","id":1,"method":"aria2.addUri","params":["token:s3cret",["http://127.0.0.1:9/a"],{"header":"#
                + header + "}]}"
            let (reply, json) = await send(dispatcher, body)
            #expect(reply.httpStatus == 400, "\(header)")
            let message = error(json)?["message"] as? String ?? ""
            #expect(message.contains("NUL") && message.contains("X-A: "), "\(message)")
        }
        #expect(try store.loadAll().isEmpty)
    }

    @Test func proxyAndLoginOptionsAreAppliedAndShownWithoutTheirSecrets() async throws {
        let (_, dispatcher) = await make()
        let (_, added) = await send(dispatcher, #"{"jsonrpc":"2.0","id":1,"method":"aria2.addUri","params":["token:s3cret",["http://127.0.0.1:9/a"],{"all-proxy":"socks5h://127.0.0.1:1080","all-proxy-user":"al ice","all-proxy-passwd":"pw:1","no-proxy":"localhost","http-user":"u","http-passwd":"hunter2","header":"Cookie: s=1"}]}"#)
        #expect(result(added) as? String == "0000000000000001")
        let task = try #require(try store.loadAll().first)
        #expect(task.requestOptions.proxies == ProxySettings(all: "socks5h://al%20ice:pw%3A1@127.0.0.1:1080", noProxy: "localhost"))
        #expect(task.headers.contains("Authorization: Basic " + Data("u:hunter2".utf8).base64EncodedString()))
        let (_, options) = await send(dispatcher, #"{"jsonrpc":"2.0","id":2,"method":"aria2.getOption","params":["token:s3cret","0000000000000001"]}"#)
        let shown = try #require(result(options) as? [String: Any])
        #expect(shown["all-proxy"] as? String == "socks5h://127.0.0.1:1080")
        #expect(shown["no-proxy"] as? String == "localhost")
        // aria2's form: one line each.
        let headers = (shown["header"] as? String)?.split(separator: "\n").map(String.init)
        #expect(headers?.contains("Cookie: ********") == true && headers?.contains("Authorization: ********") == true)
        let text = String(decoding: try JSONSerialization.data(withJSONObject: shown), as: UTF8.self)
        #expect(!text.contains("pw") && !text.contains("al ice") && !text.contains("al%20ice"))
    }

    @Test func badProxiesAndLocalFilesOutsideTheAllowedDirectoriesAreRefused() async throws {
        let (_, dispatcher) = await make()
        let cases: [(String, String)] = [
            (#"{"all-proxy":"ftp://127.0.0.1:21"}"#, "'ftp'"),
            (#"{"all-proxy":"http://127.0.0.1:99999"}"#, "http://127.0.0.1:99999"),
            (#"{"all-proxy-user":"u"}"#, "--all-proxy-user"),
            (#"{"load-cookies":"/etc/passwd"}"#, "/etc/passwd"),
            (#"{"netrc-path":"/etc/hostname"}"#, "/etc/hostname"),
            (#"{"load-cookies":"/nonexistent/c.txt"}"#, "/nonexistent/c.txt"),
        ]
        for (options, quoted) in cases {
            let (reply, json) = await send(dispatcher, #"{"jsonrpc":"2.0","id":1,"method":"aria2.addUri","params":["token:s3cret",["http://127.0.0.1:9/a"],"# + options + "]}")
            #expect(reply.httpStatus == 400, "\(options)")
            let message = error(json)?["message"] as? String ?? ""
            #expect(message.contains(quoted), "\(options): \(message)")
        }
        #expect(try store.loadAll().isEmpty)
        // A file outside gets the same answer whether it exists or not: no probing the machine's files.
        for path in ["/etc/passwd", "/etc/no-such-file-here"] {
            let (_, json) = await send(dispatcher, #"{"jsonrpc":"2.0","id":1,"method":"aria2.addUri","params":["token:s3cret",["http://127.0.0.1:9/a"],{"load-cookies":""# + path + #""}]}"#)
            #expect(error(json)?["message"] as? String == "cookies file '\(path)' is outside the directories RPC may name (--rpc-allowed-dir)")
        }
    }

    @Test func negativeOffsetsCountFromTheEndInReverse() async {
        let (_, dispatcher) = await make()
        for index in 1...4 {
            _ = await send(dispatcher, #"{"jsonrpc":"2.0","id":1,"method":"aria2.addUri","params":["token:s3cret",["http://127.0.0.1:9/f\#(index)"]]}"#)
        }
        let (_, json) = await send(dispatcher, #"{"jsonrpc":"2.0","id":1,"method":"aria2.tellWaiting","params":["token:s3cret",-1,2,["gid"]]}"#)
        let gids = (result(json) as? [[String: Any]])?.compactMap { $0["gid"] as? String }
        #expect(gids == ["0000000000000004", "0000000000000003"])
        let (_, stopped) = await send(dispatcher, #"{"jsonrpc":"2.0","id":1,"method":"aria2.tellStopped","params":["token:s3cret",-1,1000]}"#)
        #expect((result(stopped) as? [Any])?.isEmpty == true)
    }

    @Test func hostileNumbersGetAnAnswerOrAClearError() async throws {
        let (_, dispatcher) = await make()
        _ = await send(dispatcher, #"{"jsonrpc":"2.0","id":1,"method":"aria2.addUri","params":["token:s3cret",["http://127.0.0.1:9/f"]]}"#)
        let numbers = [
            "0", "-1", "9223372036854775807", "-9223372036854775808", "9223372036854775808", "18446744073709551616",
            "1e300", "-1e300", "1e-300", #""9999999999999999T""#, #""nan""#, #""inf""#,
        ]
        for number in numbers {
            let calls = [
                #""aria2.tellWaiting","params":["token:s3cret",\#(number),\#(number)]"#,
                #""aria2.tellStopped","params":["token:s3cret",\#(number),\#(number)]"#,
                #""aria2.changePosition","params":["token:s3cret","0000000000000001",\#(number),"POS_CUR"]"#,
                #""aria2.changeGlobalOption","params":["token:s3cret",{"max-concurrent-downloads":\#(number)}]"#,
                #""aria2.changeGlobalOption","params":["token:s3cret",{"max-overall-download-limit":\#(number)}]"#,
                #""aria2.addUri","params":["token:s3cret",["http://127.0.0.1:9/g"],{"split":\#(number),"max-download-limit":\#(number)}]"#,
            ]
            for call in calls {
                let (_, json) = await send(dispatcher, #"{"jsonrpc":"2.0","id":1,"method":"# + call + "}")
                let message = error(json)?["message"] as? String
                #expect(result(json) != nil || message?.isEmpty == false, "\(call) → \(String(describing: json))")
            }
        }
        // A rate with a suffix past any rate is refused naming it.
        let (_, json) = await send(
            dispatcher, #"{"jsonrpc":"2.0","id":1,"method":"aria2.changeGlobalOption","params":["token:s3cret",{"max-overall-download-limit":"9999999999999999G"}]}"#)
        #expect((error(json)?["message"] as? String)?.contains("'9999999999999999G' is not a rate") == true, "\(String(describing: json))")
    }

    @Test func multicallRunsEachCallWithItsOwnToken() async {
        let (_, dispatcher) = await make()
        let body = #"{"jsonrpc":"2.0","id":"m","method":"system.multicall","params":[[{"methodName":"aria2.getGlobalStat","params":["token:s3cret"]},{"methodName":"aria2.getGlobalStat","params":["token:bad"]},{"methodName":"aria2.nope","params":["token:s3cret"]}]]}"#
        let (reply, json) = await send(dispatcher, body)
        #expect(reply.httpStatus == 200)
        let results = result(json) as? [Any] ?? []
        #expect(results.count == 3)
        #expect(((results.first as? [Any])?.first as? [String: Any])?["numActive"] as? String == "0")
        #expect((results[1] as? [String: Any])?["message"] as? String == "Unauthorized")
        #expect((results[2] as? [String: Any])?["code"] as? Int == -32601)
    }

    @Test func everyListedMethodIsAnsweredAndHaulsOwnAreNotListed() async {
        let (_, dispatcher) = await make()
        let (_, json) = await send(dispatcher, #"{"jsonrpc":"2.0","id":1,"method":"system.listMethods"}"#)
        let names = result(json) as? [String] ?? []
        #expect(names.count == 32 && names.contains("aria2.addUri") && names.contains("aria2.changeUri") && names.contains("system.multicall"))
        #expect(!names.contains { $0.hasPrefix("haul.") })
        for name in names where !name.hasSuffix("hutdown") {
            let (_, answer) = await send(dispatcher, #"{"jsonrpc":"2.0","id":1,"method":"\#(name)","params":["token:s3cret"]}"#)
            #expect(error(answer)?["code"] as? Int != -32601, "\(name) is listed but not dispatched")
        }
    }

    @Test func saveSessionSaysThereIsNoSessionFileAsAria2DoesWithoutOne() async {
        let (_, dispatcher) = await make()
        let (reply, json) = await send(dispatcher, #"{"jsonrpc":"2.0","id":1,"method":"aria2.saveSession","params":["token:s3cret"]}"#)
        #expect(reply.httpStatus == 400)
        #expect((error(json)?["message"] as? String)?.hasPrefix("Filename is not given.") == true)
    }

    @Test func nestingPastTheCapIsAParseErrorThatSaysSo() async {
        let (_, dispatcher) = await make()
        let (reply, json) = await send(dispatcher, String(repeating: "[", count: 500) + String(repeating: "]", count: 500))
        #expect(reply.httpStatus == 500)
        #expect(error(json)?["code"] as? Int == -32700)
        #expect((error(json)?["message"] as? String)?.contains("64") == true)
    }

    @Test func onlyARequestWithTheRightTokenAuthorizesTheConnection() async {
        let (_, dispatcher) = await make()
        let (listed, _) = await send(dispatcher, #"{"jsonrpc":"2.0","id":1,"method":"system.listMethods"}"#)
        #expect(!listed.authorized)
        let (wrong, _) = await send(dispatcher, #"{"jsonrpc":"2.0","id":1,"method":"aria2.getVersion","params":["token:nope"]}"#)
        #expect(!wrong.authorized && wrong.unauthorized)
        let (right, _) = await send(dispatcher, #"[{"jsonrpc":"2.0","id":1,"method":"aria2.getVersion","params":["token:s3cret"]}]"#)
        #expect(right.authorized)
        let (local, _) = await send(dispatcher, #"{"jsonrpc":"2.0","id":1,"method":"system.listMethods"}"#, over: .localSocket)
        #expect(local.authorized)
    }

    @Test func protocolErrorsAsAria2GivesThem() async {
        let (_, dispatcher) = await make()
        let (parse, parseJSON) = await send(dispatcher, "{not json")
        #expect(parse.httpStatus == 500)
        #expect(error(parseJSON)?["code"] as? Int == -32700)
        let (missingID, _) = await send(dispatcher, #"{"jsonrpc":"2.0","method":"aria2.getVersion"}"#)
        #expect(missingID.httpStatus == 400)
        let (unknown, unknownJSON) = await send(dispatcher, #"{"jsonrpc":"2.0","id":1,"method":"aria2.addTorrent","params":["token:s3cret"]}"#)
        #expect(unknown.httpStatus == 404)
        #expect(error(unknownJSON)?["code"] as? Int == -32601)
        let (named, _) = await send(dispatcher, #"{"jsonrpc":"2.0","id":1,"method":"aria2.getVersion","params":{"a":1}}"#)
        #expect(named.httpStatus == 500)
        let (batch, batchJSON) = await send(dispatcher, #"[{"jsonrpc":"2.0","id":1,"method":"aria2.getVersion","params":["token:s3cret"]},{"jsonrpc":"2.0","id":2,"method":"aria2.nope"}]"#)
        #expect(batch.httpStatus == 200)
        #expect((batchJSON as? [Any])?.count == 2)
        // haul.* methods are for the owner's socket only.
        let (haulOverTCP, _) = await send(dispatcher, #"{"jsonrpc":"2.0","id":1,"method":"haul.snapshot","params":["token:s3cret"]}"#)
        #expect(haulOverTCP.httpStatus == 404)
    }

    @Test func eventsBecomeNotifications() async throws {
        let (controller, dispatcher) = await make()
        let notifications = dispatcher.notifications()
        let run = Task { await controller.run() }
        _ = await send(dispatcher, #"{"jsonrpc":"2.0","id":1,"method":"aria2.addUri","params":["token:s3cret",["http://127.0.0.1:9/x"]]}"#)
        var iterator = notifications.makeAsyncIterator()
        let first = try #require(await iterator.next())
        let json = try JSONSerialization.jsonObject(with: Data(first)) as? [String: Any]
        #expect(json?["method"] as? String == "aria2.onDownloadStart")
        #expect(((json?["params"] as? [[String: Any]])?.first?["gid"]) as? String == "0000000000000001")
        await controller.stop()
        _ = await run.value
    }

    /// A command for every task tells each idle task's change in one controller event; aria2 clients still hear of
    /// each task, and see the removed ones in `tellStopped` until they purge them.
    @Test func aCommandForEveryTaskNotifiesEachTaskAndListsTheRemovedOnes() async throws {
        let (controller, dispatcher) = await make()
        let notifications = dispatcher.notifications()
        let run = Task { await controller.run() }
        for name in ["a", "b", "c"] {
            _ = await send(dispatcher, #"{"jsonrpc":"2.0","id":1,"method":"aria2.addUri","params":["token:s3cret",["http://127.0.0.1:9/\#(name)"]]}"#)
        }
        var heard: [String] = []
        var iterator = notifications.makeAsyncIterator()
        func hear(_ count: Int) async throws {
            for _ in 0..<count {
                let message = try #require(await iterator.next())
                let json = try JSONSerialization.jsonObject(with: Data(message)) as? [String: Any]
                let gid = (json?["params"] as? [[String: Any]])?.first?["gid"] as? String ?? ""
                heard.append("\(json?["method"] as? String ?? "") \(gid.suffix(1))")
            }
        }
        try await hear(1)
        #expect(heard == ["aria2.onDownloadStart 1"])
        // One running, two waiting: the waiting ones change in one event, and each is told (the running one when
        // the engine says it stopped, which this scripted engine does not).
        #expect(await controller.perform(.pauseAll) == .changed(3))
        try await hear(2)
        #expect(heard.suffix(2) == ["aria2.onDownloadPause 2", "aria2.onDownloadPause 3"])
        #expect(await controller.perform(.removeAll(only: .paused, deleteFile: false)) == .changed(3))
        try await hear(3)
        #expect(Set(heard.suffix(3)) == ["aria2.onDownloadStop 1", "aria2.onDownloadStop 2", "aria2.onDownloadStop 3"])
        let (_, stopped) = await send(dispatcher, #"{"jsonrpc":"2.0","id":1,"method":"aria2.tellStopped","params":["token:s3cret",0,10,["gid","status"]]}"#)
        let rows = try #require(result(stopped) as? [[String: Any]])
        #expect(Set(rows.compactMap { $0["gid"] as? String }) == ["0000000000000001", "0000000000000002", "0000000000000003"])
        #expect(rows.allSatisfy { $0["status"] as? String == "removed" })
        await controller.stop()
        _ = await run.value
    }

    @Test func changePositionMovesWithinTheWaitingList() async {
        let (_, dispatcher) = await make()
        for index in 1...3 {
            _ = await send(dispatcher, #"{"jsonrpc":"2.0","id":1,"method":"aria2.addUri","params":["token:s3cret",["http://127.0.0.1:9/f\#(index)"]]}"#)
        }
        let (_, json) = await send(dispatcher, #"{"jsonrpc":"2.0","id":1,"method":"aria2.changePosition","params":["token:s3cret","0000000000000003",0,"POS_SET"]}"#)
        // The memory store does not reorder, so only the answer's shape is checked here; the SQLite store's move has its own tests.
        #expect(result(json) is Int)
        let (_, bad) = await send(dispatcher, #"{"jsonrpc":"2.0","id":1,"method":"aria2.changePosition","params":["token:s3cret","0000000000000003",0,"POS_NOWHERE"]}"#)
        #expect(error(bad)?["code"] as? Int == 1)
    }
}
