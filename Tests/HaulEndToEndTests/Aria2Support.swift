import Foundation
import HaulTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The aria2 conformance suites (Aria2*Tests), one test at a time: each starts hauls, Python clients and
/// servers, and the rest of the test run has timing tests that must not share two cores with all of them at once.
@Suite(.serialized) enum Aria2Conformance {}

/// A haul serving aria2's JSON-RPC on a loopback TCP port (the foreground form, `--headless --keep-running`),
/// and the real clients the conformance tests speak through: Python's `http.client` and `websocket-client`
/// (Scripts/rpc_client.py), and aria2p.
struct Aria2Haul {
    let run: HaulRun
    /// The foreground haul; nil for a `haul daemon` the test stops itself.
    let process: HaulProcess?
    let port: Int
    let secret: String

    var url: String { "http://127.0.0.1:\(port)/jsonrpc" }
    var webSocketURL: String { "ws://127.0.0.1:\(port)/jsonrpc" }
    var token: String { "token:" + secret }

    /// Starts `haul --headless --keep-running --rpc-listen 0 --rpc-secret-file FILE ARGS` and waits for its port.
    static func start(_ run: HaulRun, arguments: [String] = [], secret: String = Aria2Haul.randomSecret()) async throws -> Aria2Haul {
        let file = run.root.file("rpc-secret.txt")
        _ = FileManager.default.createFile(atPath: file, contents: Data((secret + "\n").utf8), attributes: [.posixPermissions: 0o600])
        let process = try run.start(["--headless", "--keep-running", "--rpc-listen", "0", "--rpc-secret-file", file] + arguments)
        let port = try await listenerPort(process)
        return Aria2Haul(run: run, process: process, port: port, secret: secret)
    }

    static func randomSecret() -> String { "s3cret-" + UUID().uuidString.prefix(12).lowercased() }

    /// The port of the note "aria2 JSON-RPC on http://127.0.0.1:PORT/jsonrpc …".
    static func listenerPort(_ process: HaulProcess) async throws -> Int {
        let line = try await process.waitForOutput(containing: "aria2 JSON-RPC on http://", timeout: .seconds(20))
        return try #require(port(in: line))
    }

    static func port(in text: String) -> Int? {
        guard let range = text.range(of: "aria2 JSON-RPC on http://127.0.0.1:") else { return nil }
        return Int(text[range.upperBound...].prefix { $0.isNumber })
    }

    /// One JSON-RPC request with the token first, as every aria2 client sends it; returns the whole reply.
    func call(_ method: String, _ params: [Any] = [], id: Any = "haul-test", token: Bool = true) async throws -> RPCAnswer {
        try await post(["jsonrpc": "2.0", "id": id, "method": method, "params": (token ? [self.token] : []) + params])
    }

    /// The `result` of a successful call; fails the test with the reply otherwise.
    func result(_ method: String, _ params: [Any] = []) async throws -> Any {
        let answer = try await call(method, params)
        guard answer.status == 200, let result = answer.object?["result"] else {
            throw RPCFailure(description: "\(method) answered \(answer.status): \(answer.body)")
        }
        return result
    }

    func status(_ gid: String, _ keys: [String] = []) async throws -> [String: Any] {
        try #require(try await result("aria2.tellStatus", [gid] + (keys.isEmpty ? [] : [keys])) as? [String: Any])
    }

    func post(_ request: Any, headers: [String] = ["Content-Type: application/json"]) async throws -> RPCAnswer {
        let body = String(decoding: try JSONSerialization.data(withJSONObject: request), as: UTF8.self)
        return try await RPCClient.call(url, body: body, headers: headers)
    }
}

/// What `rpc_client.py call` saw: the HTTP status, headers (lower-case names), body and time to answer.
struct RPCAnswer: @unchecked Sendable {
    var status: Int
    var headers: [String: String]
    var body: String
    var json: Any?
    var elapsed: Double

    var object: [String: Any]? { json as? [String: Any] }
    var error: [String: Any]? { object?["error"] as? [String: Any] }
}

struct RPCFailure: Error, CustomStringConvertible {
    var description: String
}

/// Runs Scripts/rpc_client.py and the aria2p command line, both with the `python3` on PATH.
enum RPCClient {
    static let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Scripts").path
    static var clientScript: String { scripts + "/rpc_client.py" }

    static func python(_ arguments: [String], input: HaulProcess.Input = .null) throws -> HaulProcess {
        try HaulProcess(URL(fileURLWithPath: "/usr/bin/env"), arguments: ["python3"] + arguments, input: input)
    }

