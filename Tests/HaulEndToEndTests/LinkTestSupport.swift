import Foundation
import HaulTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Helpers shared by the issue 14 tests with real parts (expiring links, proxies, logins, cookies).
enum LinkTests {
    /// Whether openssl is installed (htpasswd lines, secure_link signatures).
    static let opensslAvailable = FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl")

    /// `count` bytes that differ from those of another `seed`.
    static func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        return (0..<count).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state >> 24)
        }
    }

    /// Runs a tool to its end with `input` on stdin; returns its stdout.
    static func tool(_ path: String, _ arguments: [String], input: [UInt8] = []) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        try stdin.fileHandleForWriting.write(contentsOf: Data(input))
        try stdin.fileHandleForWriting.close()
        let data = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return [UInt8](data)
    }

    /// nginx's `secure_link_md5` value of `text`: the binary MD5, base64url without padding.
    static func secureLinkHash(_ text: String) throws -> String {
        let digest = try tool("/usr/bin/openssl", ["md5", "-binary"], input: Array(text.utf8))
        return Data(digest).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// An htpasswd line (`user:$apr1$…`) made with `openssl passwd -apr1`.
    static func htpasswdLine(user: String, password: String) throws -> String {
        let hash = String(decoding: try tool("/usr/bin/openssl", ["passwd", "-apr1", password]), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return "\(user):\(hash)\n"
    }

    /// Sets a file's modification time (nginx makes its ETag and Last-Modified from it and the size).
    static func setModificationTime(_ path: String, _ seconds: Int) throws {
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: TimeInterval(seconds))], ofItemAtPath: path)
    }

    /// Size of `NAME.part` in the run's download directory (0 when absent).
    static func partSize(_ run: HaulRun, _ name: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: run.downloads + "/" + name + ".part"))?[.size] as? Int) ?? 0
    }

    /// Writes an executable file.
    static func script(_ path: String, _ text: String) throws -> String {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(chmod(path, 0o755) == 0)
        return path
    }

    /// The current wall-clock time in whole seconds since 1970 (what nginx compares `expires` with).
    static var now: Int { Int(Date().timeIntervalSince1970) }
}

extension HaulRun {
    /// Starts `haul ARGS --state-dir S [-d D]` with `environment` added (proxy variables, for instance).
    /// `no_proxy` and `NO_PROXY` are emptied unless given, so an inherited one cannot send a test's traffic
    /// past its proxy (HaulProcess already drops the inherited proxies themselves).
    func start(_ arguments: [String], environment: [String: String], directory: Bool = true) throws -> HaulProcess {
        var full = arguments + ["--state-dir", state]
        if directory { full += ["-d", downloads] }
        let given = ["no_proxy": "", "NO_PROXY": ""].merging(environment) { _, new in new }
        return try HaulProcess(binary: "haul", arguments: full, environment: given)
    }

    /// Runs `haul ARGS --state-dir S -d D` to its end with `environment` added; returns (status, stdout, stderr).
    func download(
        _ arguments: [String], environment: [String: String] = [:], timeout: Duration = .seconds(30)
    ) async throws -> (Int32, String, String) {
        let process = try start(arguments, environment: environment)
        let status = try await process.waitForExit(timeout: timeout)
        return (status, process.stdoutText(), process.stderrText())
    }

    /// `haul list` (plain) and `haul list --json`, together.
    func listings() async throws -> String {
        let (_, plain, plainErrors) = try await run(["list"])
        let (_, json, jsonErrors) = try await run(["list", "--json"])
        return plain + plainErrors + json + jsonErrors
    }
}

extension NginxFixture {
    /// The access log once `enough` holds for it, or as it is after `timeout`: nginx writes a request's line when
    /// the request ends, which may be a moment after the client has read the last byte. The caller's own
    /// expectation then says what was missing.
    func entries(
        timeout: Duration = .seconds(5), when enough: ([AccessEntry]) -> Bool
    ) async -> [AccessEntry] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let entries = accessEntries()
            if enough(entries) || ContinuousClock.now >= deadline { return entries }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }
}
