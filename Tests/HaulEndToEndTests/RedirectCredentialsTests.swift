import FaultServer
import Foundation
import HaulTestSupport
import Testing

/// The GitHub/S3 shape: a link that needs a token answers 302 with a presigned URL on another host:port, which
/// refuses any request that carries Authorization. No connection of a segmented download may send the token or
/// the cookie there, before or after a resume.
@Suite(.timeLimit(.minutes(2)), .enabled(if: RPCClient.pythonClientsAvailable, "python3 is not installed"))
struct RedirectCredentialsEndToEndTests {
    static let size = 12 << 20

    @Test func credentialsNeverFollowARedirectToAnotherHostOnAnyConnection() async throws {
        let run = try HaulRun()
        let log = run.root.file("store.jsonl")
        let store = try RPCClient.python([RPCClient.scripts + "/presigned_server.py", log, "--size", String(Self.size)])
        defer { store.kill() }
        let portLine = try await store.waitForOutput(containing: "PORT ", in: .stdout, timeout: .seconds(15))
        let storeURL = "http://127.0.0.1:" + String(portLine.dropFirst("PORT ".count)) + "/bucket/release.bin?X-Amz-Signature=abc"
        let origin = try FaultServer()
        defer { origin.stop() }
        origin.route("/releases/release.bin", .redirect(to: storeURL))

        let (status, out, err) = try await run.run(
            ["--headless", "-s", "4", "--min-split-size", "1M", "-H", "Authorization: token ghp_secret", "-H", "Cookie: session=1",
             "--user-agent", "haul-test/1", "--referer", "http://127.0.0.1/page", origin.url("/releases/release.bin")],
            directory: true, timeout: .seconds(90))
        #expect(status == 0, "\(out)\n\(err)")
        let bytes = try #require(run.file("release.bin"))
        #expect(bytes.count == Self.size)
        #expect(bytes.enumerated().allSatisfy { $0.element == UInt8($0.offset % 251) })

        let requests = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let ranged = requests.filter { ($0["headers"] as? [String: String])?.keys.contains("Range") == true }
        #expect(ranged.count >= 2, "the download used several connections: \(requests.count) requests")
        for request in requests {
            let names = ((request["headers"] as? [String: String]) ?? [:]).keys.map { $0.lowercased() }
            #expect(!names.contains("authorization") && !names.contains("cookie"), "leaked to the store: \(request)")
            // Not credentials: --user-agent and --referer (aria2's names) follow the redirect.
            let headers = (request["headers"] as? [String: String]) ?? [:]
            #expect(headers.first { $0.key.lowercased() == "user-agent" }?.value == "haul-test/1", "\(request)")
            #expect(headers.first { $0.key.lowercased() == "referer" }?.value == "http://127.0.0.1/page", "\(request)")
        }
    }
}