    /// One HTTP request through `http.client` (Host, Content-Type and every header exactly as given).
    static func call(_ url: String, method: String = "POST", body: String? = nil, headers: [String] = []) async throws -> RPCAnswer {
        var arguments = [clientScript, "call", url, "--method", method]
        if let body { arguments += ["--body", body] }
        for header in headers { arguments += ["--header", header] }
        let process = try python(arguments)
        let status = try await process.waitForExit(timeout: .seconds(30))
        guard status == 0, let line = process.stdoutLines().last,
              let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw RPCFailure(description: "rpc_client.py exited \(status): \(process.stdoutText()) \(process.stderrText())")
        }
        return RPCAnswer(
            status: object["status"] as? Int ?? 0, headers: object["headers"] as? [String: String] ?? [:],
            body: object["body"] as? String ?? "", json: object["json"].flatMap { $0 is NSNull ? nil : $0 },
            elapsed: object["elapsed"] as? Double ?? 0)
    }

    /// A WebSocket client that prints OPEN and then every message it receives, one per line. With `token` it
    /// first sends a request with it (notifications go only to clients that have shown the secret), whose answer
    /// is printed too.
    static func webSocket(_ url: String, token: String? = nil, seconds: Int = 40) async throws -> HaulProcess {
        let greeting = token.map { ["--send", #"{"jsonrpc":"2.0","id":"hello","method":"aria2.getVersion","params":["\#($0)"]}"#] } ?? []
        let process = try python([clientScript, "ws", url, "--seconds", String(seconds)] + greeting, input: .pipe)
        try await process.waitForOutput(containing: "OPEN", in: .stdout, timeout: .seconds(15))
        if token != nil { try await process.waitForOutput(containing: #""id":"hello""#, in: .stdout, timeout: .seconds(15)) }
        return process
    }

    /// `python3 -m aria2p --port P --secret S ARGS` to its end: (status, stdout, stderr).
    static func aria2p(_ haul: Aria2Haul, _ arguments: [String]) async throws -> (Int32, String, String) {
        let process = try python(["-m", "aria2p", "--port", String(haul.port), "--secret", haul.secret, "--client-timeout", "15"] + arguments)
        let status = try await process.waitForExit(timeout: .seconds(30))
        return (status, process.stdoutText(), process.stderrText())
    }

    /// Whether python3 has websocket-client (scripts/install-deps.sh installs it).
    static let pythonClientsAvailable = pythonImports("websocket")
    /// Whether python3 also has aria2p with its `top` view (scripts/install-deps.sh installs `aria2p[tui]`).
    static let aria2pAvailable = pythonImports("aria2p, websocket, asciimatics")

    private static func pythonImports(_ modules: String) -> Bool {
        guard let process = try? python(["-c", "import " + modules]) else { return false }
        let deadline = ContinuousClock.now + .seconds(20)
        while process.isRunning, ContinuousClock.now < deadline { usleep(10_000) }
        return process.exitStatus == 0
    }
}

/// The lines of a WebSocket client's output that are JSON objects.
func webSocketMessages(_ process: HaulProcess) -> [[String: Any]] {
    process.stdoutLines().compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
}

/// The notifications (messages with a method) a WebSocket client printed so far.
func webSocketNotifications(_ process: HaulProcess) -> [[String: Any]] {
    webSocketMessages(process).filter { $0["method"] != nil }
}

/// The GIDs of the `aria2.onDownload…` notifications named `method` a WebSocket client printed so far.
func notifiedGIDs(_ process: HaulProcess, _ method: String) -> [String] {
    webSocketNotifications(process).filter { $0["method"] as? String == method }.compactMap {
        (($0["params"] as? [Any])?.first as? [String: Any])?["gid"] as? String
    }
}

/// Whether every value of an aria2 status object is a string, a list or an object (aria2 sends numbers as decimal strings).
func numbersAreStrings(_ object: [String: Any]) -> Bool {
    let numeric = ["totalLength", "completedLength", "uploadLength", "downloadSpeed", "uploadSpeed", "connections",
                   "numPieces", "pieceLength", "errorCode", "length", "index", "numActive", "numWaiting",
                   "numStopped", "numStoppedTotal"]
    for (key, value) in object {
        if let list = value as? [[String: Any]], !list.allSatisfy(numbersAreStrings) { return false }
        guard numeric.contains(key) else { continue }
        guard let text = value as? String, !text.isEmpty, text.allSatisfy(\.isNumber) else { return false }
    }
    return true
}

/// BitTorrent-only keys aria2 sends for torrents; haul never does.
let bitTorrentKeys: Set<String> = ["bittorrent", "infoHash", "numSeeders", "seeder", "followedBy", "following", "belongsTo"]

/// Listening TCP sockets the process holds (from /proc: its socket inodes among LISTEN rows of tcp and tcp6).
func listeningTCPPorts(pid: Int32) -> [Int] {
    let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
    var inodes: Set<String> = []
    for fd in fds {
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)"),
           target.hasPrefix("socket:[") {
            inodes.insert(String(target.dropFirst(8).dropLast()))
        }
    }
    var ports: [Int] = []
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
        let text = readProcFile(table)
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            guard fields.count > 9, fields[3] == "0A", inodes.contains(String(fields[9])),
                  let port = fields[1].split(separator: ":").last.flatMap({ Int($0, radix: 16) }) else { continue }
            ports.append(port)
        }
    }
    return ports
}

/// The whole of a /proc file (whose size stat reports as 0, so it is read to its end in chunks).
func readProcFile(_ path: String) -> String {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return "" }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0, errno == EINTR { continue }
        guard n > 0 else { break }
        bytes += chunk[..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
}
