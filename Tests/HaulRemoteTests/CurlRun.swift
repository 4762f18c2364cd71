import Foundation
import HaulTestSupport
import Synchronization

/// One run of the curl CLI, the real HTTP client these tests speak through; every run is bounded.
struct CurlRun {
    static let path = "/usr/bin/curl"
    private static let counter = Atomic<Int>(0)

    /// curl's exit code (0 ok, 7 could not connect, 28 timeout, ...).
    var exitCode: Int32
    /// Status of the response, 0 when none arrived.
    var status: Int
    var headers: [(name: String, value: String)]
    var body: String
    /// curl's own `time_total`: from the start of the transfer to its end, without the process's start-up.
    var transferTime: Duration

    func header(_ name: String) -> String? {
        headers.last { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Runs curl with `arguments` (the URL among them), writing its files into `directory`.
    ///
    /// - Parameter prefix: a command to run curl under, such as `setpriv --reuid=65534 ...`.
    static func run(
        _ arguments: [String], in directory: TemporaryDirectory, prefix: [String] = [], timeout: Duration = .seconds(15)
    ) async throws -> CurlRun {
        let n = counter.add(1, ordering: .relaxed).newValue
        let bodyFile = directory.file("curl-body-\(n)")
        let headerFile = directory.file("curl-head-\(n)")
        let full = prefix + [path, "-s", "--noproxy", "*", "--max-time", "10", "-o", bodyFile, "-D", headerFile,
            "-w", "%{time_total}"] + arguments
        let process = try HaulProcess(URL(fileURLWithPath: full[0]), arguments: Array(full.dropFirst()))
        let code = try await process.waitForExit(timeout: timeout)
        let seconds = Double(process.stdoutText().trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        let body = (try? String(contentsOfFile: bodyFile, encoding: .utf8)) ?? ""
        let head = (try? String(contentsOfFile: headerFile, encoding: .utf8)) ?? ""
        var status = 0
        var headers: [(String, String)] = []
        for line in head.split(separator: "\r\n") {
            if line.hasPrefix("HTTP/") {
                status = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
                headers = []
            } else if let colon = line.firstIndex(of: ":") {
                headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
            }
        }
        return CurlRun(
            exitCode: code, status: status, headers: headers, body: body, transferTime: .milliseconds(Int(seconds * 1000)))
    }
}
