import Foundation
import HaulTestSupport
import Synchronization

/// The outcome of one `/usr/bin/curl` run against 127.0.0.1.
struct CurlResult {
    /// curl's exit code (0 ok, 18 partial file, 28 timeout, ...).
    var exitCode: Int32
    /// Status of the last response, 0 when none arrived.
    var status: Int
    /// Header fields of the last response.
    var headers: [(name: String, value: String)]
    var body: [UInt8]
    /// Every status line seen (redirect hops included).
    var statusLines: [String]

    func header(_ name: String) -> String? {
        headers.last { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// Runs the curl CLI, only ever against loopback URLs; every run is bounded.
struct Curl {
    static let path = "/usr/bin/curl"
    private static let counter = Atomic<Int>(0)

    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory(prefix: "haul-curl") }

    /// Fetches `url` with extra request `headers` and `options`; `timeout` bounds the whole run.
    func fetch(
        _ url: String, headers: [String] = [], options: [String] = [], timeout: Duration = .seconds(10)
    ) async throws -> CurlResult {
        precondition(url.hasPrefix("http://127.0.0.1:"), "tests only talk to loopback: \(url)")
        let n = Self.counter.add(1, ordering: .relaxed).newValue
        let bodyFile = directory.file("body-\(n)")
        let headerFile = directory.file("head-\(n)")
        var arguments = ["-s", "--noproxy", "*", "-o", bodyFile, "-D", headerFile, "--max-time", "8"]
        for header in headers { arguments += ["-H", header] }
        arguments += options + [url]
        let process = try HaulProcess(URL(fileURLWithPath: Self.path), arguments: arguments)
        let code = try await process.waitForExit(timeout: timeout)
        let body = (try? Data(contentsOf: URL(fileURLWithPath: bodyFile))).map { [UInt8]($0) } ?? []
        let head = (try? String(contentsOfFile: headerFile, encoding: .utf8)) ?? ""
        return Self.parse(head: head, body: body, exitCode: code)
    }

    static func parse(head: String, body: [UInt8], exitCode: Int32) -> CurlResult {
        var result = CurlResult(exitCode: exitCode, status: 0, headers: [], body: body, statusLines: [])
        for line in head.split(separator: "\r\n") {
            if line.hasPrefix("HTTP/") {
                result.statusLines.append(String(line))
                result.status = Int(line.split(separator: " ")[1]) ?? 0
                result.headers = []
            } else if let colon = line.firstIndex(of: ":") {
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                result.headers.append((String(line[..<colon]), value))
            }
        }
        return result
    }
}
